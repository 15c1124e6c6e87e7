/* stack-fixture.c — a GTK 4 window with a SegueGtkStack that the tests drive (test_stack.py).
 * stack_fixture.py is the same window built from Python through introspection.
 *
 *   stack-fixture --width W --height H --image-a A.png --image-b B.png [--effect E]
 *
 * Pages: "a" and "b" (a picture of the image with a label over it), "live" (a label showing a
 * counter that changes every 100 ms, on an opaque background). Commands on stdin, one a line;
 * each is answered on stdout with one line ("ok …" or "error …") once the window has painted a
 * frame after it, so that a screenshot taken then shows its result:
 *   push NAME | pop | show NAME | begin NAME | update P | finish | cancel | effect E | param N V
 *   timing T | duration S | remove NAME | resize W H | hide | unhide | close | frame | state
 *   wait-idle | trace | focus | quit
 * `push` and `pop` answer "ok 1" or "ok 0", what the call returned. `state` answers "ok
 * visible=NAME running=0|1 progress=P depth=N done=LIST counter=N clicks=N keys=N updates=N
 * rss=KB handler=RESULT", LIST the transition-done values so far (1 finished, 0 cancelled), clicks
 * the presses pages a and b got, keys the key presses page a got (`focus` gives it the keyboard
 * focus), updates the frame clock's update phases so far (tick callbacks run in them: at rest there
 * are none), rss the process's resident memory, RESULT what the last `on-done` command did.
 * `trace` answers "ok T:P T:P …": each progress the running transition notified since the last
 * finish or cancel, with the seconds since that call (the stack notifies progress as it computes
 * it, so T is the time it was computed for). Warnings go to stderr as GLib prints them.
 *
 * Only this C window (not stack_fixture.py) has these, for what a transition-done handler does
 * while the stack emits it, and for the memory a call keeps:
 *   on-done VERB [NAME]   the next transition-done's handler (once) calls push NAME, pop,
 *                         show NAME, begin NAME, remove NAME or close (destroys the window);
 *                         `state` then says "handler=VERB:RETURNED" (push, pop, begin) or
 *                         "handler=VERB"
 *   param-repeat N NAME V1 V2 …   set_param NAME to V1, V2, … in turn, N calls in all
 */
#include <segue-gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  GtkWidget *window;
  SegueGtkStack *stack;
  GtkWidget *counter_label;
  guint counter;
  GString *done;
  GString *line;
  gboolean closed;
  guint paints_wanted;
  char *pending;   /* the reply waiting for a painted frame */
  gint64 mark;     /* when the last finish or cancel was called (µs, monotonic) */
  guint clicks;    /* presses on pages a and b */
  guint keys;      /* key presses on page a */
  GtkWidget *page_a;
  GString *trace;  /* progress notified since then */
  guint updates;   /* the frame clock's update phases */
  char *on_done;   /* the command the next transition-done's handler runs, or NULL */
  char *handled;   /* what it did */
  GMainLoop *loop;
} Fixture;

static void
reply (const char *text)
{
  fprintf (stdout, "%s\n", text);
  fflush (stdout);
}

static gboolean
send_pending (gpointer data)
{
  Fixture *f = data;

  if (f->window != NULL)
    gdk_display_sync (gtk_widget_get_display (f->window));
  if (f->pending != NULL)
    {
      reply (f->pending);
      g_clear_pointer (&f->pending, g_free);
    }
  return G_SOURCE_REMOVE;
}

static void
after_paint (GdkFrameClock *clock,
             Fixture       *f)
{
  (void) clock;
  if (f->pending == NULL || f->paints_wanted == 0)
    return;
  if (--f->paints_wanted == 0)
    g_timeout_add (20, send_pending, f);
  else if (f->window != NULL)
    gtk_widget_queue_draw (f->window);   /* nothing else may ask for the next frame */
}

