/* navigation.c — a GTK 4 app that navigates between its own live pages with Segue transitions
 * (libsegue-gtk). Three pages: a live clock with a spinner, a scrolling list and an image; each
 * button pushes its page with another effect (doom-melt, cube, a gl-transitions .glsl file, a
 * SwiftUI stitchable .metal function). Back pops, playing the effect backwards; so does a drag from
 * the left edge. navigation.py is the same app in Python.
 *
 *   cc navigation.c $(pkg-config --cflags --libs segue-gtk) -o navigation && ./navigation [DIR]
 *
 * DIR holds circle-reveal.glsl, slide-up.metal and landscape.jpg (default: this file's directory
 * as the build gave it, else the current directory).
 */
#include <segue-gtk.h>
#include <string.h>

#ifndef EXAMPLE_DIR
#define EXAMPLE_DIR "."
#endif

static const char *directory = EXAMPLE_DIR;
static SegueGtkStack *stack;
static GtkWidget *clock_label;

/* MARK: - Pages */

static void
on_back (GtkButton *button,
         gpointer   data)
{
  (void) button;
  (void) data;
  segue_gtk_stack_pop (stack);
}

/* A page: a header (Back unless it is the root, and a title) over its content, on the window's
 * background colour: the effects show pages, not what is behind them. */
static GtkWidget *
page_new (const char *title,
          GtkWidget  *content,
          gboolean    back)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (title);

  gtk_widget_add_css_class (box, "page");
  gtk_widget_set_margin_top (header, 12);
  gtk_widget_set_margin_start (header, 12);
  if (back)
    {
      GtkWidget *button = gtk_button_new_with_label ("Back");
      g_signal_connect (button, "clicked", G_CALLBACK (on_back), NULL);
      gtk_box_append (GTK_BOX (header), button);
    }
  gtk_widget_add_css_class (label, "title");
  gtk_box_append (GTK_BOX (header), label);
  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_vexpand (content, TRUE);
  gtk_box_append (GTK_BOX (box), content);
  return box;
}

static gboolean
tick_clock (gpointer data)
{
  GDateTime *now = g_date_time_new_now_local ();
  char *text = g_strdup_printf ("%02d:%02d:%02d.%d", g_date_time_get_hour (now), g_date_time_get_minute (now),
                                g_date_time_get_second (now), g_date_time_get_microsecond (now) / 100000);

  (void) data;
  gtk_label_set_text (GTK_LABEL (clock_label), text);
  g_free (text);
  g_date_time_unref (now);
  return G_SOURCE_CONTINUE;
}

static GtkWidget *
clock_page (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  GtkWidget *spinner = gtk_spinner_new ();

  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  clock_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (clock_label, "clock");
  gtk_box_append (GTK_BOX (box), clock_label);
  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_widget_set_size_request (spinner, 64, 64);
  gtk_box_append (GTK_BOX (box), spinner);
  tick_clock (NULL);
  g_timeout_add (50, tick_clock, NULL);
  return page_new ("A live clock", box, TRUE);
}

static GtkWidget *
list_page (void)
{
  GtkWidget *rows = gtk_list_box_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  for (int i = 1; i <= 200; i++)
    {
      char text[32];
      GtkWidget *row;

      g_snprintf (text, sizeof text, "Row %d", i);
      row = gtk_label_new (text);
      gtk_label_set_xalign (GTK_LABEL (row), 0);
      gtk_widget_set_margin_start (row, 12);
      gtk_widget_set_margin_top (row, 6);
      gtk_widget_set_margin_bottom (row, 6);
      gtk_list_box_append (GTK_LIST_BOX (rows), row);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), rows);
  return page_new ("A scrolling list", scrolled, TRUE);
}

static GtkWidget *
image_page (void)
{
  char *path = g_build_filename (directory, "landscape.jpg", NULL);
  GtkWidget *picture = gtk_picture_new_for_filename (path);

  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_COVER);
  g_free (path);
  return page_new ("An image", picture, TRUE);
}

/* MARK: - Navigation */

/* A button's page and effect, kept on the button. */
static void
on_push (GtkButton *button,
         gpointer   data)
{
  const char *page = g_object_get_data (G_OBJECT (button), "page");
  const char *effect = data;
  GError *error = NULL;

  /* A missing or broken effect file: say so, and switch anyway (at worst without the effect). */
  if (!segue_gtk_stack_set_effect (stack, effect, &error))
    {
      g_printerr ("segue: %s\n", error->message);
      g_clear_error (&error);
    }
  segue_gtk_stack_push (stack, page);
}

static void
free_effect (gpointer  data,
             GClosure *closure)
{
  (void) closure;
  g_free (data);
}

static GtkWidget *
home_page (void)
{
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  struct { const char *label, *page, *effect; } items[] = {
    { "Clock — doom-melt", "clock", "doom-melt" },
    { "List — cube", "list", "cube" },
    { "Image — circle-reveal.glsl", "image", "circle-reveal.glsl" },
    { "Image — slide-up.metal", "image", "slide-up.metal:slideUp" },
  };

  gtk_widget_set_valign (buttons, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (buttons, 24);
  gtk_widget_set_margin_end (buttons, 24);
  for (gsize i = 0; i < G_N_ELEMENTS (items); i++)
    {
      GtkWidget *button = gtk_button_new_with_label (items[i].label);
      /* Built-ins by name; files by path in the examples' directory. */
      char *effect = g_str_has_suffix (items[i].effect, ".glsl") || strstr (items[i].effect, ".metal") != NULL
                       ? g_build_filename (directory, items[i].effect, NULL) : g_strdup (items[i].effect);

      g_object_set_data (G_OBJECT (button), "page", (gpointer) items[i].page);
      g_signal_connect_data (button, "clicked", G_CALLBACK (on_push), effect, free_effect, 0);
      gtk_box_append (GTK_BOX (buttons), button);
    }
  gtk_box_append (GTK_BOX (buttons), gtk_label_new ("Drag from the left edge to go back."));
  return page_new ("Segue in a GTK app", buttons, FALSE);
}

static void
activate (GtkApplication *app,
          gpointer        data)
{
  GtkCssProvider *css = gtk_css_provider_new ();
  GtkWidget *window = gtk_application_window_new (app);

  (void) data;
  gtk_css_provider_load_from_data (css,
                                   ".page { background-color: #f6f5f4; }"
                                   ".clock { font-size: 56px; font-feature-settings: \"tnum\"; }"
                                   ".title { font-size: 22px; font-weight: bold; }", -1);
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref (css);

  gtk_window_set_title (GTK_WINDOW (window), "Segue in a GTK app");
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 600);
  stack = SEGUE_GTK_STACK (segue_gtk_stack_new ());
  segue_gtk_stack_add_named (stack, home_page (), "home");
  segue_gtk_stack_add_named (stack, clock_page (), "clock");
  segue_gtk_stack_add_named (stack, list_page (), "list");
  segue_gtk_stack_add_named (stack, image_page (), "image");
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (stack));
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  GtkApplication *app;
  int status;

  if (argc > 1)
    directory = argv[1];
  app = gtk_application_new ("org.segue.GtkNavigationC", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  g_object_unref (app);
  return status;
}
