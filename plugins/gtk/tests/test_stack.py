"""SegueGtkStack in a real GTK 4 window under a private Xvfb: its frames against `segue frame`, live
pages, real input (XTEST through xdotool), Python through introspection, and bad input.

Run by `make -C plugins/gtk check` (scripts/test.sh) with Debian's /usr/bin/python3. Each test starts
its own fixture window (tests/stack-fixture.c, or tests/stack_fixture.py for Python); screenshots are
the X server's picture (`import -window root`); failed comparisons leave images in build/test-output.
"""
import math
import os
import time
import unittest

import gtktest
from gtktest import ROOT

WIDTH, HEIGHT = 400, 300
GLSL = os.path.join(ROOT, "Examples", "gtk", "circle-reveal.glsl")
METAL = os.path.join(ROOT, "Examples", "gtk", "slide-up.metal") + ":slideUp"
BROKEN_GLSL = os.path.join(ROOT, "Tests", "Fixtures", "gl-transitions", "syntax-error.glsl")
TEXTURE_GLSL = os.path.join(ROOT, "Tests", "Fixtures", "gl-transitions", "luma-mask.glsl")   # sampler2D luma


def setUpModule():
    global SERVER, WORKDIR, PAGE_A, PAGE_B
    WORKDIR = gtktest.temporary_directory()
    PAGE_A, PAGE_B = gtktest.make_pages(WORKDIR.name, WIDTH, HEIGHT)
    SERVER = gtktest.XServer()   # last: nothing after it can fail and leave it running


def tearDownModule():
    SERVER.close()
    WORKDIR.cleanup()


class StackTestCase(unittest.TestCase):
    """Starts fixture windows of the C library; PythonStackTests runs the same through Python."""

    def fixture_command(self):
        return gtktest.c_fixture()

    def fixture_env(self):
        return SERVER.env()

    def start(self, effect="fade"):
        command = self.fixture_command() + ["--width", str(WIDTH), "--height", str(HEIGHT),
                                            "--image-a", PAGE_A, "--image-b", PAGE_B, "--effect", effect]
        fixture = gtktest.Fixture(SERVER, command, WORKDIR.name, env=self.fixture_env())
        self.addCleanup(self.stop, fixture)
        return fixture

    def stop(self, fixture):
        code = fixture.close()
        errors = fixture.errors()
        self.assertEqual(code, 0, f"the fixture exited with {code}:\n{errors}")
        self.assertNotIn("CRITICAL", errors)

    def shot(self, name):
        return SERVER.screenshot(os.path.join(WORKDIR.name, f"{self.id()}-{name}.png"), WIDTH, HEIGHT)

    def page_shots(self, fixture):
        """Screenshots of page a and page b at rest (a shown again afterwards)."""
        a = self.shot("page-a")
        fixture.ok("duration 0.05")
        fixture.ok("show b")
        fixture.ok("wait-idle")
        b = self.shot("page-b")
        fixture.ok("show a")
        fixture.ok("wait-idle")
        fixture.ok("duration 0")
        self.assertTrue(gtktest.same_image(a, self.shot("page-a-again")), "page a is not back after a switch")
        self.assertFalse(gtktest.same_image(a, b))
        return a, b

    def assertMatches(self, actual, expected, name):
        message = gtktest.compare(actual, expected, name)
        if message:
            self.fail(message)

    def assertState(self, fixture, **expected):
        state = fixture.state()
        for key, value in expected.items():
            self.assertEqual(state.get(key), str(value), f"{key} in {state}")
        return state