/* Answers `text` after two more painted frames (the first may have been under way already). */
static void
reply_after_paint (Fixture    *f,
                   const char *text)
{
  g_free (f->pending);
  f->pending = g_strdup (text);
  if (f->closed || f->window == NULL)
    {
      g_timeout_add (50, send_pending, f);
      return;
    }
  f->paints_wanted = 2;
  gtk_widget_queue_draw (GTK_WIDGET (f->stack));
  gtk_widget_queue_draw (f->window);
}

static gboolean
tick_counter (gpointer data)
{
  Fixture *f = data;
  char text[32];

  if (f->counter_label == NULL)
    return G_SOURCE_REMOVE;
  g_snprintf (text, sizeof text, "%u", ++f->counter);
  gtk_label_set_text (GTK_LABEL (f->counter_label), text);
  return G_SOURCE_CONTINUE;
}

static void
on_window_destroy (GtkWidget *window,
                   Fixture   *f)
{
  (void) window;
  f->window = NULL;
  f->stack = NULL;
  f->counter_label = NULL;
  f->page_a = NULL;
}

/* The command of `on-done`, in the handler, while the stack emits transition-done. */
static char *
handler_command (Fixture       *f,
                 SegueGtkStack *stack,
                 const char    *command)
{
  g_auto (GStrv) words = g_strsplit (command, " ", 2);
  const char *verb = words[0], *name = words[1] != NULL ? words[1] : "";

  if (strcmp (verb, "push") == 0)
    return g_strdup_printf ("push:%d", segue_gtk_stack_push (stack, name));
  if (strcmp (verb, "pop") == 0)
    return g_strdup_printf ("pop:%d", segue_gtk_stack_pop (stack));
  if (strcmp (verb, "begin") == 0)
    return g_strdup_printf ("begin:%d", segue_gtk_stack_begin_interactive (stack, name));
  if (strcmp (verb, "show") == 0)
    segue_gtk_stack_set_visible_child_name (stack, name);
  else if (strcmp (verb, "remove") == 0)
    {
      if (strcmp (name, "live") == 0)
        f->counter_label = NULL;
      segue_gtk_stack_remove (stack, segue_gtk_stack_get_child_by_name (stack, name));
    }
  else if (strcmp (verb, "close") == 0)
    {
      f->closed = TRUE;
      gtk_window_destroy (GTK_WINDOW (f->window));
    }
  return g_strdup (verb);
}

static void
on_done (SegueGtkStack *stack,
         gboolean       finished,
         Fixture       *f)
{
  g_string_append (f->done, finished ? "1" : "0");
  if (f->on_done != NULL)
    {
      g_autofree char *command = g_steal_pointer (&f->on_done);
      g_free (f->handled);
      f->handled = handler_command (f, stack, command);
    }
}

static void
on_update (GdkFrameClock *clock,
           Fixture       *f)
{
  (void) clock;
  f->updates++;
}

/* The process's resident memory in kB (VmRSS), or 0. */
static long
rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return atol (line + strlen ("VmRSS:"));
}

static void
on_progress (SegueGtkStack *stack,
             GParamSpec    *pspec,
             Fixture       *f)
{
  (void) pspec;
  if (segue_gtk_stack_get_transition_running (stack))
    g_string_append_printf (f->trace, " %.6f:%.6f", (double) (g_get_monotonic_time () - f->mark) / G_USEC_PER_SEC,
                            segue_gtk_stack_get_progress (stack));
}

static void
on_page_pressed (GtkGestureClick *gesture,
                 int              n_press,
                 double           x,
                 double           y,
                 Fixture         *f)
{
  (void) gesture;
  (void) n_press;
  (void) x;
  (void) y;
  f->clicks++;
}

static gboolean
on_page_key (GtkEventControllerKey *controller,
             guint                  keyval,
             guint                  keycode,
             GdkModifierType        state,
             Fixture               *f)
{
  (void) controller;
  (void) keyval;
  (void) keycode;
  (void) state;
  f->keys++;
  return GDK_EVENT_STOP;
}

