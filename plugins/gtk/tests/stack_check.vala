// A Vala program over the SegueGtk bindings that vapigen makes from the installed gir: properties,
// push, and a GError caught as an exception (test_examples.py builds and runs it).
int main (string[] args) {
    Gtk.init ();
    var stack = new SegueGtk.Stack ();
    stack.effect = "cube";
    stack.add_named (new Gtk.Label ("a"), "a");
    stack.add_named (new Gtk.Label ("b"), "b");
    bool pushed = stack.push ("b");
    print ("%s %s %u %s\n", pushed.to_string (), stack.visible_child_name, stack.depth, stack.effect);
    try {
        stack.set_effect ("no-such-effect");
    } catch (GLib.Error e) {
        print ("error %d %s\n", e.code, e.message);
    }
    return 0;
}
