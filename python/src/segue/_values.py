"""Parameter values in the C API's text form: numbers, vectors, colours, paths and the array and
data arguments of stitchable shaders, checked with messages that name the parameter.
"""
from __future__ import annotations

import decimal
import math
import numbers
import os
from typing import Any, List, Optional, Sequence, Set, Union

import numpy as np
import numpy.typing as npt

from ._library import InvalidArgumentError, InvalidArgumentTypeError, SegueError, library, path_text

__all__ = ["ParamValue", "parameter_text", "array_parameter_text", "ARRAY_TYPES"]

#: A parameter's value: a number or bool, a sequence or array of them (vectors; matrices
#: column-major; array arguments), bytes (a data argument), or text as the command line takes it
#: ("#ff8800", "0.5", an image path, "0.1,0.5,0.9", "@file.bin").
ParamValue = Union[str, os.PathLike[str], float, bool, bytes, bytearray, memoryview, np.generic, npt.NDArray[Any],
                   Sequence[Any]]

#: The array types of stitchable arguments (SwiftUI's floatArray, colorArray, data) as
#: `segue.describe` spells them.
ARRAY_TYPES = ("float[]", "color[]", "bytes")


def array_parameter_text(value: ParamValue, type_name: str, name: str) -> str:
    """A value for an array argument (`type_name` one of ARRAY_TYPES) in the C API's text form.

    ``float[]``: a sequence or 1-D array of numbers; ``color[]``: a sequence of colours (each
    "#rrggbb[aa]" or 4 numbers r,g,b,a as the shader reads them) or an (n, 4) array, flattened
    row by row; ``bytes``: bytes, bytearray or memoryview, a NumPy array of numbers (its bytes, C
    order, as Swift's Data of an array is: a float32 array gives 4 bytes per float) or a sequence
    of ints 0…255. Text is passed on unchanged (the C API's forms: "0.1,0.5", "@file.bin",
    "0x00ff"). Raises InvalidArgumentTypeError (a TypeError) for a value of another kind (an
    array of objects, strings or dates, complex numbers where floats are read) and
    InvalidArgumentError (a ValueError) for an array of the wrong shape; lengths and values are
    the library's to check."""
    if isinstance(value, (str, os.PathLike)):
        return path_text(value, _value_what(name))
    if type_name == "bytes":
        if isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
        elif isinstance(value, np.ndarray):
            # Numbers only: the bytes of an object array are pointers, a datetime's an epoch count.
            if value.dtype.kind not in "biufc" or value.dtype.hasobject:
                raise InvalidArgumentTypeError("parameter '%s' takes the bytes of an array of numbers, not of %s"
                                               % (name, value.dtype))
            data = np.ascontiguousarray(value).tobytes()
        elif isinstance(value, (tuple, list)):
            return parameter_text(value, name)
        else:
            raise InvalidArgumentTypeError("parameter '%s' takes bytes, a NumPy array or a list of ints 0-255, not %s"
                                           % (name, type(value).__name__))
        return "0x" + data.hex() if data else ""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise InvalidArgumentTypeError("parameter '%s' is a %s: give numbers, not bytes" % (name, type_name))
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            raise InvalidArgumentTypeError("parameter '%s': an array of numbers, not of %s" % (name, value.dtype))
        if type_name == "color[]":
            if value.ndim not in (1, 2) or (value.ndim == 2 and value.shape[1] != 4):
                raise InvalidArgumentError("parameter '%s' takes colours: an array of shape (n, 4), got %s"
                                           % (name, value.shape))
        elif value.ndim != 1:
            raise InvalidArgumentError("parameter '%s' takes a 1-D array of floats, got shape %s" % (name, value.shape))
        return ",".join(_number(v, name) for v in value.astype(np.float64).ravel(order="C").tolist())
    if isinstance(value, (tuple, list)):
        parts = []
        for item in value:
            if type_name == "color[]" and isinstance(item, str):
                parts.append(path_text(item, _value_what(name)))
            elif isinstance(item, (tuple, list, np.ndarray)) and type_name == "color[]":
                parts.append(parameter_text(item, name))
            elif isinstance(item, (numbers.Number, np.bool_)) and not isinstance(item, (bool, np.bool_)):
                parts.append(_number(item, name))
            else:
                raise InvalidArgumentTypeError("parameter '%s': items must be numbers%s, not %s"
                                               % (name, " or colours" if type_name == "color[]" else "", type(item).__name__))
        return ",".join(parts)
    raise InvalidArgumentTypeError("parameter '%s' is a %s: give a list or array, not %s" % (name, type_name, type(value).__name__))


def _shown(value: Any, limit: int = 80) -> str:
    """`value`'s repr for a message: at most `limit` characters, and the type's name where repr
    itself fails."""
    try:
        text = repr(value)
    except Exception:
        return "<%s>" % type(value).__name__
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _value_what(name: Optional[str]) -> str:
    """How messages name a parameter's value (with the parameter's name where it is known)."""
    return "a parameter value" if name is None else "a parameter value for '%s'" % name


def _value_of(value: Any, name: Optional[str]) -> str:
    return "parameter value %s%s" % (_shown(value), "" if name is None else " for '%s'" % name)


