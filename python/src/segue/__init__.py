"""Segue for Python: GPU view transitions and effects on NumPy frames, through libsegue.so.

    import numpy as np, segue
    melt = segue.Transition("doom-melt", spread=0.5)
    frame = melt.render(a, b, 0.5)          # a, b: uint8 arrays (h, w, 4) or (h, w, 3)

The library is loaded on first use from ``SEGUE_LIBRARY``, else the system's library path, and
must be Segue 0.x (else SegueError). Failures raise `SegueError` subclasses by kind
(`UnknownEffectError`, `ShaderCompileError`, `InvalidArgumentError`, …; see `ErrorCode`).
``segue.moviepy`` joins MoviePy clips with Segue's transitions and ``segue.distributed`` runs a
``segue concat --plan`` plan on Dask; both are imported on first use (``segue.moviepy`` or
``import segue.moviepy``), so importing segue needs neither MoviePy nor Dask.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from ._info import EffectInfo, Parameter, describe, effects
from ._library import (BusyError, DeviceLostError, EffectFileError, ErrorCode, ForkedError, InvalidArgumentError,
                       InvalidArgumentTypeError, NoDeviceError, OutOfMemoryError, SegueError, SegueIOError,
                       ShaderCompileError, UnknownEffectError, UnsupportedEffectError, __version__, device_name,
                       version)
from ._render import Effect, Frame, ParamValue, Transition

if TYPE_CHECKING:   # for type checkers; at run time they are imported on first use (__getattr__)
    from . import distributed, moviepy

__all__ = ["Transition", "Effect", "EffectInfo", "Parameter", "effects", "describe", "version", "device_name",
           "Frame", "ParamValue", "ErrorCode", "SegueError", "InvalidArgumentError", "InvalidArgumentTypeError",
           "UnknownEffectError", "EffectFileError", "ShaderCompileError", "UnsupportedEffectError",
           "OutOfMemoryError", "DeviceLostError", "NoDeviceError", "SegueIOError", "BusyError", "ForkedError"]

# Submodules with optional dependencies, imported when first named (PEP 562). They are left out
# of dir(segue), so that tools that get every attribute (help(segue), inspect.getmembers) import
# neither, and work without MoviePy; pydoc lists them as the package's contents.
_LAZY = ("moviepy", "distributed")


def __getattr__(name: str) -> ModuleType:
    if name in _LAZY:
        # import_module sets the attribute on this package, so this runs once per submodule.
        return importlib.import_module("." + name, __name__)
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
