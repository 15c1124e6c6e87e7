"""Segue's transitions between MoviePy 2 clips, with the sound crossfaded over the same span.

    from moviepy import VideoFileClip
    import segue.moviepy
    film = segue.moviepy.concatenate([VideoFileClip("a.mp4"), VideoFileClip("b.mp4")], "cube", 1.5)
    film.write_videofile("film.mp4")

As in ``segue concat``, clip k+1 starts `duration` seconds before clip k ends; during that span
the picture is the transition (progress running linearly from 0 to 1, its time in seconds since
the span began, the effect's duration set to the span) and the sound an equal-power crossfade
(the outgoing clip's gain cos(p·π/2), the incoming one's sin(p·π/2)). Every clip must have the
first clip's size (resize with ``clip.resized``); masks are not carried (frames are opaque).
"""
from __future__ import annotations

import math
import os
from typing import Any, Dict, Iterable, List, Optional, Union

import numpy as np

try:
    from moviepy import CompositeAudioClip, VideoClip  # type: ignore[import-untyped]
except ImportError as e:  # MoviePy missing, or MoviePy 1 (whose names live in moviepy.editor)
    raise ImportError("segue.moviepy needs MoviePy 2: pip install 'moviepy>=2,<3' (%s)" % e) from e

from ._info import describe
from ._library import InvalidArgumentError, InvalidArgumentTypeError, UnsupportedEffectError, name_text, path_text
from ._render import Frame, ParamValue, Transition
from ._values import _real

__all__ = ["transition", "concatenate"]

# A clip or a cut starting within this many seconds after a time has started at it, as in
# segue concat (CompositionTimeline.timeTolerance): lengths such as 0.4 - 0.1 add up a rounding
# past the frame they start on, which would otherwise show the clip before for one more frame.
_TIME_TOLERANCE = 5e-7


def _rgb(frame: Any) -> Frame:
    """A MoviePy frame as an (h, w, 3) uint8 array."""
    array = np.asarray(frame)
    if array.dtype != np.uint8:
        array = np.clip(np.rint(array), 0, 255).astype(np.uint8)
    if array.ndim == 2:
        array = np.repeat(array[:, :, None], 3, axis=2)
    rgb: Frame = array[:, :, :3]
    return rgb


def _gain(local: Any, duration: float, fade_in: float, fade_out: float) -> np.ndarray:
    """A clip's gain at local times `local` (scalar or array): sin in over `fade_in` seconds,
    cos out over the last `fade_out` seconds."""
    t = np.asarray(local, dtype=np.float64)
    gain = np.ones_like(t)
    if fade_in > 0:
        gain = gain * np.sin(np.clip(t / fade_in, 0, 1) * (math.pi / 2))
    if fade_out > 0:
        gain = gain * np.cos(np.clip((t - (duration - fade_out)) / fade_out, 0, 1) * (math.pi / 2))
    return gain


def _faded(audio: Any, duration: float, fade_in: float, fade_out: float) -> Any:
    """`audio` cut to `duration` with the crossfade gains applied."""
    if audio.duration is None or audio.duration > duration:
        audio = audio.with_duration(duration)
    if fade_in <= 0 and fade_out <= 0:
        return audio

    def apply(get_frame: Any, t: Any) -> Any:
        sound = np.asarray(get_frame(t), dtype=np.float64)
        gain = _gain(t, duration, fade_in, fade_out)
        return sound * (gain[:, None] if gain.ndim == 1 and sound.ndim == 2 else gain)

    return audio.transform(apply)


def _transitions(cuts: int, effect: Union[str, Transition, None], duration: float,
                 params: Dict[str, ParamValue]) -> List[Optional[Transition]]:
    """One Transition per cut (None for hard cuts), its duration set to the cut's. A caller's
    Transition is not used itself: the film gets one of its own, of the same effect and settings
    (one for every cut), so that the caller's is not changed, and what is later done to it (a
    duration set for another film) does not change this film's frames, which are made lazily."""
    if isinstance(effect, Transition) and params:
        raise InvalidArgumentTypeError("give the parameters to segue.Transition(...) when passing a Transition "
                                       "(got %s)" % ", ".join(sorted(params)))
    if duration == 0 or effect is None or cuts == 0:
        return [None] * cuts
    made: List[Transition] = []
    if isinstance(effect, Transition):
        own = effect._renewed()
        own.duration = duration
        return [own] * cuts
    for _ in range(cuts):
        made.append(Transition(effect, **params))
    for t in made:
        t.duration = duration
    return list(made)


def _check_effect(effect: str) -> None:
    """Raises what `segue.Transition(effect)` would for an effect that is no transition (an
    unknown name, a bad file, a mesh on one image), without a GPU: for a concatenation that makes
    no Transition (one clip, or cuts of no duration)."""
    info = describe(effect)
    if info.kind == "single-image":
        raise UnsupportedEffectError("'%s' is an effect on one image, not a transition between clips (use it "
                                     "through segue.Effect on the frames)" % effect)


