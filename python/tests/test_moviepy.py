"""segue.moviepy joins MoviePy 2 clips with Segue's transitions: the picture through the GPU, the
sound crossfaded (equal power) over exactly the transition; checked on an MP4 written by MoviePy."""
import json
import math
import re
import shutil
import subprocess

import numpy as np
import pytest
from moviepy import AudioClip, ColorClip

import segue
import segue.moviepy

RATE = 44100
FPS = 10
SIZE = (64, 48)


def tone(frequency, duration, amplitude=0.5):
    """A stereo sine tone as a MoviePy AudioClip."""
    def sound(t):
        s = amplitude * np.sin(2 * math.pi * frequency * np.asarray(t, dtype=np.float64))
        return np.stack([s, s], axis=-1)
    return AudioClip(sound, duration=duration, fps=RATE)


def coloured(colour, duration, frequency):
    return ColorClip(SIZE, color=colour, duration=duration).with_fps(FPS).with_audio(tone(frequency, duration))


def ffmpeg_tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.fail("%s is not installed" % name)
    return path


def decode(path, *args):
    result = subprocess.run([ffmpeg_tool("ffmpeg"), "-v", "error", "-i", str(path), *args, "-"],
                            capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def amplitude(samples, centre, frequency, width=0.1):
    """The amplitude of `frequency` in the `width`-second window around `centre` (a single DFT
    bin; the window holds a whole number of cycles of both tones)."""
    n = int(round(width * RATE))
    start = int(round((centre - width / 2) * RATE))
    window = samples[start:start + n]
    t = np.arange(n) / RATE
    return 2 * abs(np.sum(window * np.exp(-2j * math.pi * frequency * t))) / n


def mean_gain(curve, centre, width=0.1):
    t = np.linspace(centre - width / 2, centre + width / 2, 2001)
    return float(np.mean(curve(t)))


def outgoing(t):   # clip a (440 Hz): fades out over 1…2 s
    return np.cos(np.clip(t - 1, 0, 1) * math.pi / 2)


def incoming(t):   # clip b (660 Hz): fades in over 1…2 s
    return np.sin(np.clip(t - 1, 0, 1) * math.pi / 2)


def test_concatenate_two_colour_clips_with_tones_to_mp4(tmp_path):
    red = coloured((255, 0, 0), 2, 440)
    blue = coloured((0, 0, 255), 2, 660)
    film = segue.moviepy.concatenate([red, blue], transition="fade", duration=1)
    assert film.duration == 3.0 and film.fps == FPS and film.size == SIZE
    path = tmp_path / "film.mp4"
    film.write_videofile(str(path), codec="libx264", audio_codec="aac", audio_fps=RATE, logger=None)

    probe = subprocess.run([ffmpeg_tool("ffprobe"), "-v", "error", "-show_entries", "stream=codec_type,duration,nb_frames",
                            "-of", "json", str(path)], capture_output=True, text=True, timeout=60)
    streams = {s["codec_type"]: s for s in json.loads(probe.stdout)["streams"]}
    assert int(streams["video"]["nb_frames"]) == 30
    assert abs(float(streams["video"]["duration"]) - 3.0) < 1e-6
    assert abs(float(streams["audio"]["duration"]) - 3.0) < 0.05

    video = np.frombuffer(decode(path, "-f", "rawvideo", "-pix_fmt", "rgb24"), np.uint8).reshape(-1, SIZE[1], SIZE[0], 3)
    assert len(video) == 30
    # Frame i shows time i/10: red, then the fade (premultiplied mix) over 1…2 s, then blue.
    for index, p in [(5, 0.0), (9, 0.0), (10, 0.0), (12, 0.2), (15, 0.5), (18, 0.8), (20, 1.0), (25, 1.0)]:
        expected = np.array([255 * (1 - p), 0, 255 * p])
        got = video[index, 8:-8, 8:-8].reshape(-1, 3).mean(axis=0)
        assert np.abs(got - expected).max() <= 8, "frame %d: %s, expected %s" % (index, got, expected)

    stereo = np.frombuffer(decode(path, "-f", "f32le", "-ac", "2", "-ar", str(RATE)), np.float32).reshape(-1, 2)
    assert np.abs(stereo[:, 0] - stereo[:, 1]).max() < 0.01
    audio = stereo[:, 0]
    assert abs(len(audio) / RATE - 3.0) < 0.05
    # Before, at four points during, and after the transition (1…2 s): equal-power gains.
    for centre in [0.5, 0.93, 1.25, 1.5, 1.75, 2.07, 2.5]:
        a440, a660 = amplitude(audio, centre, 440), amplitude(audio, centre, 660)
        want440, want660 = 0.5 * mean_gain(outgoing, centre), 0.5 * mean_gain(incoming, centre)
        print("AUDIO t=%.2f 440 Hz %.4f (want %.4f), 660 Hz %.4f (want %.4f)" % (centre, a440, want440, a660, want660))
        assert abs(a440 - want440) < 0.01 and abs(a660 - want660) < 0.01, \
            "at %.2f s: 440 Hz %.3f (want %.3f), 660 Hz %.3f (want %.3f)" % (centre, a440, want440, a660, want660)
    # Equal power: in the middle both tones at cos(π/4) of their level.
    assert abs(amplitude(audio, 1.5, 440) / 0.5 - math.sqrt(0.5)) < 0.01


def test_transition_frames_are_segue_renders_with_the_span_as_duration():
    red = ColorClip(SIZE, color=(255, 0, 0), duration=1.5).with_fps(FPS)
    checker = ColorClip(SIZE, color=(0, 200, 40), duration=1).with_fps(FPS)
    joined = segue.moviepy.transition(red, checker, "doom-melt", 0.5, spread=0.3)
    assert joined.duration == 2.0 and joined.audio is None
    melt = segue.Transition("doom-melt", spread=0.3)
    melt.duration = 0.5
    a = red.get_frame(0).astype(np.uint8)
    b = checker.get_frame(0).astype(np.uint8)
    for t in (1.1, 1.3):
        since = t - 1.0
        assert np.array_equal(joined.get_frame(t), melt.render(a, b, since / 0.5, time=since)), t
    assert np.array_equal(joined.get_frame(0.5), a) and np.array_equal(joined.get_frame(1.75), b)


def test_a_cut_runs_by_the_effects_own_timing():
    """ios-push follows its spring over the cut, as segue concat runs it, not a straight line."""
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    film = segue.moviepy.concatenate([a, b], transition="ios-push", duration=0.5)
    push = segue.Transition("ios-push")
    push.duration = 0.5
    fa, fb = a.get_frame(0).astype(np.uint8), b.get_frame(0).astype(np.uint8)
    for since in (0.05, 0.1, 0.25):
        progress = push.progress_at(since)
        assert progress > since / 0.5 + 0.05, (since, progress)   # a spring runs ahead of a line early on
        assert np.array_equal(film.get_frame(0.5 + since), push.render(fa, fb, progress, time=since)), since
    assert push.progress_at(0) == 0 and push.progress_at(0.5) == 1 and push.progress_at(7) == 1
    with pytest.raises(segue.InvalidArgumentError):
        push.progress_at(float("nan"))
    # "none" is a hard cut, as in segue concat.
    hard = segue.moviepy.concatenate([a, b], transition="none")
    assert hard.duration == 2.0 and np.array_equal(hard.get_frame(1.0), fb)


def test_cube_between_clips_and_a_hard_cut():
    a = ColorClip(SIZE, color=(255, 255, 0), duration=1).with_fps(FPS)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    c = ColorClip(SIZE, color=(255, 255, 255), duration=1).with_fps(FPS)
    film = segue.moviepy.concatenate([a, b, c], transition="cube", duration=0.5)
    assert film.duration == 2.0
    middle = film.get_frame(0.75)     # the first cut's middle
    expected = segue.Transition("cube").render(a.get_frame(0).astype(np.uint8), b.get_frame(0).astype(np.uint8), 0.5, time=0.25)
    assert np.array_equal(middle, expected)
    hard = segue.moviepy.concatenate([a, b], transition=None)
    assert hard.duration == 2.0
    assert np.array_equal(hard.get_frame(0.99), a.get_frame(0)) and np.array_equal(hard.get_frame(1.0), b.get_frame(0))


def test_a_clip_starts_on_its_frame_despite_rounding():
    # 0.4 - 0.1 is 0.30000000000000004: clip b starts a rounding after 0.3 s. segue concat
    # (CompositionTimeline.timeTolerance) shows b's first frame at 0.3 s; so does this.
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS).subclipped(0.1, 0.4)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    assert a.duration == 0.4 - 0.1 and a.duration > 0.3
    hard = segue.moviepy.concatenate([a, b], transition=None)
    assert np.array_equal(hard.get_frame(0.3), b.get_frame(0))
    assert np.array_equal(hard.get_frame(0.2), a.get_frame(0))
    # A cut that starts a rounding after its frame: that frame is the cut's first, at progress 0
    # (0.4 - 0.1 - 0.1 puts the start at 0.20000000000000004).
    faded = segue.moviepy.concatenate([a, b], transition="fade", duration=0.1)
    expected = segue.Transition("fade").render(a.get_frame(0).astype(np.uint8), b.get_frame(0).astype(np.uint8), 0.0, time=0.0)
    assert np.array_equal(faded.get_frame(0.2), expected)