/* Counts the presses a page gets (and, for page a, its key presses). */
static void
count_input (Fixture   *f,
             GtkWidget *page,
             gboolean   keys)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_page_pressed), f);
  gtk_widget_add_controller (page, GTK_EVENT_CONTROLLER (click));
  if (keys)
    {
      GtkEventController *key = gtk_event_controller_key_new ();
      g_signal_connect (key, "key-pressed", G_CALLBACK (on_page_key), f);
      gtk_widget_add_controller (page, key);
    }
}

static GtkWidget *
image_page (const char *path,
            const char *title)
{
  GtkWidget *overlay = gtk_overlay_new ();
  GtkWidget *picture = gtk_picture_new_for_filename (path);
  GtkWidget *label = gtk_label_new (title);

  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_overlay_set_child (GTK_OVERLAY (overlay), picture);
  gtk_widget_set_halign (label, GTK_ALIGN_CENTER);
  gtk_widget_set_valign (label, GTK_ALIGN_START);
  gtk_widget_set_margin_top (label, 12);
  gtk_overlay_add_overlay (GTK_OVERLAY (overlay), label);
  return overlay;
}

static gboolean
wait_idle (gpointer data)
{
  Fixture *f = data;

  if (f->stack != NULL && segue_gtk_stack_get_transition_running (f->stack))
    return G_SOURCE_CONTINUE;
  reply_after_paint (f, "ok");
  return G_SOURCE_REMOVE;
}