class FramesMatchSegueFrame(StackTestCase):
    """begin_interactive + update_interactive(0.5): the window equals `segue frame --progress 0.5`
    of screenshots of the two pages (within 2/255 on 99 % of pixels)."""

    def check_effect(self, effect, label):
        f = self.start(effect)
        a, b = self.page_shots(f)
        f.ok("begin b")
        f.ok("update 0.5")
        self.assertState(f, running=1, progress="0.5000", visible="a")
        middle = self.shot("middle")
        expected = gtktest.segue_frame(a, b, effect, 0.5, os.path.join(WORKDIR.name, f"{self.id()}-expected.png"))
        self.assertMatches(middle, expected, f"{self.fixture_name()}-{label}-0.5")
        # Cancelled, it runs back to page a: exactly the page again.
        f.ok("cancel")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="a", depth=1, done="110")
        self.assertTrue(gtktest.same_image(self.shot("cancelled"), a), "page a is not back exactly")

    def fixture_name(self):
        return "c"

    def test_fade(self):
        self.check_effect("fade", "fade")

    def test_ios_push(self):
        self.check_effect("ios-push", "ios-push")

    def test_cube(self):
        self.check_effect("cube", "cube")

    def test_glsl_file(self):
        self.check_effect(GLSL, "glsl")

    def test_stitchable_metal(self):
        self.check_effect(METAL, "metal")

    def test_finish_and_pop_backwards(self):
        """finish runs on to page b (pushed); an interactive pop of fade plays it backwards (a → b at
        1 − p), one of ios-push plays ios-pop (b → a at p)."""
        for effect, reverse, swap in (("fade", "fade", True), ("ios-push", "ios-pop", False)):
            with self.subTest(effect=effect):
                f = self.start(effect)
                a, b = self.page_shots(f)
                f.ok("begin b")
                f.ok("update 0.4")
                f.ok("finish")
                f.ok("wait-idle")
                self.assertState(f, running=0, visible="b", depth=2, done="111")
                self.assertTrue(gtktest.same_image(self.shot("finished"), b))
                f.ok("begin a")   # the page below: a pop
                f.ok("update 0.3")
                middle = self.shot(f"pop-{effect}")
                output = os.path.join(WORKDIR.name, f"{self.id()}-{effect}-pop-expected.png")
                if swap:
                    expected = gtktest.segue_frame(a, b, reverse, 0.7, output)
                else:
                    expected = gtktest.segue_frame(b, a, reverse, 0.3, output)
                self.assertMatches(middle, expected, f"{self.fixture_name()}-pop-{effect}")
                f.ok("finish")
                f.ok("wait-idle")
                self.assertState(f, running=0, visible="a", depth=1, done="1111")
                self.assertTrue(gtktest.same_image(self.shot("popped"), a))


