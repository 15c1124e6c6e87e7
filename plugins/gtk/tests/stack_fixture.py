#!/usr/bin/python3
"""The window of stack-fixture.c built from Python through GObject introspection (SegueGtk-1.0):
the same pages, the same commands on stdin and the same answers on stdout (see stack-fixture.c;
but for its on-done and param-repeat commands and the state's updates, rss and handler fields), so
that test_stack.py checks that Python gets the same pixels.

    stack_fixture.py --width W --height H --image-a A.png --image-b B.png [--effect E]
"""
import argparse
import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
gi.require_version("SegueGtk", "1.0")
from gi.repository import Gdk, GLib, Gtk, SegueGtk  # noqa: E402


class Fixture:
    def __init__(self, args):
        css = Gtk.CssProvider()
        css.load_from_data(b"window { background: rgb(128,128,128); }"
                          b".live { background: #204a87; color: white; font-size: 48px; }")
        Gtk.StyleContext.add_provider_for_display(
            Gdk.Display.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        self.loop = GLib.MainLoop()
        self.done = ""
        self.counter = 0
        self.pending = None
        self.paints_wanted = 0
        self.mark = 0
        self.trace = ""
        self.clicks = 0
        self.keys = 0

        self.window = Gtk.Window(decorated=False, resizable=False)
        self.window.set_default_size(args.width, args.height)
        self.window.connect("destroy", self.on_destroy)
        self.stack = SegueGtk.Stack()
        self.stack.set_size_request(args.width, args.height)
        if args.effect:
            self.stack.props.effect = args.effect
        self.page_a = self.image_page(args.image_a, "Page A")
        self.count_input(self.page_a, True)
        self.stack.add_named(self.page_a, "a")
        page_b = self.image_page(args.image_b, "Page B")
        self.count_input(page_b, False)
        self.stack.add_named(page_b, "b")
        self.counter_label = Gtk.Label(label="0")
        self.counter_label.add_css_class("live")
        self.stack.add_named(self.counter_label, "live")
        self.stack.connect("transition-done", self.on_done)
        self.stack.connect("notify::progress", self.on_progress)
        self.window.set_child(self.stack)
        GLib.timeout_add(100, self.tick_counter)
        self.window.present()
        self.window.get_frame_clock().connect("after-paint", self.after_paint)
        channel = GLib.IOChannel.unix_new(0)
        GLib.io_add_watch(channel, GLib.PRIORITY_DEFAULT, GLib.IOCondition.IN | GLib.IOCondition.HUP, self.on_stdin)
        self.reply_after_paint("ready")

    @staticmethod
    def image_page(path, title):
        overlay = Gtk.Overlay()
        picture = Gtk.Picture.new_for_filename(path)
        picture.set_can_shrink(True)
        overlay.set_child(picture)
        label = Gtk.Label(label=title, halign=Gtk.Align.CENTER, valign=Gtk.Align.START, margin_top=12)
        overlay.add_overlay(label)
        return overlay

    def count_input(self, page, keys):
        """Counts the presses a page gets (and, for page a, its key presses)."""
        click = Gtk.GestureClick()
        click.connect("pressed", self.on_page_pressed)
        page.add_controller(click)
        if keys:
            key = Gtk.EventControllerKey()
            key.connect("key-pressed", self.on_page_key)
            page.add_controller(key)

    def on_page_pressed(self, *_args):
        self.clicks += 1

    def on_page_key(self, *_args):
        self.keys += 1
        return True

    def on_destroy(self, _window):
        self.window = self.stack = self.counter_label = None

    def on_done(self, _stack, finished):
        self.done += "1" if finished else "0"

    def on_progress(self, stack, _pspec):
        if stack.get_transition_running():
            self.trace += f" {(GLib.get_monotonic_time() - self.mark) / 1e6:.6f}:{stack.get_progress():.6f}"

    def tick_counter(self):
        if self.counter_label is None:
            return GLib.SOURCE_REMOVE
        self.counter += 1
        self.counter_label.set_text(str(self.counter))
        return GLib.SOURCE_CONTINUE

    @staticmethod
    def reply(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    def send_pending(self):
        if self.window is not None:
            self.window.get_display().sync()
        if self.pending is not None:
            self.reply(self.pending)
            self.pending = None
        return GLib.SOURCE_REMOVE

    def after_paint(self, _clock):
        if self.pending is None or self.paints_wanted == 0:
            return
        self.paints_wanted -= 1
        if self.paints_wanted == 0:
            GLib.timeout_add(20, self.send_pending)
        elif self.window is not None:
            self.window.queue_draw()  # nothing else may ask for the next frame

    def reply_after_paint(self, text):
        self.pending = text
        if self.window is None:
            GLib.timeout_add(50, self.send_pending)
            return
        self.paints_wanted = 2
        self.stack.queue_draw()
        self.window.queue_draw()

    def wait_idle(self):
        if self.stack is not None and self.stack.get_transition_running():
            return GLib.SOURCE_CONTINUE
        self.reply_after_paint("ok")
        return GLib.SOURCE_REMOVE

    def handle(self, line):
        verb, _, rest = line.partition(" ")
        arg = rest.split(" ", 1)[0] if rest else ""
        if verb == "quit":
            self.reply("ok")
            self.loop.quit()
            return
        if verb == "state":
            if self.stack is None:
                self.reply(f"ok closed done={self.done}")
            else:
                s = self.stack
                self.reply(f"ok visible={s.get_visible_child_name()} running={int(s.get_transition_running())} "
                           f"progress={s.get_progress():.4f} depth={s.get_depth()} done={self.done} "
                           f"counter={self.counter} clicks={self.clicks} keys={self.keys}")
            return
        if verb == "trace":
            self.reply("ok" + self.trace)
            return
        if self.stack is None:
            self.reply_after_paint("ok closed")
            return
        s = self.stack
        answer = "ok"
        try:
            if verb == "push":
                answer = "ok 1" if s.push(arg) else "ok 0"
            elif verb == "pop":
                answer = "ok 1" if s.pop() else "ok 0"
            elif verb == "show":
                s.set_visible_child_name(arg)
            elif verb == "begin":
                if not s.begin_interactive(arg):
                    self.reply_after_paint("error begin")
                    return
            elif verb == "update":
                s.update_interactive(float(arg))
            elif verb in ("finish", "cancel"):
                self.trace = ""
                self.mark = GLib.get_monotonic_time()
                if verb == "finish":
                    s.finish_interactive()
                else:
                    s.cancel_interactive()
            elif verb == "effect":
                s.set_effect(arg)
            elif verb == "timing":
                s.set_timing(arg)
            elif verb == "param":
                name, _, value = rest.partition(" ")
                s.set_param(name, value)
            elif verb == "duration":
                s.set_duration(float(arg))
            elif verb == "remove":
                child = s.get_child_by_name(arg)
                if child is not None:
                    if arg == "live":
                        self.counter_label = None
                    s.remove(child)
            elif verb == "resize":
                width, height = (int(v) for v in rest.split())
                s.set_size_request(width, height)
                self.window.set_default_size(width, height)
            elif verb in ("hide", "unhide"):
                s.set_visible(verb == "unhide")
            elif verb == "close":
                self.window.destroy()
            elif verb == "focus":
                self.page_a.set_focusable(True)
                self.page_a.grab_focus()
            elif verb == "wait-idle":
                GLib.timeout_add(20, self.wait_idle)
                return
            elif verb != "frame":
                self.reply(f"error unknown command '{verb}'")
                return
        except GLib.Error as error:
            self.reply_after_paint(f"error {error.code} {error.message}".replace("\n", " "))
            return
        self.reply_after_paint(answer)

    def on_stdin(self, channel, condition):
        if condition & GLib.IOCondition.HUP and not condition & GLib.IOCondition.IN:
            self.loop.quit()
            return GLib.SOURCE_REMOVE
        line = channel.readline()
        if not line:
            self.loop.quit()
            return GLib.SOURCE_REMOVE
        self.handle(line.strip())
        return GLib.SOURCE_CONTINUE


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--width", type=int, default=400)
    parser.add_argument("--height", type=int, default=300)
    parser.add_argument("--image-a", required=True)
    parser.add_argument("--image-b", required=True)
    parser.add_argument("--effect")
    GLib.log_writer_default_set_use_stderr(True)  # stdout is the protocol's, even for debug messages
    fixture = Fixture(parser.parse_args())
    fixture.loop.run()
    if fixture.window is not None:
        fixture.window.destroy()


if __name__ == "__main__":
    main()
