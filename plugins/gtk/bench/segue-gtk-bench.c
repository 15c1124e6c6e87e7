/* segue-gtk-bench.c — frame times of a SegueGtkStack transition between two live pages, against
 * the same switch with GtkStack's crossfade, in one window and one run (scripts/bench-gtk.sh).
 *
 *   segue-gtk-bench --width W --height H [--effect fade] [--seconds 3]
 *
 * Prints one line a measurement, `key value …`: for each stack ("segue", "gtkstack") the frame
 * intervals of the frame clock during the transition (the rate the window achieves) and the paint
 * phase's duration (snapshot + GSK render of the window: all the frame's drawing); for "segue" also
 * the parts SegueGtkStack times inside its snapshot (segue_gtk_stack_get_frame_timings), and the GTK
 * renderer's share (paint − the stack's snapshot), which includes uploading the result texture.
 * Values are p50 p90 p99 in milliseconds.
 */
#include <segue-gtk.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PART_INTERVAL, PART_PAINT, PART_SNAPSHOT, PART_RENDER, PART_DOWNLOAD, PART_SWIZZLE, PART_SEGUE,
       PART_TEXTURE, PART_TOTAL, PART_GTK_RENDER, N_PARTS };
static const char *part_names[N_PARTS] = { "interval", "paint", "snapshot", "render", "download", "swizzle",
                                           "segue", "texture", "stack", "gtk-render" };

typedef struct {
  GArray *values[N_PARTS];
  gint64 last_frame;
  gint64 paint_start;
  gboolean measuring;
  SegueGtkStack *segue;   /* NULL while measuring GtkStack */
  GtkWidget *window;
  GtkWidget *counter;
  guint count;
  GMainLoop *loop;
  guint64 bytes_copied;
} Bench;

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
percentile (GArray *values, double q)
{
  if (values->len == 0)
    return 0;
  g_array_sort (values, compare_doubles);
  return g_array_index (values, double, MIN (values->len - 1, (guint) (q * values->len)));
}

static void
before_paint (GdkFrameClock *clock, Bench *b)
{
  (void) clock;
  b->paint_start = g_get_monotonic_time ();
}

static void
after_paint (GdkFrameClock *clock, Bench *b)
{
  gint64 now = g_get_monotonic_time ();
  double paint = (now - b->paint_start) / 1000.0;

  (void) clock;
  if (!b->measuring)
    return;
  if (b->last_frame != 0)
    {
      double interval = (now - b->last_frame) / 1000.0;
      g_array_append_val (b->values[PART_INTERVAL], interval);
    }
  b->last_frame = now;
  g_array_append_val (b->values[PART_PAINT], paint);
  if (b->segue != NULL && segue_gtk_stack_get_transition_running (b->segue))
    {
      SegueGtkFrameTimings t;
      double gtk_render;

      segue_gtk_stack_get_frame_timings (b->segue, &t);
      g_array_append_val (b->values[PART_SNAPSHOT], t.snapshot_ms);
      g_array_append_val (b->values[PART_RENDER], t.render_ms);
      g_array_append_val (b->values[PART_DOWNLOAD], t.download_ms);
      g_array_append_val (b->values[PART_SWIZZLE], t.swizzle_ms);
      g_array_append_val (b->values[PART_SEGUE], t.segue_ms);
      g_array_append_val (b->values[PART_TEXTURE], t.texture_ms);
      g_array_append_val (b->values[PART_TOTAL], t.total_ms);
      gtk_render = paint - t.total_ms;
      g_array_append_val (b->values[PART_GTK_RENDER], gtk_render);
      b->bytes_copied = t.bytes_copied;
    }
}

static gboolean
tick_counter (gpointer data)
{
  Bench *b = data;
  char text[32];

  g_snprintf (text, sizeof text, "%u", ++b->count);
  gtk_label_set_text (GTK_LABEL (b->counter), text);
  return G_SOURCE_CONTINUE;
}

/* Two pages that keep changing: a counter and a spinner over a colour, and a picture-like grid. */
static GtkWidget *
page (Bench *b, int index)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  gtk_widget_add_css_class (box, index == 0 ? "first" : "second");
  gtk_widget_set_valign (box, GTK_ALIGN_FILL);
  if (index == 0)
    {
      GtkWidget *spinner = gtk_spinner_new ();
      b->counter = gtk_label_new ("0");
      gtk_widget_set_vexpand (b->counter, TRUE);
      gtk_box_append (GTK_BOX (box), b->counter);
      gtk_spinner_start (GTK_SPINNER (spinner));
      gtk_widget_set_size_request (spinner, 64, 64);
      gtk_box_append (GTK_BOX (box), spinner);
    }
  else
    {
      for (int i = 0; i < 12; i++)
        {
          char text[32];
          g_snprintf (text, sizeof text, "Row %d", i + 1);
          gtk_box_append (GTK_BOX (box), gtk_label_new (text));
        }
    }
  return box;
}

