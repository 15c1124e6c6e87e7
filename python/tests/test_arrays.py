"""SwiftUI's array and data arguments (.floatArray, .colorArray, .data) from Python: lists, NumPy
arrays and bytes, checked against NumPy computations of what the shaders draw; count 0; values
past the limit refused naming the argument and the limit."""
import re

import numpy as np
import pytest

import segue

from conftest import REPOSITORY

ARRAYS = REPOSITORY / "Tests" / "Fixtures" / "stitchable" / "Arrays.metal"


def spectrum(values, width, height):
    """The `spectrum` fill in NumPy: bar i of len(values) across the width, lit where
    1 - v <= values[i], coloured (v, 1 - v, 0.25, 1); blue for no values."""
    out = np.zeros((height, width, 4))
    if len(values) == 0:
        out[...] = (0, 0, 255, 255)
        return out
    values = np.asarray(values, dtype=np.float64)
    u = (np.arange(width) + 0.5) / width
    v = (np.arange(height) + 0.5) / height
    bar = np.clip(np.floor(u * len(values)).astype(int), 0, len(values) - 1)
    level = values[bar][None, :]
    lit = (1 - v[:, None]) <= level
    colour = np.stack([level * 255, (1 - level) * 255, np.full_like(level, 63.75), np.full_like(level, 255)], axis=-1)
    return np.where(lit[..., None], np.broadcast_to(colour, (height, width, 4)), 0)


def test_a_spectrum_of_16_values_matches_numpy():
    values = [((k * 7) % 16 + 1) / 16 for k in range(16)]
    for given in (values, np.array(values, dtype=np.float32), tuple(values)):
        effect = segue.Effect("%s:spectrum" % ARRAYS, values=given)
        frame = effect.render(size=(32, 16), time=0)
        assert np.abs(frame.astype(float) - spectrum(values, 32, 16)).max() <= 2
    # Set again on the same effect: a shorter list, then none (count 0, the default).
    effect.set_param("values", [0.125, 0.875, 0.5])
    assert np.abs(effect.render(size=(20, 8), time=0).astype(float) - spectrum([0.125, 0.875, 0.5], 20, 8)).max() <= 2
    effect.set_param("values", [])
    assert np.abs(effect.render(size=(4, 4), time=0).astype(float) - spectrum([], 4, 4)).max() <= 2
    assert np.array_equal(segue.Effect("%s:spectrum" % ARRAYS).render(size=(4, 4), time=0),
                          effect.render(size=(4, 4), time=0))


def test_describe_lists_each_pair_as_one_argument():
    info = segue.describe("%s:decode" % ARRAYS)
    assert [(p.name, p.type, p.default) for p in info.parameters] == [("bytes", "bytes", ())]
    assert "device const void *bytes, int size" in info.parameters[0].summary


def test_colours_from_a_numpy_array_and_hex_text():
    colours = np.array([[1, 0, 0, 1], [0, 0.5, 0, 0.5], [0.25, 0.5, 0, 0.5]])
    expected = np.array([[255, 0, 0, 255], [0, 127.5, 0, 127.5], [63.75, 127.5, 0, 127.5], [0, 0, 0, 0]])
    # Straight alpha out: the colours un-premultiplied (transparent stays 0).
    straight = expected.copy()
    straight[:3, :3] = expected[:3, :3] / expected[:3, 3:] * 255
    for given in (colours, [tuple(c) for c in colours], ["#ff0000", (0, 0.5, 0, 0.5), "0.25,0.5,0,0.5"]):
        frame = segue.Effect("%s:stripes" % ARRAYS, colors=given).render(size=(4, 1), time=0)
        assert np.abs(frame[0].astype(float) - straight).max() <= 2, given
    with pytest.raises(ValueError):
        segue.Effect("%s:stripes" % ARRAYS, colors=np.zeros((2, 3)))


def test_bytes_from_bytes_and_numpy():
    data = np.zeros(56, np.uint8)
    data[0:4] = np.frombuffer(np.float32(51).tobytes(), np.uint8)
    data[8] = 200
    want = {0: 51, 3: 200, 15: 56, 12: 0}
    for given in (data.tobytes(), bytearray(data.tobytes()), data, list(int(b) for b in data)):
        frame = segue.Effect("%s:decode" % ARRAYS, bytes=given).render(size=(20, 1), time=0)
        for column, value in want.items():
            assert abs(int(frame[0, column, 0]) - value) <= 1, (type(given), column)
    # A float32 array's own bytes: four per float.
    floats = np.array([51, 0, 0, 0, 0, 0, 0, 33], np.float32)
    frame = segue.Effect("%s:decode" % ARRAYS, bytes=floats).render(size=(20, 1), time=0)
    assert int(frame[0, 0, 0]) == 51 and int(frame[0, 9, 0]) == 33