def test_sound_of_one_clip_only_fades_with_its_cut():
    quiet = ColorClip(SIZE, color=(0, 0, 0), duration=2).with_fps(FPS)
    loud = coloured((255, 255, 255), 2, 440)
    film = segue.moviepy.concatenate([quiet, loud], transition="fade", duration=1)
    times = np.array([0.5, 1.5, 2.5])
    sound = film.audio.get_frame(times)[:, 0]
    # 440 Hz at these times: sin(2π·440·t) = 0 for t·440 whole; use the envelope instead.
    envelope = np.array([np.abs(film.audio.get_frame(np.linspace(t - 0.01, t + 0.01, 441))[:, 0]).max() for t in times])
    assert sound.shape == (3,)
    assert envelope[0] < 1e-9
    assert abs(envelope[1] - 0.5 * math.sin(math.pi / 4)) < 0.01
    assert abs(envelope[2] - 0.5) < 1e-3


def test_bad_clips():
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS)
    small = ColorClip((32, 24), color=(0, 0, 255), duration=1).with_fps(FPS)
    with pytest.raises(segue.SegueError, match=r"clip 2 is 32x24, clip 1 is 64x48: resize it first"):
        segue.moviepy.concatenate([a, small])
    with pytest.raises(segue.SegueError, match=r"clip 1 \(1 s\) is shorter than its transitions together \(1.5 s\)"):
        segue.moviepy.transition(a, a, "fade", 1.5)
    with pytest.raises(segue.SegueError, match="unknown effect 'nope'"):
        segue.moviepy.transition(a, a, "nope", 0.5)
    with pytest.raises(segue.SegueError, match="has no parameter 'nope'"):
        segue.moviepy.transition(a, a, "fade", 0.5, nope=1)
    with pytest.raises(segue.SegueError, match="give the parameters to segue.Transition"):
        segue.moviepy.transition(a, a, segue.Transition("wipe"), 0.5, smoothness=0.2)
    with pytest.raises(segue.SegueError, match="at least one clip"):
        segue.moviepy.concatenate([])