static gboolean
stop (gpointer data)
{
  Bench *b = data;

  b->measuring = FALSE;
  g_main_loop_quit (b->loop);
  return G_SOURCE_REMOVE;
}

static void
run (Bench *b, const char *name, GtkWidget *stack, double seconds, int width, int height)
{
  for (int i = 0; i < N_PARTS; i++)
    g_array_set_size (b->values[i], 0);
  gtk_window_set_child (GTK_WINDOW (b->window), stack);
  /* Let it settle, switch, measure the transition. */
  g_timeout_add (500, stop, b);
  g_main_loop_run (b->loop);
  b->last_frame = 0;
  b->measuring = TRUE;
  if (b->segue != NULL)
    segue_gtk_stack_push (b->segue, "second");
  else
    gtk_stack_set_visible_child_name (GTK_STACK (stack), "second");
  g_timeout_add ((guint) (seconds * 1000 * 0.95), stop, b);
  g_main_loop_run (b->loop);

  printf ("%s %dx%d frames %u\n", name, width, height, b->values[PART_INTERVAL]->len + 1);
  for (int i = 0; i < N_PARTS; i++)
    if (b->values[i]->len > 0)
      printf ("%s %dx%d %s %.2f %.2f %.2f\n", name, width, height, part_names[i],
              percentile (b->values[i], 0.5), percentile (b->values[i], 0.9), percentile (b->values[i], 0.99));
  if (b->segue != NULL)
    printf ("%s %dx%d bytes-copied %" G_GUINT64_FORMAT "\n", name, width, height, b->bytes_copied);
  fflush (stdout);
}

int
main (int argc, char **argv)
{
  Bench b = { 0 };
  int width = 800, height = 600;
  double seconds = 3;
  const char *effect = "fade";
  GtkCssProvider *css;
  GtkWidget *stack;
  GError *error = NULL;

  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (strcmp (argv[i], "--width") == 0)
        width = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--height") == 0)
        height = atoi (argv[i + 1]);
      else if (strcmp (argv[i], "--effect") == 0)
        effect = argv[i + 1];
      else if (strcmp (argv[i], "--seconds") == 0)
        seconds = g_ascii_strtod (argv[i + 1], NULL);
    }

  gtk_init ();
  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (css, ".first { background: #204a87; color: white; font-size: 64px; }"
                                        ".second { background: #f6f5f4; }", -1);
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  for (int i = 0; i < N_PARTS; i++)
    b.values[i] = g_array_new (FALSE, FALSE, sizeof (double));
  b.loop = g_main_loop_new (NULL, FALSE);
  b.window = gtk_window_new ();
  gtk_window_set_decorated (GTK_WINDOW (b.window), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (b.window), width, height);
  gtk_window_set_resizable (GTK_WINDOW (b.window), FALSE);
  gtk_window_present (GTK_WINDOW (b.window));
  g_signal_connect (gtk_widget_get_frame_clock (b.window), "before-paint", G_CALLBACK (before_paint), &b);
  g_signal_connect (gtk_widget_get_frame_clock (b.window), "after-paint", G_CALLBACK (after_paint), &b);
  g_timeout_add (50, tick_counter, &b);

  /* SegueGtkStack with the effect, lasting `seconds`. */
  stack = segue_gtk_stack_new ();
  gtk_widget_set_size_request (stack, width, height);
  b.segue = SEGUE_GTK_STACK (stack);
  if (!segue_gtk_stack_set_effect (b.segue, effect, &error))
    {
      fprintf (stderr, "error: %s\n", error->message);
      return 1;
    }
  segue_gtk_stack_set_duration (b.segue, seconds);
  segue_gtk_stack_add_named (b.segue, page (&b, 0), "first");
  segue_gtk_stack_add_named (b.segue, page (&b, 1), "second");
  run (&b, "segue", stack, seconds, width, height);

  /* GtkStack's crossfade, the same pages, the same duration. */
  stack = gtk_stack_new ();
  gtk_widget_set_size_request (stack, width, height);
  b.segue = NULL;
  gtk_stack_set_transition_type (GTK_STACK (stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE);
  gtk_stack_set_transition_duration (GTK_STACK (stack), (guint) (seconds * 1000));
  gtk_stack_add_named (GTK_STACK (stack), page (&b, 0), "first");
  gtk_stack_add_named (GTK_STACK (stack), page (&b, 1), "second");
  run (&b, "gtkstack", stack, seconds, width, height);

  printf ("renderer %s\n", G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (b.window))));
  gtk_window_destroy (GTK_WINDOW (b.window));
  return 0;
}