def concatenate(clips: Iterable[VideoClip], transition: Union[str, os.PathLike[str], Transition, None] = "fade",
                duration: float = 1, **params: ParamValue) -> VideoClip:
    """The clips one after another with `transition` (an effect name or file, a
    `segue.Transition`, or None or "none" for hard cuts) of `duration` seconds at every cut, run
    by the effect's own timing (its curve or spring) as `segue concat` runs it; `params` go to
    the effect. Returns a MoviePy VideoClip with the crossfaded sound of the clips that have some,
    at the highest frame rate among them.

    A `segue.Transition` given is used with the parameters and settings it has now, through an
    object of the film's own: the caller's object is not changed (its duration stays as it was),
    and nothing done to it later changes the film.

    Raises TypeError for a `transition` that is none of these or a parameter name that is not a
    str, ValueError for one holding a NUL character, InvalidArgumentError (a ValueError and a
    SegueError) for no clips, a negative or non-finite duration, clips of different sizes, a
    clip without a duration, with a negative or non-finite one or one shorter than its
    transitions, and what `segue.Transition` raises for the effect and its parameters (the
    effect is checked even where no transition is made: one clip, or a duration of 0)."""
    # Checked here, not only where a Transition is made: with one clip or a duration of 0 none is.
    if transition is not None and not isinstance(transition, Transition):
        try:
            transition = path_text(transition, "the transition")
        except TypeError:
            raise TypeError("the transition must be an effect name or path (str or os.PathLike), a "
                            "segue.Transition or None, not %s" % type(transition).__name__) from None
        if transition == "none":     # a hard cut, as segue concat names it
            transition = None
    for name in params:
        name_text(name, "a parameter name")
    clips = list(clips)
    if not clips:
        raise InvalidArgumentError("concatenate needs at least one clip")
    duration = _real(duration, "the transition's duration")
    if not math.isfinite(duration) or duration < 0:
        raise InvalidArgumentError("the transition's duration must be a finite number of seconds ≥ 0, got %r" % duration)
    size = tuple(clips[0].size)
    lengths = []
    for k, clip in enumerate(clips):
        if clip.duration is None:
            raise InvalidArgumentError("clip %d has no duration (set one with with_duration)" % (k + 1))
        if tuple(clip.size) != size:
            raise InvalidArgumentError("clip %d is %dx%d, clip 1 is %dx%d: resize it first (clip.resized((%d, %d)))"
                                       % (k + 1, clip.size[0], clip.size[1], size[0], size[1], size[0], size[1]))
        length = _real(clip.duration, "clip %d's duration" % (k + 1))
        if not math.isfinite(length) or length < 0:
            raise InvalidArgumentError("clip %d lasts %r s: a clip's duration must be a finite number of seconds "
                                       "≥ 0 (set one with with_duration)" % (k + 1, length))
        lengths.append(length)
    cut = duration if len(clips) > 1 and transition is not None else 0.0
    if isinstance(transition, str) and cut == 0:
        _check_effect(transition)     # no Transition is made to say what is wrong with it
    for k, length in enumerate(lengths):
        needed = cut * ((k > 0) + (k < len(clips) - 1))
        if length < needed:
            raise InvalidArgumentError("clip %d (%g s) is shorter than its transitions together (%g s)" % (k + 1, length, needed))
    starts = [0.0]
    for k in range(1, len(clips)):
        starts.append(starts[-1] + lengths[k - 1] - cut)
    total = starts[-1] + lengths[-1]
    effects = _transitions(len(clips) - 1, transition, cut, params)

    def frame_at(t: float) -> Frame:
        k = 0
        while k + 1 < len(clips) and starts[k + 1] <= t + _TIME_TOLERANCE:
            k += 1
        effect = effects[k - 1] if k > 0 else None
        if effect is not None and t + _TIME_TOLERANCE < starts[k] + cut:
            since = max(t - starts[k], 0.0)     # a cut reached within the tolerance is at its start
            a = _rgb(clips[k - 1].get_frame(min(t - starts[k - 1], lengths[k - 1])))
            b = _rgb(clips[k].get_frame(max(since, 0.0)))
            # The effect's own timing over the cut, as segue concat runs it.
            return effect.render(a, b, effect.progress_at(since), time=since)
        return _rgb(clips[k].get_frame(min(max(t - starts[k], 0.0), lengths[k])))

    video = VideoClip(frame_function=frame_at, duration=total)
    rates = [c.fps for c in clips if getattr(c, "fps", None)]
    if rates:
        video = video.with_fps(max(rates))
    sounds: List[Any] = []
    for k, clip in enumerate(clips):
        if clip.audio is None:
            continue
        fade_in = cut if k > 0 and effects[k - 1] is not None else 0.0
        fade_out = cut if k < len(clips) - 1 and effects[k] is not None else 0.0
        sounds.append(_faded(clip.audio, lengths[k], fade_in, fade_out).with_start(starts[k]))
    if sounds:
        video = video.with_audio(CompositeAudioClip(sounds).with_duration(total))
    return video


def transition(clip_a: VideoClip, clip_b: VideoClip, effect: Union[str, os.PathLike[str], Transition],
               duration: float, **params: ParamValue) -> VideoClip:
    """`clip_a` then `clip_b`, joined by `effect` over the last `duration` seconds of `clip_a`
    and the first of `clip_b` (the result lasts a + b − duration seconds); see `concatenate`."""
    return concatenate([clip_a, clip_b], effect, duration, **params)
