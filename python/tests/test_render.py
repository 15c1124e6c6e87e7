"""Transition.render and Effect.render on NumPy frames give what `segue frame`, `segue mesh` and
`segue effect` write for the same effect, parameters, progress and time (within 1/255)."""
import threading

import numpy as np
import pytest

import segue
from conftest import GL_FIXTURES, REPOSITORY, frames, largest_difference, write_png

TINT = REPOSITORY / "Tests" / "segueTests" / "Fixtures" / "gallery" / "tint.glsl"


def compare(ours, reference, label):
    assert ours.shape == reference.shape, label
    worst, where = largest_difference(ours, reference)
    print("COMPARE %s: largest difference %d/255" % (label, worst))
    assert worst <= 1, "%s differs from the CLI by %d/255 at (y, x, channel) %s" % (label, worst, where)


def frame_command(a_png, b_png, effect, progress, duration, params):
    args = ["frame", "--from", a_png, "--to", b_png, "--effect", effect, "--progress", progress]
    if duration is not None:
        args += ["--duration", duration]
    for name, value in params:
        args += ["--param", "%s=%s" % (name, value)]
    return args


@pytest.mark.parametrize("effect, progress, params, cli_params", [
    ("fade", 0.3, {}, []),
    ("doom-melt", 0.4, {"spread": 0.5}, [("spread", "0.5")]),
    ("wipe", 0.45, {"direction": (0, 1), "smoothness": 0.2}, [("direction", "0,1"), ("smoothness", "0.2")]),
    ("circleopen", 0.6, {}, []),
])
def test_builtin_matches_segue_frame(tmp_path, cli, effect, progress, params, cli_params):
    a, b = frames(translucent=True)
    transition = segue.Transition(effect, **params)
    ours = transition.render(a, b, progress)
    reference = cli(*frame_command(write_png(tmp_path / "a.png", a), write_png(tmp_path / "b.png", b),
                                   effect, progress, None, cli_params))
    compare(ours, reference, effect)
    assert not np.array_equal(ours, a) and not np.array_equal(ours, b), "%s shows an input unchanged" % effect


@pytest.mark.parametrize("progress", [0.25, 0.6])
def test_cube_mesh_transition_matches_segue_frame(tmp_path, cli, progress):
    a, b = frames(64, 48)
    ours = segue.Transition("cube", eyeDistance=3).render(a, b, progress)
    reference = cli(*frame_command(write_png(tmp_path / "a.png", a), write_png(tmp_path / "b.png", b),
                                   "cube", progress, None, [("eyeDistance", "3")]))
    compare(ours, reference, "cube at %g" % progress)
    assert not np.array_equal(ours, a)


@pytest.mark.parametrize("tint, cli_tint", [("#ff8800", "#ff8800"), ((0.25, 0.5, 1.0, 1.0), "0.25,0.5,1,1")])
def test_glsl_file_matches_segue_frame(tmp_path, cli, tint, cli_tint):
    a, b = frames()
    ours = segue.Transition(TINT, tint=tint).render(a, b, 0.35, time=0.2)
    reference = cli(*frame_command(write_png(tmp_path / "a.png", a), write_png(tmp_path / "b.png", b),
                                   TINT, 0.35, None, [("tint", cli_tint)]))
    compare(ours, reference, "tint.glsl")


def test_glsl_result_outside_0_1_is_clamped_as_gl_stores_it():
    # (2, 2, 2, 0.4) on the left: GL stores clamp → (1, 1, 1, 0.4) → 255, 255, 255, 102;
    # (0.4, 0.4, 0.4, 2) on the right: (0.4, 0.4, 0.4, 1) → 102, 102, 102, 255.
    a = np.zeros((2, 4, 4), np.uint8)
    b = np.full((2, 4, 4), 255, np.uint8)
    out = segue.Transition(GL_FIXTURES / "out-of-range.glsl").render(a, b, 0.5)
    expected = np.array([[255, 255, 255, 102]] * 2 + [[102, 102, 102, 255]] * 2, np.uint8)
    assert out.tolist() == [expected.tolist()] * 2
    # As RGB (composited over black): the left half is the premultiplied 102, not 255.
    assert segue.Transition(GL_FIXTURES / "out-of-range.glsl").render(a[..., :3], b[..., :3], 0.5).tolist() \
        == [[[102, 102, 102]] * 4] * 2