def test_values_past_the_limit_and_of_the_wrong_kind_are_refused():
    effect = segue.Effect("%s:spectrum" % ARRAYS, values=[0.5])
    before = effect.render(size=(8, 4), time=0)
    with pytest.raises(ValueError, match="argument 'values' takes at most 1024 floats; got 1025"):
        effect.set_param("values", np.ones(1025))
    with pytest.raises(segue.InvalidArgumentError):
        effect.set_param("values", [0.5, float("nan")])
    with pytest.raises(TypeError):
        effect.set_param("values", ["a"])
    with pytest.raises(TypeError):
        effect.set_param("values", b"\x00")
    with pytest.raises(ValueError):
        effect.set_param("values", np.ones((2, 2)))
    assert np.array_equal(effect.render(size=(8, 4), time=0), before)   # the old value is kept
    with pytest.raises(ValueError, match="argument 'bytes' takes at most 4096 bytes; got 4097"):
        segue.Effect("%s:decode" % ARRAYS, bytes=bytes(4097))


def decoded(frame):
    """What the `decode` fill shows of bytes 0 and 8 (see test_bytes_from_bytes_and_numpy)."""
    return int(frame[0, 0, 0]), int(frame[0, 3, 0])


def test_array_arguments_keep_their_types_after_the_current_directory_changes(tmp_path, monkeypatch):
    # The effect is made from a relative FILE.metal:FUNCTION; its argument types are read from
    # the file it was made from, not from one relative to wherever the process has gone since.
    import shutil
    (tmp_path / "shaders").mkdir()
    shutil.copy(ARRAYS, tmp_path / "shaders" / "Arrays.metal")
    data = np.zeros(16, np.uint8)
    data[0:4] = np.frombuffer(np.float32(51).tobytes(), np.uint8)
    data[8] = 200
    monkeypatch.chdir(tmp_path)
    effect = segue.Effect("shaders/Arrays.metal:decode")
    monkeypatch.chdir(tmp_path / "shaders")     # shaders/Arrays.metal is no file from here
    for given in (data.tobytes(), data):
        effect.set_param("bytes", given)
        assert decoded(effect.render(size=(20, 1), time=0)) == (51, 200), type(given)
    assert effect.effect == "shaders/Arrays.metal:decode"


def test_a_description_that_failed_is_not_remembered(tmp_path):
    # Should the argument types not be readable when they are needed (the file gone for a
    # moment), the next set_param reads them again rather than treating every argument as a
    # plain one for good.
    import shutil
    path = tmp_path / "Arrays.metal"
    shutil.copy(ARRAYS, path)
    effect = segue.Effect("%s:decode" % path)
    effect._arrays = None        # as if the description at creation had failed
    path.rename(tmp_path / "away.metal")
    with pytest.raises(TypeError):
        effect.set_param("bytes", b"\x33\x00\x00\x00")
    (tmp_path / "away.metal").rename(path)
    data = np.zeros(16, np.uint8)
    data[8] = 200
    effect.set_param("bytes", data.tobytes())
    assert decoded(effect.render(size=(20, 1), time=0))[1] == 200


@pytest.mark.parametrize("array", [np.array([object(), object()]), np.array(["2020-01-01"], dtype="datetime64[D]"),
                                   np.array([1, 2], dtype="timedelta64[s]"), np.array(["ab", "cd"]),
                                   np.array([b"ab"])])
def test_bytes_of_arrays_that_are_not_numbers_are_refused(array):
    # An object array's bytes are pointers into this process; a date's an epoch count: neither is
    # data for a shader.
    effect = segue.Effect("%s:decode" % ARRAYS)
    before = effect.render(size=(20, 1), time=0)
    expected = "parameter 'bytes' takes the bytes of an array of numbers, not of %s" % re.escape(str(array.dtype))
    with pytest.raises(segue.InvalidArgumentTypeError, match=expected):
        effect.set_param("bytes", array)
    assert np.array_equal(effect.render(size=(20, 1), time=0), before)
    # Arrays of numbers of every kind still give their bytes.
    for numbers in (np.arange(4, dtype=np.uint16), np.array([True, False]), np.array([1.5], np.float64)):
        effect.set_param("bytes", numbers)
