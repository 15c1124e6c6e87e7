"""Segue for Python: GPU view transitions and effects on NumPy frames, through libsegue.so.

    import numpy as np, segue
    melt = segue.Transition("doom-melt", spread=0.5)
    frame = melt.render(a, b, 0.5)          # a, b: uint8 arrays (h, w, 4) or (h, w, 3)

The library is loaded on first use from ``SEGUE_LIBRARY``, else the system's library path;
``segue.moviepy`` joins MoviePy clips with Segue's transitions.
"""
from ._info import EffectInfo, Parameter, describe, effects
from ._library import SegueError, device_name, version
from ._render import Effect, Transition

__all__ = ["SegueError", "Transition", "Effect", "EffectInfo", "Parameter", "effects", "describe",
           "version", "device_name"]
__version__ = "0.1.0"