def test_rgb_frames_render_as_opaque_rgba():
    a, b = frames()
    for effect in ("doom-melt", "circleopen"):
        t = segue.Transition(effect)
        rgba = t.render(a, b, 0.5)
        rgb = t.render(np.ascontiguousarray(a[..., :3]), np.ascontiguousarray(b[..., :3]), 0.5)
        assert rgb.shape == a.shape[:2] + (3,) and rgb.dtype == np.uint8
        assert np.array_equal(rgb, rgba[..., :3]), effect
        assert (rgba[..., 3] == 255).all()


def test_rgb_frames_of_the_cube_are_composited_over_black():
    a, b = frames(64, 48)
    t = segue.Transition("cube")
    rgba = t.render(a, b, 0.5)
    assert (rgba[..., 3] < 255).any(), "the cube at 0.5 leaves no background to composite"
    rgb = t.render(a[..., :3], b[..., :3], 0.5)    # views with a stride of 3: converted
    over_black = (rgba[..., :3].astype(np.uint32) * rgba[..., 3:4] + 127) // 255
    assert np.array_equal(rgb, over_black.astype(np.uint8))


def test_time_defaults_to_progress_times_duration():
    a, b = frames()
    melt = segue.Transition("doom-melt")
    assert melt.duration == 2.0
    assert np.array_equal(melt.render(a, b, 0.5), melt.render(a, b, 0.5, time=1.0))
    assert not np.array_equal(melt.render(a, b, 0.5), melt.render(a, b, 0.5, time=0.3))
    melt.duration = 4
    assert melt.duration == 4.0
    assert np.array_equal(melt.render(a, b, 0.5), melt.render(a, b, 0.5, time=2.0))


def test_mesh_effect_matches_segue_mesh(tmp_path, cli):
    a, _ = frames(64, 48)
    ours = segue.Effect("bulge", radius=20, touch=(0.3, 0.6)).render(a)
    reference = cli("mesh", write_png(tmp_path / "a.png", a), "--mesh", "bulge",
                    "--param", "radius=20", "--param", "touch=0.3,0.6")
    compare(ours, reference, "bulge")
    assert not np.array_equal(ours, a)


def test_shader_effect_on_one_image_matches_segue_effect(tmp_path, cli):
    a, _ = frames()
    effect = segue.Effect(TINT, tint="#0080ff")
    assert effect.duration == 1.0
    ours = effect.render(a, 0.3)   # progress 0.3
    reference = cli("effect", "--input", write_png(tmp_path / "a.png", a), "--effect", TINT,
                    "--time", "0.3", "--arg", "tint=#0080ff")
    compare(ours, reference, "tint.glsl on one image")
    assert not np.array_equal(ours, a)
    effect.duration = 0.6          # the same progress at half the time
    assert np.array_equal(effect.render(a, 0.18), ours)


def test_frames_with_padded_rows_and_views():
    a, b = frames()
    t = segue.Transition("fade")
    padded = np.zeros((a.shape[0], a.shape[1] + 3, 4), np.uint8)
    padded[:, :a.shape[1]] = a
    view = padded[:, :a.shape[1]]
    assert not view.flags.c_contiguous
    assert np.array_equal(t.render(view, b, 0.7), t.render(a, b, 0.7))
    assert np.array_equal(t.render(a, b, 0.0), a) and np.array_equal(t.render(a, b, 1.0), b)


def test_one_transition_from_several_threads_and_one_context():
    a, b = frames()
    t = segue.Transition("fade")
    expected = t.render(a, b, 0.5)
    results, failures = [], []

    def work():
        try:
            for _ in range(5):
                results.append(t.render(a, b, 0.5))
        except Exception as e:  # pragma: no cover - reported below
            failures.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(results) == 15 and all(np.array_equal(r, expected) for r in results)
    assert segue.device_name() != ""


def test_an_image_parameter_set_to_an_empty_path_is_unset_again(tmp_path):
    a, b = frames()
    luma = segue.Transition(GL_FIXTURES / "luma-mask.glsl", luma=write_png(tmp_path / "mask.png", b))
    first = luma.render(a, b, 0.5)
    luma.set_param("luma", "")
    # In Python's words: the library's message names its C setter.
    with pytest.raises(segue.SegueError, match=r"needs the texture 'luma': set it to an image path with set_param$"):
        luma.render(a, b, 0.5)
    luma.set_param("luma", str(tmp_path / "mask.png"))
    assert np.array_equal(luma.render(a, b, 0.5), first)