class CompletionTiming(StackTestCase):
    """finish_interactive and cancel_interactive run on with the stack's timing: the timing property
    when set, else the effect's own (segue_info_timing), from where the transition is. The fixture
    traces each progress the stack computes, with the time since the call, against the closed form."""

    def trace(self, f):
        samples = [tuple(float(v) for v in word.split(":")) for word in f.ok("trace").split()[1:]]
        self.assertGreaterEqual(len(samples), 5, f"too few frames traced: {samples}")
        return samples

    def completed(self, f, start, command):
        f.ok("begin b")
        f.ok(f"update {start}")
        f.ok(command)
        f.ok("wait-idle", timeout=60)
        return self.trace(f)

    def assertFollows(self, samples, expected, label, tolerance=0.005, slack=0.05):
        """Each traced progress p at t equals expected(τ) within `tolerance` for a τ in [t − slack, t]:
        t is read after the stack computed p (and the call's mark before the stack read its clock),
        so on a loaded machine t can only be late. Most samples are not late: the median error at t
        itself is within `tolerance`."""
        errors = []
        for t, p in samples:
            low, high = sorted((expected(max(t - slack, 0)), expected(t)))
            self.assertTrue(low - tolerance <= p <= high + tolerance,
                            f"{label}: progress {p:.4f} at {t:.4f} s, expected {expected(t):.4f} "
                            f"(at most {slack} s earlier: {expected(max(t - slack, 0)):.4f}); trace {samples}")
            errors.append(abs(p - expected(t)))
        errors.sort()
        self.assertLessEqual(errors[len(errors) // 2], tolerance, f"{label}: median error; trace {samples}")

    def test_timing_property_linear(self):
        """timing = linear, duration 2 s: from 0.4 a finish is 0.4 + t/2 (a curve over the remaining
        share of the duration: 1.2 s), a cancel from 0.6 is 0.6 − t/2."""
        f = self.start("fade")
        f.ok("duration 2")
        f.ok("timing linear")
        samples = self.completed(f, 0.4, "finish")
        self.assertFollows(samples, lambda t: 0.4 + t / 2, "finish")
        self.assertGreater(samples[-1][0], 0.9, "the finish did not run its 1.2 s")
        self.assertState(f, running=0, visible="b", depth=2, done="1")
        f.ok("pop")
        f.ok("wait-idle", timeout=60)
        samples = self.completed(f, 0.6, "cancel")
        self.assertFollows(samples, lambda t: 0.6 - t / 2, "cancel")
        self.assertState(f, running=0, visible="a", depth=1, done="110")

    def test_effects_own_curve(self):
        """No timing set: fade's own timing is linear (not an ease-in-out): from 0.4 with a 2 s
        duration the finish is 0.4 + t/2 too."""
        f = self.start("fade")
        f.ok("duration 2")
        samples = self.completed(f, 0.4, "finish")
        self.assertFollows(samples, lambda t: 0.4 + t / 2, "finish")
        self.assertState(f, running=0, visible="b", done="1")

    def test_effects_own_spring(self):
        """No timing set: ios-push's own spring(mass=3,stiffness=1000,damping=500) from rest. It is
        overdamped, which Segue evaluates as Core Animation does, critically damped:
        p = p0 + (1 − p0)·(1 − (1 + ω0·t)·e^(−ω0·t)), ω0 = √(1000/3), whatever the duration (a
        spring runs in its own time); it settles in about half a second."""
        f = self.start("ios-push")
        f.ok("duration 2")   # a curve would take 1.2 s from 0.4; the spring ignores it
        w0 = math.sqrt(1000 / 3)
        samples = self.completed(f, 0.4, "finish")
        self.assertFollows(samples, lambda t: 0.4 + 0.6 * (1 - (1 + w0 * t) * math.exp(-w0 * t)), "finish")
        self.assertLess(samples[-1][0], 0.9, "the spring ran as long as a curve over the duration")
        self.assertState(f, running=0, visible="b", done="1")
        f.ok("duration 0")
        f.ok("begin a")    # an interactive pop: ios-pop drawn, ios-push's timing
        f.ok("update 0.7")
        f.ok("cancel")
        f.ok("wait-idle", timeout=60)
        samples = self.trace(f)
        self.assertFollows(samples, lambda t: 0.7 * (1 + w0 * t) * math.exp(-w0 * t), "cancel of a pop")
        self.assertState(f, running=0, visible="b", depth=2, done="10")


class LiveContent(StackTestCase):
    def test_label_keeps_changing_mid_transition(self):
        """With the progress held at 0.5, a page whose label changes every 100 ms shows the new text
        in the next frames: the window changes while nothing moves the transition."""
        f = self.start("fade")
        f.ok("begin live")
        f.ok("update 0.5")
        first = self.shot("live-1")
        before = int(f.state()["counter"])
        shots = [first]
        for i in range(3):
            time.sleep(0.25)
            f.ok("frame")
            shots.append(self.shot(f"live-{i + 2}"))
        state = self.assertState(f, running=1, progress="0.5000")
        self.assertGreater(int(state["counter"]), before + 1)
        for earlier, later in zip(shots, shots[1:]):
            self.assertFalse(gtktest.same_image(earlier, later), f"{later} shows the same frame as {earlier}")
        f.ok("cancel")
        f.ok("wait-idle")


class EdgeSwipe(StackTestCase):
    """Real pointer input through XTEST: a drag from the left edge pops interactively."""

    def drag(self, to_x, moves, move_delay, rest):
        y = HEIGHT // 2
        command = ["mousemove", 3, y, "mousedown", 1]
        for i in range(1, moves + 1):
            command += ["mousemove", round(3 + (to_x - 3) * i / moves), y, "sleep", move_delay]
        command += ["sleep", rest, "mouseup", 1]
        SERVER.xdotool(*command)

    def pushed(self, f):
        f.ok("duration 0.05")
        f.ok("push b")
        f.ok("wait-idle")
        f.ok("duration 0")
        self.assertState(f, visible="b", depth=2)

    def test_drag_to_30_percent_cancels_80_finishes(self):
        f = self.start("ios-push")
        a, b = self.page_shots(f)
        self.pushed(f)
        self.drag(0.3 * WIDTH, 10, 0.03, 0.3)
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="b", depth=2, done="1110")
        self.assertTrue(gtktest.same_image(self.shot("after-30"), b), "page b is not back exactly")

        self.drag(0.8 * WIDTH, 10, 0.03, 0.3)
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="a", depth=1, done="11101")
        self.assertTrue(gtktest.same_image(self.shot("after-80"), a), "page a is not shown exactly")

    def test_flick_finishes(self):
        f = self.start("ios-push")
        a, _ = self.page_shots(f)
        self.pushed(f)
        self.drag(0.25 * WIDTH, 3, 0.01, 0)
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="a", depth=1, done="1111")
        self.assertTrue(gtktest.same_image(self.shot("after-flick"), a))

    def test_drag_away_from_the_edge_does_nothing(self):
        f = self.start("ios-push")
        self.pushed(f)
        SERVER.xdotool("mousemove", 100, 150, "mousedown", 1, "mousemove", 300, 150, "sleep", 0.1, "mouseup", 1)
        f.ok("frame")
        self.assertState(f, running=0, visible="b", depth=2)


