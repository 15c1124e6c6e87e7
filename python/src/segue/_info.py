"""Describing effects without a GPU: `effects()` lists the built-ins, `describe()` any effect."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple, Union

from ._library import call, library, path_text, text

__all__ = ["EffectInfo", "Parameter", "effects", "describe"]

#: A parameter's default: a float, int or bool for scalars, a tuple for vectors and matrices
#: (column-major), None for a ``sampler2D``.
Default = Union[float, int, bool, Tuple[float, ...], Tuple[int, ...], Tuple[bool, ...], None]

#: segue_kind values as Python names.
KINDS: Dict[int, str] = {0: "transition", 1: "mesh-transition", 2: "single-image"}


@dataclass(frozen=True)
class Parameter:
    """One parameter of an effect.

    ``type`` is spelled as GLSL spells it (``float``, ``int``, ``bool``, ``vec2``…``vec4``,
    ``ivec2``…, ``bvec2``…, ``mat2``…``mat4``, ``sampler2D``; a stitchable function's array and
    data arguments ``float[]``, ``color[]`` and ``bytes``); ``default`` is a float, int or
    bool for scalars, a tuple for vectors and matrices (column-major), () for an array argument
    (empty) and None for a ``sampler2D`` (whose value is an image path); ``range`` is (min, max)
    when the effect states one (every built-in does; bools (0, 1)), else None: the values it is
    meant for, a slider's ends; values outside are still taken.
    """

    name: str
    type: str
    default: Default
    summary: str
    range: Optional[Tuple[float, float]]


@dataclass(frozen=True)
class EffectInfo:
    """What an effect is: ``kind`` is "transition" (a shader transition, which also applies to
    one image through `Effect`), "mesh-transition" (cube, page-curl, …) or "single-image"
    (curtain, bulge, … through `Effect`); ``duration`` is its default duration in seconds."""

    name: str
    kind: str
    summary: str
    duration: float
    parameters: Tuple[Parameter, ...]


def _value(type_name: str, components: Sequence[float]) -> Default:
    """A parameter's default components as the Python value its type suggests."""
    if type_name in ("float[]", "color[]", "bytes"):
        return ()     # an array argument: empty (count 0) until set
    if type_name == "sampler2D" or not components:
        return None
    base = type_name.rstrip("234")
    scalar = type_name in ("float", "int", "bool")
    if base in ("int", "ivec"):
        ints = tuple(int(c) for c in components)
        return ints[0] if scalar else ints
    if base in ("bool", "bvec"):
        bools = tuple(c != 0 for c in components)
        return bools[0] if scalar else bools
    floats = tuple(float(c) for c in components)
    return floats[0] if scalar else floats


def describe(effect: Union[str, os.PathLike[str]]) -> EffectInfo:
    """Describes `effect`: a built-in or xfade name, a ``.glsl`` file or ``FILE.metal:FUNCTION``
    (needs no GPU). Raises UnknownEffectError for an unknown effect, EffectFileError for a bad
    file, TypeError when `effect` is not a str or an os.PathLike, ValueError when it holds a NUL
    character."""
    effect = path_text(effect, "the effect")
    lib = library()
    info = call(lib.segue_info_create, effect.encode())
    try:
        parameters: List[Parameter] = []
        for i in range(lib.segue_info_param_count(info)):
            buffer = (ctypes.c_double * 16)()
            count = lib.segue_info_param_default(info, i, buffer, 16)
            type_name = text(lib.segue_info_param_type(info, i))
            low, high = ctypes.c_double(), ctypes.c_double()
            has_range = lib.segue_info_param_range(info, i, ctypes.byref(low), ctypes.byref(high)) == 1
            parameters.append(Parameter(
                name=text(lib.segue_info_param_name(info, i)),
                type=type_name,
                default=_value(type_name, list(buffer[:max(count, 0)])),
                summary=text(lib.segue_info_param_summary(info, i)),
                range=(low.value, high.value) if has_range else None))
        kind = lib.segue_info_kind(info)
        return EffectInfo(name=text(lib.segue_info_name(info)), kind=KINDS.get(kind, str(kind)),
                          summary=text(lib.segue_info_summary(info)),
                          duration=lib.segue_info_duration(info), parameters=tuple(parameters))
    finally:
        lib.segue_info_destroy(info)


def effects() -> List[EffectInfo]:
    """Every built-in effect (transitions, mesh transitions and single-image meshes) in
    `segue list` order, described as `describe` does."""
    lib = library()
    names = [text(lib.segue_builtin_name(i)) for i in range(lib.segue_builtin_count())]
    return [describe(name) for name in names]


