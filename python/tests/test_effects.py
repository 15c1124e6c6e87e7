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
    assert (spread.type, spread.default, spread.range) == ("float", 0.35, None)
    assert spread.summary != ""
    cube = listed["cube"]
    assert cube.kind == "mesh-transition" and cube.duration == 0.5
    assert [(p.name, p.type, p.default, p.range) for p in cube.parameters] == [
        ("pop", "bool", False, (0.0, 1.0)), ("eyeDistance", "float", 2.0, None)]
    assert listed["curtain"].kind == "single-image"
    assert [(p.name, p.type, p.default) for p in listed["flat"].parameters] == [("rows", "int", 1), ("columns", "int", 1)]
    assert [(p.name, p.type, p.default) for p in listed["wipe"].parameters][0] == ("direction", "vec2", (1.0, 0.0))
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
    assert segue.version() == "0.1.0"