class InputDuringTransition(StackTestCase):
    """Real input through XTEST: the pages get presses and keys at rest, none while a transition runs
    (interactive and held, or running on its own), and the edge swipe still works (EdgeSwipe)."""

    def poke(self, f):
        """A click in the middle of the stack (away from the swipe edge) and a key press."""
        SERVER.xdotool("mousemove", WIDTH // 2, HEIGHT // 2, "click", 1, "key", "x")
        f.ok("frame")

    def test_pages_get_no_input_while_a_transition_runs(self):
        f = self.start("fade")
        f.ok("focus")
        self.poke(f)
        self.assertState(f, running=0, clicks=1, keys=1)

        f.ok("begin b")
        f.ok("update 0.5")
        self.poke(f)
        self.assertState(f, running=1, clicks=1, keys=1)
        f.ok("cancel")
        f.ok("wait-idle")
        self.poke(f)
        self.assertState(f, running=0, visible="a", clicks=2, keys=2)

        f.ok("duration 3")
        f.ok("push b")
        self.poke(f)
        self.assertState(f, running=1, clicks=2, keys=2)
        f.ok("wait-idle", timeout=60)
        self.poke(f)   # page b now: its press counts; the key goes nowhere (page a has no focus shown)
        self.assertState(f, running=0, visible="b", clicks=3)


class EffectCache(StackTestCase):
    """A stack keeps its 4 most recently used effects ready; the least recently used beyond them is
    dropped (a debug message says which), and made again with its parameters when used again."""

    def fixture_env(self):
        return SERVER.env(G_MESSAGES_DEBUG="SegueGtk")

    def test_dropped_effect_comes_back_with_its_parameters(self):
        f = self.start(GLSL)
        a, b = self.page_shots(f)
        f.ok("param softness 0.3")
        for effect in ("fade", "cube", "wipeleft", "doom-melt", "ios-push"):
            f.ok(f"effect {effect}")
        self.assertIn(f"dropped effect '{GLSL}'", f.errors())
        self.assertIn("dropped effect 'fade'", f.errors())
        self.assertNotIn("dropped effect 'ios-push'", f.errors())
        f.ok(f"effect {GLSL}")
        f.ok("begin b")
        f.ok("update 0.5")
        expected = gtktest.segue_frame(a, b, GLSL, 0.5, os.path.join(WORKDIR.name, f"{self.id()}-expected.png"),
                                       params=("softness=0.3",))
        self.assertMatches(self.shot("again"), expected, "c-glsl-softness-after-drop")
        f.ok("cancel")
        f.ok("wait-idle")


class BadInput(StackTestCase):
    """A message, never a crash or a frozen stack."""

    def assertStillNavigates(self, f):
        f.ok("duration 0.05")
        f.ok("push b")
        f.ok("wait-idle")
        state = self.assertState(f, running=0, visible="b")
        self.assertTrue(state["done"].endswith("1"))

    def test_unknown_effect(self):
        f = self.start("fade")
        answer = f.send("effect no-such-effect")
        self.assertTrue(answer.startswith("error 2 "), answer)
        self.assertIn("no-such-effect", answer)
        self.assertStillNavigates(f)

    def test_broken_glsl_file(self):
        f = self.start("fade")
        answer = f.send(f"effect {BROKEN_GLSL}")
        self.assertTrue(answer.startswith("error 4 "), answer)   # SEGUE_GTK_ERROR_COMPILE, with the log
        self.assertStillNavigates(f)

    def test_effect_property_warns_and_keeps_the_last_good_effect(self):
        f = self.start("no-such-effect")   # set through the property at construction
        self.assertIn("no-such-effect", f.errors())
        f.ok("begin b")
        f.ok("update 0.5")
        self.assertState(f, running=1)
        f.ok("cancel")
        f.ok("wait-idle")

    def test_bad_timing_and_parameter(self):
        f = self.start("fade")
        self.assertTrue(f.send("timing bouncy").startswith("error 1 "))
        self.assertTrue(f.send("param no-such-parameter 1").startswith("error 1 "))
        f.ok("timing spring(response=0.2,damping-fraction=0.8)")
        self.assertStillNavigates(f)

    def test_duration_beyond_the_property_range_warns(self):
        """The setter takes what the property declares, 0 to 3600 s (it took any duration from 0)."""
        f = self.start("fade")
        f.ok("duration 3600")
        self.assertNotIn("duration of", f.errors())
        f.ok("duration 7200")
        self.assertIn("a duration of 7200 s is not one (0 for the effect's own, else up to 3600 s)", f.errors())
        f.ok("duration 0")
        self.assertStillNavigates(f)

    def test_page_removed_mid_transition(self):
        f = self.start("fade")
        a, _ = self.page_shots(f)
        f.ok("begin b")
        f.ok("update 0.5")
        f.ok("remove b")
        self.assertState(f, running=0, visible="a", depth=1)
        self.assertTrue(gtktest.same_image(self.shot("removed"), a))
        # A page removed during a transition running on its own.
        f.ok("duration 3")
        f.ok("push live")
        f.ok("remove live")
        self.assertState(f, running=0, visible="a", depth=1)
        f.ok("duration 0.05")
        f.ok("push a")   # the page shown: nothing to do
        self.assertState(f, running=0, visible="a")

    def test_begin_interactive_says_why_it_refuses(self):
        """Each refusal of begin_interactive warns (it returned FALSE silently for the page shown and a
        hidden stack)."""
        f = self.start("fade")
        self.assertEqual(f.send("begin a"), "error begin")
        self.assertIn("no interactive transition to 'a': it is the page shown", f.errors())
        f.ok("hide")
        self.assertEqual(f.send("begin b"), "error begin")
        self.assertIn("no interactive transition to 'b': the stack is not on screen", f.errors())
        f.ok("unhide")
        f.ok("begin b")
        self.assertState(f, running=1, visible="a")
        f.ok("cancel")
        f.ok("wait-idle")

    def test_unset_texture_names_the_widgets_setter(self):
        """An effect whose sampler2D parameter has no image yet switches at once, with a warning that
        names segue_gtk_stack_set_param (libsegue's names segue_transition_set_param); set, it runs."""
        f = self.start(TEXTURE_GLSL)
        self.assertEqual(f.ok("push b"), "ok 1")
        self.assertState(f, running=0, visible="b", depth=2, done="1")
        self.assertIn("needs the texture 'luma': set it to an image path with segue_gtk_stack_set_param",
                      f.errors())
        self.assertNotIn("segue_transition_set_param", f.errors())
        self.assertEqual(f.send("begin a"), "error begin")
        f.ok(f"param luma {PAGE_A}")
        f.ok("begin a")
        f.ok("update 0.5")
        self.assertState(f, running=1, progress="0.5000")
        f.ok("cancel")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="b", depth=2, done="10")
        # Set to "", the texture is unset again (not the old image): the next switch is at once,
        # with the warning again.
        warned = f.errors().count("needs the texture 'luma'")
        f.ok("param luma")
        f.ok("pop")
        self.assertState(f, running=0, visible="a", depth=1, done="101")
        self.assertEqual(f.errors().count("needs the texture 'luma'"), warned + 1)

    def test_window_closed_mid_transition(self):
        f = self.start("doom-melt")
        f.ok("duration 3")
        f.ok("push b")
        self.assertState(f, running=1)
        f.ok("close")
        self.assertIn("closed", f.ok("state"))

    def test_hidden_and_resized_mid_transition(self):
        f = self.start("cube")
        f.ok("duration 3")
        f.ok("push b")
        f.ok("resize 320 240")
        self.assertState(f, running=1)
        f.ok("hide")
        self.assertState(f, running=0, visible="b", depth=2, done="1")
        f.ok("unhide")
        f.ok("duration 0.05")
        f.ok("pop")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="a", depth=1, done="11")


