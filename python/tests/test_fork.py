"""Transitions and effects made before fork() work in the children of a fork-based
multiprocessing Pool (Linux's default): each re-creates its GPU handle there on first use, with
its parameters and duration, and renders the parent's pixels exactly. A child that would use the
parent's GPU objects waits forever, so every pool here has a timeout and is terminated after it."""
import multiprocessing
import os

import numpy as np
import pytest

import segue
import segue._library
from conftest import frames

TIMEOUT = 120   # seconds for a pool's work: one context and a few shader compiles per child

# The objects the children use, put here by a test before its pool forks (so the children inherit
# them, as they would inherit objects made at module level) and removed when it is done.
SHARED = {}


def render_in_child(job):
    """Renders job = (name, args) with the inherited object SHARED[name]; returns this process's
    id and the frame."""
    name, args = job
    return os.getpid(), SHARED[name].render(*args)


def close_in_child(name):
    """Closes the inherited object SHARED[name]; returns the message of a render after that."""
    obj = SHARED[name]
    obj.close()
    a, b = frames(8, 4)
    try:
        obj.render(a, b, 0.5) if isinstance(obj, segue.Transition) else obj.render(a)
    except segue.SegueError as e:
        return str(e)
    return "rendered after close()"


def run_in_pool(function, jobs, processes=2, before_fork=None):
    """`function` over `jobs` in a new fork-based pool, each job in order; fails the test (rather
    than hanging it) when the children take longer than TIMEOUT. `before_fork` is a context
    manager held while the pool forks its children."""
    context = multiprocessing.get_context("fork")
    if before_fork is None:
        pool = context.Pool(processes)
    else:
        with before_fork:
            pool = context.Pool(processes)   # forks here, while `before_fork` is held
    try:
        return pool.map_async(function, jobs, chunksize=1).get(timeout=TIMEOUT)
    except multiprocessing.TimeoutError:
        pytest.fail("the forked children did not finish in %d s (hung on the parent's GPU handles?)" % TIMEOUT)
    finally:
        pool.terminate()
        pool.join()


@pytest.fixture
def shared():
    yield SHARED
    SHARED.clear()


def test_objects_made_before_fork_render_the_parents_pixels_in_children(shared):
    a, b = frames(translucent=True)
    shared["fade"] = segue.Transition("fade")
    shared["melt"] = segue.Transition("doom-melt", spread=0.5)
    shared["melt"].duration = 3             # set after creation: replayed in the children too
    shared["bulge"] = segue.Effect("bulge", radius=12, touch=(0.3, 0.6))
    jobs = [("fade", (a, b, 0.3)), ("melt", (a, b, 0.4)), ("bulge", (a,)), ("fade", (a, b, 0.8)),
            ("melt", (a, b, 0.7)), ("bulge", (b,))]
    expected = [shared[name].render(*args) for name, args in jobs]   # rendered here first
    assert not np.array_equal(expected[1], shared["melt"].render(a, b, 0.4, time=0.8)), \
        "doom-melt at 0.4 does not show whether the duration (3 s) reached the children"

    results = run_in_pool(render_in_child, jobs)

    assert {pid for pid, _ in results} - {os.getpid()}, "no job ran in a child"
    for (name, args), (_, ours), theirs in zip(jobs, results, expected):
        assert ours.shape == theirs.shape and np.array_equal(ours, theirs), "%s differs in the child" % name
    # The parent's objects are untouched by their children.
    assert np.array_equal(shared["fade"].render(a, b, 0.3), expected[0])
    assert shared["melt"].duration == 3.0


def test_children_forked_while_the_parent_held_segues_locks_do_not_wait_for_them(shared):
    # Another thread of the parent inside a render, or opening the context, when the pool forks:
    # the child inherits those locks held, by a thread it does not have.
    a, b = frames(16, 8)
    shared["fade"] = segue.Transition("fade")
    expected = shared["fade"].render(a, b, 0.5)

    class Both:
        def __enter__(self):
            segue._library._lock.acquire()
            shared["fade"]._lock.acquire()

        def __exit__(self, *exc):
            shared["fade"]._lock.release()
            segue._library._lock.release()

    results = run_in_pool(render_in_child, [("fade", (a, b, 0.5))] * 2, before_fork=Both())

    assert all(np.array_equal(frame, expected) for _, frame in results)


def test_close_in_a_child_drops_the_inherited_handle_and_leaves_the_parents(shared):
    a, b = frames(16, 8)
    shared["fade"] = segue.Transition("fade")
    shared["bulge"] = segue.Effect("bulge")
    expected = shared["fade"].render(a, b, 0.5), shared["bulge"].render(a)

    messages = run_in_pool(close_in_child, ["fade", "bulge"])

    assert messages == ["the transition 'fade' is closed", "the effect 'bulge' is closed"]
    assert np.array_equal(shared["fade"].render(a, b, 0.5), expected[0])
    assert np.array_equal(shared["bulge"].render(a), expected[1])


def test_a_relative_effect_file_is_read_again_in_a_child_after_the_parent_changed_directory(shared, tmp_path,
                                                                                              monkeypatch):
    # The child makes its handle again from what the parent's was made from: the file the
    # relative name named where the object was made, not one relative to the directory now.
    import shutil
    from test_render import TINT
    shutil.copy(TINT, tmp_path / "tint.glsl")
    a, b = frames(16, 8)
    monkeypatch.chdir(tmp_path)
    shared["tint"] = segue.Transition("tint.glsl", tint="#0080ff")
    expected = shared["tint"].render(a, b, 0.4)
    monkeypatch.chdir(tmp_path.parent)     # no tint.glsl here

    results = run_in_pool(render_in_child, [("tint", (a, b, 0.4))] * 2)

    assert {pid for pid, _ in results} - {os.getpid()}, "no job ran in a child"
    assert all(np.array_equal(frame, expected) for _, frame in results)
    assert shared["tint"].effect == "tint.glsl"     # as it was given
