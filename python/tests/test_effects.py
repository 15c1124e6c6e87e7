"""segue.effects() and segue.describe(): names, kinds, durations, parameter types and defaults;
parameter values in the C API's text form."""
import numpy as np
import pytest

import segue
from segue._render import parameter_text
from conftest import GL_FIXTURES


def test_built_ins_are_listed_with_kinds_durations_and_parameters():
    listed = {e.name: e for e in segue.effects()}
    assert len(listed) >= 70
    assert list(listed)[:2] == ["fade", "doom-melt"]
    assert listed["fade"].kind == "transition" and listed["fade"].duration == 1.0 and listed["fade"].parameters == ()
    melt = listed["doom-melt"]
    assert melt.duration == 2.0 and melt.summary.startswith("Doom's screen melt")
    spread = {p.name: p for p in melt.parameters}["spread"]
    assert (spread.type, spread.default, spread.range) == ("float", 0.35, (0.0, 1.0))
    assert spread.summary != ""
    cube = listed["cube"]
    assert cube.kind == "mesh-transition" and cube.duration == 0.5
    assert [(p.name, p.type, p.default, p.range) for p in cube.parameters] == [
        ("pop", "bool", False, (0.0, 1.0)), ("eyeDistance", "float", 2.0, (1.0, 5.0))]
    assert listed["curtain"].kind == "single-image"
    assert [(p.name, p.type, p.default) for p in listed["flat"].parameters] == [("rows", "int", 1), ("columns", "int", 1)]
    assert [(p.name, p.type, p.default, p.range) for p in listed["wipe"].parameters][0] == (
        "direction", "vec2", (1.0, 0.0), (-1.0, 1.0))
    assert "wipeleft" in listed


def test_a_file_is_described_with_every_type():
    info = segue.describe(GL_FIXTURES / "all-types.glsl")
    assert info.name == "all-types" and info.kind == "transition"
    defaults = {p.name: (p.type, p.default) for p in info.parameters}
    assert defaults["f"] == ("float", 2.0)
    assert defaults["i"] == ("int", 3) and type(defaults["i"][1]) is int
    assert defaults["b"] == ("bool", True) and type(defaults["b"][1]) is bool
    assert defaults["v3"] == ("vec3", (0.25, 0.5, 0.75))
    assert defaults["iv3"] == ("ivec3", (1, 2, 3))
    assert defaults["bv2"] == ("bvec2", (True, False))
    assert defaults["m2"] == ("mat2", (1.0, 0.0, 0.0, 1.0))
    assert defaults["m3"] == ("mat3", (1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.5, 0.25))
    assert defaults["x"] == ("float", 1.5) and defaults["y"] == ("float", 1.5)


def test_sampler_parameters_have_no_default():
    info = segue.describe(GL_FIXTURES / "luma-mask.glsl")
    samplers = [p for p in info.parameters if p.type == "sampler2D"]
    assert samplers and all(p.default is None for p in samplers)


@pytest.mark.parametrize("value, text", [
    (0.5, "0.5"), (2, "2"), (True, "true"), (False, "false"), (np.float32(0.25), "0.25"), (np.int64(7), "7"),
    (np.bool_(True), "true"), ((1, 0), "1,0"), ([0.25, 0.5, 1.0], "0.25,0.5,1.0"), ((True, False), "true,false"),
    ("#ff8800", "#ff8800"), ("0.5", "0.5"), (np.array([[1.0, 2.0], [3.0, 4.0]]), "1.0,3.0,2.0,4.0"),
    (((1, 2), (3, 4)), "1,2,3,4"), (float("nan"), "nan"), (1e-20, "1e-20"),
])
def test_parameter_values_in_text_form(value, text):
    assert parameter_text(value) == text


def test_parameter_text_refuses_what_has_no_text_form():
    with pytest.raises(segue.SegueError, match="parameter value"):
        parameter_text(object())
    with pytest.raises(segue.SegueError, match="components must be numbers"):
        parameter_text((1, "a"))


def test_version():
    assert segue.version() == "0.2.0"


FILLS = """
#include <metal_stdlib>
#include <SwiftUI/SwiftUI_Metal.h>
using namespace metal;
[[ stitchable ]] half4 pulse(float2 position, float4 bounds, float time) {
    return half4(half(position.x / bounds.z), half(0.5 + 0.5 * sin(time)), half(position.y / bounds.w), 1.0h);
}
"""


def test_a_fill_renders_alone_with_size_and_follows_the_time(tmp_path):
    path = tmp_path / "fills.metal"
    path.write_text(FILLS)
    fill = segue.Effect("%s:pulse" % path)
    for t in (0.0, 2.0):
        frame = fill.render(size=(24, 10), time=t)
        assert frame.shape == (10, 24, 4) and frame.dtype == np.uint8
        x = (np.arange(24) + 0.5) / 24 * 255
        y = (np.arange(10) + 0.5) / 10 * 255
        expected = np.zeros((10, 24, 4))
        expected[..., 0] = x[None, :]
        expected[..., 1] = (0.5 + 0.5 * np.sin(t)) * 255
        expected[..., 2] = y[:, None]
        expected[..., 3] = 255
        assert np.abs(frame.astype(float) - expected).max() <= 2, t
    # Drawn over an image: the fill is opaque here, so it covers it.
    image = np.full((10, 24, 4), 77, np.uint8)
    assert np.array_equal(fill.render(image, time=2.0), fill.render(size=(24, 10), time=2.0))


def test_fill_sizes_are_checked_before_anything_is_allocated(tmp_path):
    path = tmp_path / "fills.metal"
    path.write_text(FILLS)
    fill = segue.Effect("%s:pulse" % path)
    with pytest.raises(TypeError):
        fill.render()
    with pytest.raises(TypeError):
        fill.render(size=(24.0, 10))
    for size in ((0, 10), (16385, 1), (10 ** 9, 10 ** 9)):
        with pytest.raises(ValueError):
            fill.render(size=size)
    with pytest.raises(ValueError):
        fill.render(np.zeros((4, 4, 4), np.uint8), size=(4, 4))
    # An effect that is not a fill needs its image (the C API refuses a NULL input; the message
    # speaks of the image, not of C's `in`).
    with pytest.raises(segue.InvalidArgumentError, match="the effect 'bulge' needs an image: .*only a fill"):
        segue.Effect("bulge").render(size=(8, 8))