def _is_complex(value: Any) -> bool:
    """Whether `value` is a complex number (Python's, NumPy's scalars and arrays), which float()
    would refuse or, for NumPy's, cut to its real part."""
    if isinstance(value, np.ndarray):
        return bool(value.dtype.kind == "c")
    return isinstance(value, (complex, np.complexfloating)) or \
        (isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real))


def _number(value: Any, name: Optional[str] = None) -> str:
    """A number as the C API reads it (repr keeps every digit; NaN and infinities as "nan" and
    "inf", which the library refuses or takes as it does from the command line). Raises
    InvalidArgumentTypeError for a complex number or one float() cannot read, naming `name`."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        try:
            return str(int(value))
        except ValueError:   # more digits than str() writes (sys.set_int_max_str_digits)
            raise InvalidArgumentError("%s is too large" % _value_of(value, name)) from None
    if _is_complex(value):
        raise InvalidArgumentTypeError("%s is a complex number: give a real one" % _value_of(value, name))
    if isinstance(value, decimal.Decimal) and value.is_snan():
        return "nan"     # a signalling NaN is a NaN (float() raises for it)
    try:
        return repr(float(value))
    except OverflowError:
        raise InvalidArgumentError("%s is too large for a float" % _value_of(value, name)) from None
    except Exception as e:
        raise InvalidArgumentTypeError("%s has no value as a number (float() raised %s: %s)"
                                       % (_value_of(value, name), type(e).__name__, e)) from None


#: How deep tuples and lists may nest in a parameter value (a matrix is 2).
MAX_NESTING = 32


def parameter_text(value: ParamValue, name: Optional[str] = None) -> str:
    """A Python value in the C API's text form: numbers as they are, bools as true/false,
    tuples, lists and arrays as "a,b,c" (matrices flattened column-major as given), strings
    (``"#ff8800"``, ``"0.5"``, an image path) and paths unchanged (ValueError when they hold a NUL
    character, which C would cut them at, or a lone surrogate, which has no UTF-8 form). Raises
    InvalidArgumentTypeError (a TypeError and a SegueError) for a value of another type, a
    complex number, or a list that contains itself; messages name the parameter `name`."""
    if isinstance(value, (str, os.PathLike)):
        return path_text(value, _value_what(name))
    if isinstance(value, (numbers.Number, np.bool_)):
        return _number(value, name)
    if isinstance(value, (np.ndarray, tuple, list)):
        flat: List[str] = []
        _flatten(value, value, name, flat, set())
        return ",".join(flat)
    raise InvalidArgumentTypeError("%s: use a number, a bool, a tuple of numbers or a string, not %s"
                                   % (_value_of(value, name), type(value).__name__))


def _flatten(value: Any, whole: Any, name: Optional[str], flat: List[str], open_: Set[int]) -> None:
    """Appends the numbers of `value` (an array, tuple or list within the value `whole`) to
    `flat` as text; `open_` holds the ids of the lists being flattened around it."""
    if isinstance(value, np.ndarray):
        if _is_complex(value):
            raise InvalidArgumentTypeError("%s is an array of complex numbers: give real ones" % _value_of(whole, name))
        value = value.ravel(order="F").tolist()
    if id(value) in open_:
        raise InvalidArgumentTypeError("%s contains itself: give numbers" % _value_of(whole, name))
    if len(open_) >= MAX_NESTING:
        raise InvalidArgumentTypeError("%s nests lists more than %d deep: give numbers"
                                       % (_value_of(whole, name), MAX_NESTING))
    open_.add(id(value))
    for item in value:
        if isinstance(item, (tuple, list, np.ndarray)):
            _flatten(item, whole, name, flat, open_)
        elif isinstance(item, (numbers.Number, np.bool_)):
            flat.append(_number(item, name))
        else:
            raise InvalidArgumentTypeError("%s: components must be numbers or bools, not %s"
                                           % (_value_of(whole, name), type(item).__name__))
    open_.discard(id(value))


def _real(value: Any, what: str) -> float:
    """`value` as a float: InvalidArgumentTypeError unless it is a real number (text is refused,
    though float() would read it; so are complex numbers, whose imaginary part float() would drop
    for NumPy's, and objects whose __float__ fails). Whether it is finite and in range is the
    library's to check (a signalling NaN is a NaN)."""
    if not isinstance(value, (str, bytes, bytearray)):
        if _is_complex(value):
            raise InvalidArgumentTypeError("%s must be a real number, not the complex %s" % (what, _shown(value)))
        if isinstance(value, decimal.Decimal) and value.is_snan():
            return math.nan
        try:
            return float(value)
        except OverflowError:
            raise InvalidArgumentError("%s must be a finite number, got %s" % (what, _shown(value))) from None
        except TypeError:
            pass
        except Exception as e:   # a __float__ that fails
            raise InvalidArgumentTypeError("%s must be a number: float() of %s raised %s: %s"
                                           % (what, type(value).__name__, type(e).__name__, e)) from None
    raise InvalidArgumentTypeError("%s must be a number, not %s" % (what, type(value).__name__))


def _finite_text(value: float) -> str:
    """A number in a message as the library writes it (NaN, infinity, -infinity)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "infinity" if value > 0 else "-infinity"
    return "%g" % value
