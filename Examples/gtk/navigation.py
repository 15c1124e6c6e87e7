#!/usr/bin/python3
"""A GTK 4 app that navigates between its own live pages with Segue transitions (SegueGtk through
GObject introspection; Debian's python3-gi). Three pages: a live clock with a spinner, a scrolling
list and an image; each button pushes its page with another effect: doom-melt, cube, a gl-transitions
.glsl file and a SwiftUI stitchable .metal function. Back pops (the effect backwards); so does a drag
from the left edge.

    GI_TYPELIB_PATH=plugins/gtk/build LD_LIBRARY_PATH=plugins/gtk/build Examples/gtk/navigation.py

(after `make -C plugins/gtk`; an installed libsegue-gtk needs no variables when its typelib
directory is searched). --hold PAGE:EFFECT:PROGRESS holds an interactive push part-way and prints
"holding" (the README's screenshot is taken so).
"""
import argparse
import os
import sys
import time

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
gi.require_version("SegueGtk", "1.0")
from gi.repository import Gdk, GLib, Gtk, SegueGtk  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
# What each page is pushed with: built-ins, a .glsl file, a stitchable .metal function.
EFFECTS = {
    "clock": "doom-melt",
    "list": "cube",
    "image": os.path.join(HERE, "circle-reveal.glsl"),
    "image-metal": os.path.join(HERE, "slide-up.metal") + ":slideUp",
}
CSS = b"""
.page { background-color: #f6f5f4; }
.clock { font-size: 56px; font-feature-settings: "tnum"; }
.title { font-size: 22px; font-weight: bold; }
"""


class Navigation(Gtk.Application):
    def __init__(self, hold):
        super().__init__(application_id="org.segue.GtkNavigation")
        self.hold = hold

    def do_activate(self):
        css = Gtk.CssProvider()
        css.load_from_data(CSS)
        Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), css,
                                                  Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        window = Gtk.ApplicationWindow(application=self, title="Segue in a GTK app")
        window.set_default_size(800, 600)

        self.stack = SegueGtk.Stack(effect="doom-melt")
        self.stack.add_named(self.home_page(), "home")
        self.stack.add_named(self.clock_page(), "clock")
        self.stack.add_named(self.list_page(), "list")
        self.stack.add_named(self.image_page(), "image")
        self.stack.connect("transition-done", lambda _s, finished: print("transition-done", finished, flush=True))
        window.set_child(self.stack)
        window.present()
        if self.hold:
            GLib.timeout_add(300, self.hold_transition)

    # MARK: - Pages

    def page(self, title, child, back=True):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
        box.add_css_class("page")   # pages paint their background: effects show them, not the window
        header = Gtk.Box(spacing=12, margin_top=12, margin_start=12, margin_end=12)
        if back:
            button = Gtk.Button(label="Back")
            button.connect("clicked", lambda _b: self.stack.pop())
            header.append(button)
        label = Gtk.Label(label=title, hexpand=True, xalign=0)
        label.add_css_class("title")
        header.append(label)
        box.append(header)
        child.set_vexpand(True)
        box.append(child)
        return box

    def home_page(self):
        buttons = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8, margin_start=24, margin_end=24,
                          valign=Gtk.Align.CENTER)
        for label, page, effect in (("Clock — doom-melt", "clock", EFFECTS["clock"]),
                                    ("List — cube", "list", EFFECTS["list"]),
                                    ("Image — circle-reveal.glsl", "image", EFFECTS["image"]),
                                    ("Image — slide-up.metal", "image", EFFECTS["image-metal"])):
            button = Gtk.Button(label=label)
            button.connect("clicked", self.on_push, page, effect)
            buttons.append(button)
        hint = Gtk.Label(label="Drag from the left edge to go back.")
        buttons.append(hint)
        return self.page("Segue in a GTK app", buttons, back=False)

    def clock_page(self):
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=24, valign=Gtk.Align.CENTER)
        self.clock = Gtk.Label()
        self.clock.add_css_class("clock")
        box.append(self.clock)
        spinner = Gtk.Spinner(spinning=True, width_request=64, height_request=64)
        box.append(spinner)
        self.tick_clock()
        GLib.timeout_add(50, self.tick_clock)
        return self.page("A live clock", box)

    def tick_clock(self):
        now = time.time()
        self.clock.set_text(time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now * 10) % 10}")
        return GLib.SOURCE_CONTINUE

    def list_page(self):
        rows = Gtk.ListBox()
        for i in range(1, 201):
            rows.append(Gtk.Label(label=f"Row {i}", xalign=0, margin_start=12, margin_top=6, margin_bottom=6))
        scrolled = Gtk.ScrolledWindow(child=rows)
        return self.page("A scrolling list", scrolled)

    def image_page(self):
        picture = Gtk.Picture.new_for_filename(os.path.join(HERE, "landscape.jpg"))
        picture.set_content_fit(Gtk.ContentFit.COVER)
        return self.page("An image", picture)

    # MARK: - Navigation

    def on_push(self, _button, page, effect):
        try:
            self.stack.set_effect(effect)
        except GLib.Error as error:   # a file that is missing or does not compile: say so, switch anyway
            print(f"segue: {error.message}", file=sys.stderr)
        self.stack.push(page)

    def hold_transition(self):
        page, effect, progress = self.hold.split(":", 2)
        self.stack.set_effect(EFFECTS.get(effect, effect))
        self.stack.begin_interactive(page)
        self.stack.update_interactive(float(progress))
        print("holding", flush=True)
        return GLib.SOURCE_REMOVE


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hold", help="PAGE:EFFECT:PROGRESS: hold an interactive push part-way")
    args, rest = parser.parse_known_args()
    app = Navigation(args.hold)
    return app.run([sys.argv[0]] + rest)


if __name__ == "__main__":
    sys.exit(main())