class TransitionDoneHandlers(StackTestCase):
    """A request that ends a running transition emits its transition-done first, and the handler may
    do anything there (the fixture's `on-done`): remove pages, close the window, navigate. A handler's
    navigation stands (its push returned TRUE and gets its own transition-done) and the request yields
    to it; nothing is freed twice or used after it is freed, and no tick callback is left behind.
    Freed memory is scribbled over (MALLOC_PERTURB_, GLib's slices through malloc), so that a use
    after free shows."""

    def fixture_env(self):
        return SERVER.env(G_SLICE="always-malloc", MALLOC_PERTURB_="165")

    def assertFrameClockIdle(self, f):
        """At rest no tick callback is left: the frame clock has an update phase for each change of
        the live page's counter (10 a second), not one a frame (60 a second)."""
        before = int(f.state()["updates"])
        time.sleep(1)
        updates = int(f.state()["updates"]) - before
        self.assertLessEqual(updates, 20, f"{updates} frame clock updates in 1 s at rest: a tick callback is left")

    def test_handler_removing_the_page_being_removed(self):
        """The app removes a page mid-pop; the pop's transition-done handler removes the same page
        (the page popped, once back at the root): the page is removed once (it was freed twice)."""
        f = self.start("fade")
        f.ok("duration 0.05")
        f.ok("push live")
        f.ok("wait-idle")
        f.ok("duration 3")
        self.assertEqual(f.ok("pop"), "ok 1")
        self.assertState(f, running=1, visible="live", depth=2)
        f.ok("on-done remove live")
        f.ok("remove live")
        self.assertState(f, running=0, visible="a", depth=1, done="11", handler="remove")
        f.ok("duration 0.05")
        self.assertEqual(f.ok("push b"), "ok 1")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="b", depth=2, done="111")

    def test_handler_closing_the_window_during_a_switch(self):
        """A switch mid-transition ends it; its transition-done handler closes the window, the last
        reference to the stack: the switch goes on with the stack as the handler left it (not on
        screen: at once), and the stack is freed after it, not under it."""
        f = self.start("fade")
        f.ok("duration 3")
        f.ok("push b")
        f.ok("on-done close")
        f.ok("show live")
        self.assertEqual(f.ok("state"), "ok closed done=11")

    def test_handler_navigation_stands_and_the_request_yields(self):
        """A switch ends a running push; the push's transition-done handler pushes another page. The
        handler's push stands: it runs to its end with a transition-done of its own, and the switch
        is dropped (it overwrote the handler's transition, whose tick callback then ran forever)."""
        f = self.start("fade")
        f.ok("duration 0.3")
        f.ok("push live")
        f.ok("on-done push b")
        f.ok("show a")
        self.assertState(f, running=1, visible="live", depth=2, done="1", handler="push:1")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="b", depth=3, done="11")
        self.assertFrameClockIdle(f)
        # A pop yields likewise, and says so.
        f.ok("duration 1")
        self.assertEqual(f.ok("push a"), "ok 1")
        f.ok("on-done pop")
        self.assertEqual(f.ok("pop"), "ok 0")
        self.assertState(f, running=1, visible="a", depth=4, done="111", handler="pop:1")
        f.ok("duration 0.05")
        f.ok("wait-idle", timeout=60)
        self.assertState(f, running=0, visible="b", depth=3, done="1111")
        self.assertFrameClockIdle(f)

    def test_handler_interactive_transition_stands(self):
        """The handler begins an interactive transition instead: it is the one that runs, held for
        update_interactive (the switch left its segue_interaction and tick callback behind)."""
        f = self.start("fade")
        f.ok("duration 3")
        f.ok("push b")
        f.ok("on-done begin live")
        f.ok("show a")   # the page below the top: a pop, dropped
        self.assertState(f, running=1, visible="b", depth=2, done="1", handler="begin:1")
        f.ok("update 0.5")
        self.assertState(f, running=1, visible="b", progress="0.5000")
        f.ok("finish")
        f.ok("wait-idle", timeout=60)
        self.assertState(f, running=0, visible="live", depth=3, done="11")
        self.assertFrameClockIdle(f)

    def test_handler_navigating_while_the_stack_is_hidden_switches_at_once(self):
        """Hiding the stack ends its transition; a transition-done handler pushing then finds the
        stack unmapped and switches at once, with its transition-done, as a push on a hidden stack
        does (it ran a transition on the hidden stack)."""
        f = self.start("fade")
        f.ok("duration 3")
        f.ok("push b")
        f.ok("on-done push live")
        f.ok("hide")
        self.assertState(f, running=0, visible="live", depth=3, done="11", handler="push:1")
        self.assertEqual(f.ok("push a"), "ok 1")   # hidden: at once too
        self.assertState(f, running=0, visible="a", depth=4, done="111")
        f.ok("unhide")
        self.assertState(f, running=0, visible="a", depth=4)
        self.assertFrameClockIdle(f)