def test_a_transition_object_is_used_with_its_parameters():
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    wipe = segue.Transition("wipe", direction=(0, 1), smoothness=0.2)
    film = segue.moviepy.transition(a, b, wipe, 0.4)
    assert wipe.duration == 1.0      # the caller's object is not changed: the film has its own
    frame = film.get_frame(0.8)      # half-way through the wipe
    reference = segue.Transition("wipe", direction=(0, 1), smoothness=0.2).render(
        a.get_frame(0).astype(np.uint8), b.get_frame(0).astype(np.uint8), 0.5)
    assert np.array_equal(frame, reference)
    assert not np.array_equal(frame[0], frame[-1])   # a vertical wipe: top and bottom rows differ


def test_a_film_keeps_the_timing_it_was_made_with():
    # The caller's Transition had its duration set to each film's cut, and frames are made when
    # MoviePy asks: a second film of another duration changed the first one's frames.
    red = lambda seconds: ColorClip(SIZE, color=(255, 0, 0), duration=seconds).with_fps(FPS)
    blue = lambda seconds: ColorClip(SIZE, color=(0, 0, 255), duration=seconds).with_fps(FPS)
    fade = segue.Transition("fade")
    push = segue.Transition("ios-push")
    first = segue.moviepy.concatenate([red(3), blue(3)], fade, 2)            # a 2 s fade over 1…3 s
    pushed = segue.moviepy.concatenate([red(3), blue(3)], push, 2)
    reference = segue.moviepy.concatenate([red(3), blue(3)], "fade", 2)
    reference_push = segue.moviepy.concatenate([red(3), blue(3)], "ios-push", 2)
    times = (1.2, 2.0, 2.5)
    before = [first.get_frame(t) for t in times]
    second = segue.moviepy.concatenate([red(3), blue(3)], fade, 0.5)          # the same object
    segue.moviepy.concatenate([red(3), blue(3)], push, 0.25)
    fade.duration = 7
    for t, frame in zip(times, before):
        assert np.array_equal(first.get_frame(t), frame), t
        assert np.array_equal(first.get_frame(t), reference.get_frame(t)), t
        assert np.array_equal(pushed.get_frame(t), reference_push.get_frame(t)), t
    assert np.abs(first.get_frame(2.0)[0, 0].astype(int) - [128, 0, 128]).max() <= 2     # half-way
    assert np.array_equal(second.get_frame(3.0), blue(1).get_frame(0))     # its 0.5 s fade is over by 3.0 s
    assert fade.duration == 7.0 and push.duration == segue.describe("ios-push").duration