static void
handle (Fixture    *f,
        const char *command)
{
  g_auto (GStrv) words = g_strsplit (command, " ", 3);
  const char *verb = words[0] != NULL ? words[0] : "";
  const char *arg = words[0] != NULL && words[1] != NULL ? words[1] : "";
  g_autoptr (GError) error = NULL;
  const char *answer = "ok";
  char buffer[512];

  if (strcmp (verb, "quit") == 0)
    {
      reply ("ok");
      g_main_loop_quit (f->loop);
      return;
    }
  if (f->stack == NULL && strcmp (verb, "state") != 0)
    {
      reply_after_paint (f, "ok closed");
      return;
    }
  if (strcmp (verb, "push") == 0)
    answer = segue_gtk_stack_push (f->stack, arg) ? "ok 1" : "ok 0";
  else if (strcmp (verb, "pop") == 0)
    answer = segue_gtk_stack_pop (f->stack) ? "ok 1" : "ok 0";
  else if (strcmp (verb, "on-done") == 0)
    {
      g_free (f->on_done);
      f->on_done = words[1] != NULL ? g_strdup (command + strlen ("on-done ")) : NULL;
    }
  else if (strcmp (verb, "param-repeat") == 0)
    {
      g_auto (GStrv) values = g_strsplit (words[2] != NULL ? words[2] : "", " ", -1);
      guint n = (guint) atoi (arg), count = g_strv_length (values);

      for (guint i = 0; count > 1 && i < n; i++)
        segue_gtk_stack_set_param (f->stack, values[0], values[1 + i % (count - 1)], NULL);
    }
  else if (strcmp (verb, "show") == 0)
    segue_gtk_stack_set_visible_child_name (f->stack, arg);
  else if (strcmp (verb, "begin") == 0)
    {
      if (!segue_gtk_stack_begin_interactive (f->stack, arg))
        {
          reply_after_paint (f, "error begin");
          return;
        }
    }
  else if (strcmp (verb, "update") == 0)
    segue_gtk_stack_update_interactive (f->stack, g_ascii_strtod (arg, NULL));
  else if (strcmp (verb, "finish") == 0 || strcmp (verb, "cancel") == 0)
    {
      g_string_truncate (f->trace, 0);
      f->mark = g_get_monotonic_time ();
      if (strcmp (verb, "finish") == 0)
        segue_gtk_stack_finish_interactive (f->stack);
      else
        segue_gtk_stack_cancel_interactive (f->stack);
    }
  else if (strcmp (verb, "effect") == 0 || strcmp (verb, "timing") == 0 || strcmp (verb, "param") == 0)
    {
      gboolean ok;
      if (strcmp (verb, "effect") == 0)
        ok = segue_gtk_stack_set_effect (f->stack, arg, &error);
      else if (strcmp (verb, "timing") == 0)
        ok = segue_gtk_stack_set_timing (f->stack, arg, &error);
      else
        ok = segue_gtk_stack_set_param (f->stack, arg, words[1] != NULL && words[2] != NULL ? words[2] : "", &error);
      if (!ok)
        {
          char *flat = g_strdelimit (g_strdup (error->message), "\n", ' ');
          g_snprintf (buffer, sizeof buffer, "error %d %s", error->code, flat);
          g_free (flat);
          reply_after_paint (f, buffer);
          return;
        }
    }
  else if (strcmp (verb, "duration") == 0)
    segue_gtk_stack_set_duration (f->stack, g_ascii_strtod (arg, NULL));
  else if (strcmp (verb, "remove") == 0)
    {
      GtkWidget *child = segue_gtk_stack_get_child_by_name (f->stack, arg);
      if (child != NULL)
        {
          if (strcmp (arg, "live") == 0)
            f->counter_label = NULL;
          segue_gtk_stack_remove (f->stack, child);
        }
    }
  else if (strcmp (verb, "resize") == 0)
    {
      int width = atoi (arg), height = words[2] != NULL ? atoi (words[2]) : 0;
      gtk_widget_set_size_request (GTK_WIDGET (f->stack), width, height);
      gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
    }
  else if (strcmp (verb, "hide") == 0 || strcmp (verb, "unhide") == 0)
    gtk_widget_set_visible (GTK_WIDGET (f->stack), strcmp (verb, "unhide") == 0);
  else if (strcmp (verb, "close") == 0)
    {
      f->closed = TRUE;
      gtk_window_destroy (GTK_WINDOW (f->window));
    }
  else if (strcmp (verb, "state") == 0)
    {
      if (f->stack == NULL)
        g_snprintf (buffer, sizeof buffer, "ok closed done=%s", f->done->str);
      else
        g_snprintf (buffer, sizeof buffer,
                    "ok visible=%s running=%d progress=%.4f depth=%u done=%s counter=%u clicks=%u keys=%u "
                    "updates=%u rss=%ld handler=%s",
                    segue_gtk_stack_get_visible_child_name (f->stack),
                    segue_gtk_stack_get_transition_running (f->stack) ? 1 : 0,
                    segue_gtk_stack_get_progress (f->stack), segue_gtk_stack_get_depth (f->stack),
                    f->done->str, f->counter, f->clicks, f->keys, f->updates, rss_kb (),
                    f->handled != NULL ? f->handled : "");
      reply (buffer);
      return;
    }
  else if (strcmp (verb, "focus") == 0)
    {
      gtk_widget_set_focusable (f->page_a, TRUE);
      gtk_widget_grab_focus (f->page_a);
    }
  else if (strcmp (verb, "trace") == 0)
    {
      g_autofree char *text = g_strconcat ("ok", f->trace->str, NULL);
      reply (text);
      return;
    }
  else if (strcmp (verb, "wait-idle") == 0)
    {
      /* Answers once no transition runs (the caller bounds the wait). */
      g_timeout_add (20, wait_idle, f);
      return;
    }
  else if (strcmp (verb, "frame") != 0)
    {
      g_snprintf (buffer, sizeof buffer, "error unknown command '%s'", verb);
      reply (buffer);
      return;
    }
  reply_after_paint (f, answer);
}

static gboolean
on_stdin (GIOChannel   *channel,
          GIOCondition  condition,
          gpointer      data)
{
  Fixture *f = data;
  char *line = NULL;
  gsize length = 0;
  GIOStatus status;

  (void) condition;
  status = g_io_channel_read_line (channel, &line, &length, NULL, NULL);
  if (status == G_IO_STATUS_EOF || status == G_IO_STATUS_ERROR)
    {
      g_main_loop_quit (f->loop);
      return G_SOURCE_REMOVE;
    }
  if (line != NULL)
    {
      g_strchomp (line);
      handle (f, line);
      g_free (line);
    }
  return G_SOURCE_CONTINUE;
}