class BackStack(StackTestCase):
    """The back stack never holds a page twice in a row: a switch to the page below the top is a
    pop, and a removal that would leave a page after itself keeps it once. pop() returns FALSE when
    it does nothing."""

    def test_showing_the_page_below_the_top_pops(self):
        f = self.start("fade")
        f.ok("duration 0.05")
        f.ok("push live")
        f.ok("wait-idle")
        self.assertState(f, visible="live", depth=2)
        f.ok("show a")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="a", depth=1, done="11")   # it was [a, a]
        self.assertEqual(f.ok("pop"), "ok 0")
        self.assertState(f, running=0, visible="a", depth=1, done="11")
        f.ok("show b")   # any other page replaces the top
        f.ok("wait-idle")
        self.assertState(f, visible="b", depth=1, done="111")
        f.ok("push a")
        f.ok("wait-idle")
        f.ok("show b")
        f.ok("wait-idle")
        self.assertState(f, visible="b", depth=1, done="11111")
        # The edge swipe and an interactive pop work (they were refused on [a, a]).
        f.ok("push a")
        f.ok("wait-idle")
        f.ok("begin b")
        self.assertState(f, running=1, visible="a", depth=2)
        f.ok("finish")
        f.ok("wait-idle")
        self.assertState(f, running=0, visible="b", depth=1)

    def test_removal_leaves_no_page_twice_in_a_row(self):
        f = self.start("fade")
        f.ok("duration 0.05")
        f.ok("push b")
        f.ok("wait-idle")
        f.ok("push a")
        f.ok("wait-idle")
        self.assertState(f, visible="a", depth=3)   # [a, b, a]
        f.ok("remove b")
        self.assertState(f, running=0, visible="a", depth=1)
        self.assertEqual(f.ok("pop"), "ok 0")
        self.assertState(f, running=0, visible="a", depth=1, done="11")