def test_a_transition_given_is_used_with_the_settings_it_has_when_the_film_is_made():
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    wipe = segue.Transition("wipe", direction=(0, 1))
    film = segue.moviepy.transition(a, b, wipe, 0.4)
    wipe.set_param("direction", (1, 0))      # later: the film stays a vertical wipe
    reference = segue.Transition("wipe", direction=(0, 1)).render(a.get_frame(0).astype(np.uint8),
                                                                   b.get_frame(0).astype(np.uint8), 0.5)
    assert np.array_equal(film.get_frame(0.8), reference)
    wipe.close()
    with pytest.raises(segue.InvalidArgumentError, match="the transition 'wipe' is closed"):
        segue.moviepy.transition(a, b, wipe, 0.4)
    assert np.array_equal(film.get_frame(0.8), reference)      # the film's own is not closed


@pytest.mark.parametrize("length", [math.nan, math.inf, -1.0])
@pytest.mark.parametrize("which", [0, 1])
def test_clips_of_nan_infinite_or_negative_duration_are_refused(length, which):
    clips = [ColorClip(SIZE, color=(255, 0, 0), duration=2).with_fps(FPS),
             ColorClip(SIZE, color=(0, 0, 255), duration=2).with_fps(FPS)]
    clips[which] = clips[which].with_duration(length)
    with pytest.raises(segue.InvalidArgumentError,
                       match=r"clip %d lasts %s s: a clip's duration must be a finite number of seconds ≥ 0"
                             % (which + 1, re.escape(repr(length)))):
        segue.moviepy.concatenate(clips, "fade", 0.5)
    with pytest.raises(segue.InvalidArgumentError, match="clip %d lasts" % (which + 1)):
        segue.moviepy.concatenate(clips, None)


def test_the_effect_is_checked_where_no_transition_is_made():
    a = ColorClip(SIZE, color=(255, 0, 0), duration=1).with_fps(FPS)
    b = ColorClip(SIZE, color=(0, 0, 255), duration=1).with_fps(FPS)
    for clips, duration in (([a], 1), ([a, b], 0)):
        with pytest.raises(segue.UnknownEffectError, match="unknown effect 'nosuch-effect'"):
            segue.moviepy.concatenate(clips, "nosuch-effect", duration)
        with pytest.raises(segue.EffectFileError):
            segue.moviepy.concatenate(clips, "/no/such/dir/x.glsl", duration)
        with pytest.raises(segue.UnsupportedEffectError, match="'curtain' is an effect on one image, not a transition"):
            segue.moviepy.concatenate(clips, "curtain", duration)
        assert segue.moviepy.concatenate(clips, "cube", duration).duration == len(clips)
        assert segue.moviepy.concatenate(clips, "none", duration).duration == len(clips)