int
main (int argc, char **argv)
{
  Fixture f = { 0 };
  int width = 400, height = 300;
  const char *image_a = NULL, *image_b = NULL, *effect = NULL;
  GtkCssProvider *css;
  GtkWidget *live;
  GIOChannel *channel;

  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--width") == 0)
        width = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--height") == 0)
        height = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--image-a") == 0)
        image_a = argv[i + 1];
      else if (strcmp (argv[i], "--image-b") == 0)
        image_b = argv[i + 1];
      else if (strcmp (argv[i], "--effect") == 0)
        effect = argv[i + 1];
    }
  if (image_a == NULL || image_b == NULL)
    {
      fprintf (stderr, "usage: stack-fixture --image-a A.png --image-b B.png [--width W --height H --effect E]\n");
      return 2;
    }

  g_log_writer_default_set_use_stderr (TRUE);   /* stdout is the protocol's, even for debug messages */
  gtk_init ();
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (css, "window { background: rgb(128,128,128); }"
                                   ".live { background: #204a87; color: white; font-size: 48px; }", -1);
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  f.done = g_string_new (NULL);
  f.trace = g_string_new (NULL);
  f.loop = g_main_loop_new (NULL, FALSE);
  f.window = gtk_window_new ();
  gtk_window_set_decorated (GTK_WINDOW (f.window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (f.window), width, height);
  gtk_window_set_resizable (GTK_WINDOW (f.window), FALSE);
  g_signal_connect (f.window, "destroy", G_CALLBACK (on_window_destroy), &f);

  f.stack = SEGUE_GTK_STACK (segue_gtk_stack_new ());
  gtk_widget_set_size_request (GTK_WIDGET (f.stack), width, height);
  if (effect != NULL)
    g_object_set (f.stack, "effect", effect, NULL);
  f.page_a = image_page (image_a, "Page A");
  count_input (&f, f.page_a, TRUE);
  segue_gtk_stack_add_named (f.stack, f.page_a, "a");
  segue_gtk_stack_add_named (f.stack, image_page (image_b, "Page B"), "b");
  count_input (&f, segue_gtk_stack_get_child_by_name (f.stack, "b"), FALSE);
  live = gtk_label_new ("0");
  gtk_widget_add_css_class (live, "live");
  f.counter_label = live;
  segue_gtk_stack_add_named (f.stack, live, "live");
  g_signal_connect (f.stack, "transition-done", G_CALLBACK (on_done), &f);
  g_signal_connect (f.stack, "notify::progress", G_CALLBACK (on_progress), &f);
  gtk_window_set_child (GTK_WINDOW (f.window), GTK_WIDGET (f.stack));
  g_timeout_add (100, tick_counter, &f);

  gtk_window_present (GTK_WINDOW (f.window));
  g_signal_connect (gtk_widget_get_frame_clock (f.window), "after-paint", G_CALLBACK (after_paint), &f);
  g_signal_connect (gtk_widget_get_frame_clock (f.window), "update", G_CALLBACK (on_update), &f);

  channel = g_io_channel_unix_new (0);
  g_io_add_watch (channel, G_IO_IN | G_IO_HUP | G_IO_ERR, on_stdin, &f);
  reply_after_paint (&f, "ready");
  g_main_loop_run (f.loop);

  g_io_channel_unref (channel);
  if (f.window != NULL)
    gtk_window_destroy (GTK_WINDOW (f.window));
  g_string_free (f.done, TRUE);
  g_string_free (f.trace, TRUE);
  g_free (f.on_done);
  g_free (f.handled);
  g_main_loop_unref (f.loop);
  g_object_unref (css);
  return 0;
}