class Parameters(StackTestCase):
    """A parameter keeps one value, the last set: memory does not grow with the calls, and an effect
    made again (dropped from the cache, or after a duration) sets each parameter once."""

    def fixture_env(self):
        return SERVER.env(G_MESSAGES_DEBUG="SegueGtk")

    def test_a_parameter_set_again_replaces_its_value(self):
        f = self.start(GLSL)
        a, b = self.page_shots(f)   # a duration set: the next transition without one is made again
        rss = int(f.state()["rss"])
        f.ok("param-repeat 200000 softness 0.1 0.2 0.3", timeout=120)
        growth = int(f.state()["rss"]) - rss
        self.assertLess(growth, 4096, f"200,000 set_param calls kept {growth} kB")   # it kept 16 MB
        f.ok("param softness 0.3")
        f.ok("begin b")
        self.assertIn(f"made effect '{GLSL}' again, setting its 1 parameters again", f.errors())
        f.ok("update 0.5")
        expected = gtktest.segue_frame(a, b, GLSL, 0.5, os.path.join(WORKDIR.name, f"{self.id()}-expected.png"),
                                       params=("softness=0.3",))
        self.assertMatches(self.shot("last-value"), expected, "c-glsl-softness-last-value")
        f.ok("cancel")
        f.ok("wait-idle")


class PythonSamePixels(StackTestCase):
    """The same window built from Python through introspection gives the same pixels."""

    def test_python_window_equals_c_window(self):
        shots = {}
        for name, command, env in (("c", gtktest.c_fixture(), SERVER.env()),
                                   ("python", gtktest.python_fixture(), gtktest.python_env(SERVER))):
            self.fixture_command = lambda command=command: command
            self.fixture_env = lambda env=env: env
            f = self.start("cube")
            f.ok("begin b")
            f.ok("update 0.5")
            shots[name] = self.shot(f"{name}-cube")
            self.stop(f)
        self.assertTrue(gtktest.same_image(shots["python"], shots["c"]),
                        gtktest.compare(shots["python"], shots["c"], "python-against-c", tolerance=0, fraction=1.0))


class PythonFramesMatchSegueFrame(FramesMatchSegueFrame):
    """The frames of the Python window against `segue frame` too."""

    def fixture_command(self):
        return gtktest.python_fixture()

    def fixture_env(self):
        return gtktest.python_env(SERVER)

    def fixture_name(self):
        return "python"


if __name__ == "__main__":
    unittest.main()
