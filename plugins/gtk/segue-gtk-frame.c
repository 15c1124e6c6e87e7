/* segue-gtk-frame.c — drawing a frame of a transition: both pages snapshotted and drawn with cairo
 * into the stack's buffers (a page that did not change is not drawn again), the effect rendered by
 * libsegue, the result appended as a texture; every copy is accounted for in SegueGtkFrameTimings
 * (Docs/Gtk.md, "A frame of a transition, and every copy"). */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

#include <string.h>

/* MARK: - Drawing a transition frame */

static double
ms_since (gint64 start)
{
  return (double) (g_get_monotonic_time () - start) / 1000.0;
}

/* Premultiplied BGRA (GDK's download format) to straight RGBA (Segue's), in place. Opaque pixels
 * only swap; others are unpremultiplied rounding to nearest, which Segue's premultiplication undoes. */
static void
bgra_premultiplied_to_rgba (guint8 *pixels,
                            gsize   count)
{
  for (gsize i = 0; i < count; i++, pixels += 4)
    {
      guint8 b = pixels[0], g = pixels[1], r = pixels[2], a = pixels[3];
      if (a == 255)
        {
          pixels[0] = r;
          pixels[2] = b;
        }
      else if (a == 0)
        {
          pixels[0] = pixels[1] = pixels[2] = 0;
        }
      else
        {
          pixels[0] = (guint8) MIN (255u, (r * 255u + a / 2u) / a);
          pixels[1] = (guint8) MIN (255u, (g * 255u + a / 2u) / a);
          pixels[2] = (guint8) MIN (255u, (b * 255u + a / 2u) / a);
        }
    }
}

/* Straight RGBA (Segue's) to premultiplied BGRA (GDK_MEMORY_DEFAULT, cairo's and GTK's own format on
 * little-endian machines), in place, rounding to nearest: GTK then shows the texture without a
 * conversion of its own (GTK 4.8 converts other formats through floats, several times slower). */
static void
rgba_to_bgra_premultiplied (guint8 *pixels,
                            gsize   count)
{
  for (gsize i = 0; i < count; i++, pixels += 4)
    {
      guint8 r = pixels[0], g = pixels[1], b = pixels[2], a = pixels[3];
      if (a == 255)
        {
          pixels[0] = b;
          pixels[2] = r;
        }
      else
        {
          pixels[0] = (guint8) ((b * a + 127u) / 255u);
          pixels[1] = (guint8) ((g * a + 127u) / 255u);
          pixels[2] = (guint8) ((r * a + 127u) / 255u);
        }
    }
}

/* Forgets the pages drawn into the frame buffers (the next frame draws both). */
void
frame_cache_clear (SegueGtkStack *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->captured); i++)
    g_clear_pointer (&self->captured[i], gsk_render_node_unref);
}

/* Draws `page` as it is now into `pixels`, frame buffer `slot` (width × height RGBA, straight
 * alpha). The page's render node is drawn with cairo straight into the buffer (premultiplied
 * BGRA, cairo's ARGB32 on little-endian machines), then converted in place: no renderer, no
 * texture and no download. Render nodes are immutable and a widget that did not change gives the
 * same node again (GTK keeps a widget's node until it is queued for drawing), so a page whose
 * node is the one already in its buffer is not drawn again: a still page costs nothing, a live
 * one is drawn every frame. */
static void
capture_page (SegueGtkStack *self,
              Page          *page,
              guint          slot,
              int            scale,
              guint          width,
              guint          height,
              guint8        *pixels)
{
  gsize stride = (gsize) width * 4;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 t0;

  t0 = g_get_monotonic_time ();
  gtk_widget_snapshot_child (GTK_WIDGET (self), page->widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  self->timings.snapshot_ms += ms_since (t0);
  if (node != NULL && node == self->captured[slot])
    {
      gsk_render_node_unref (node);
      return;
    }
  g_clear_pointer (&self->captured[slot], gsk_render_node_unref);

  t0 = g_get_monotonic_time ();
  memset (pixels, 0, stride * height);
  if (node == NULL)
    {
      self->timings.render_ms += ms_since (t0);
      return;
    }
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, (int) width, (int) height, (int) stride);
  cr = cairo_create (surface);
  if (scale != 1)
    cairo_scale (cr, scale, scale);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  cairo_surface_destroy (surface);
  self->timings.render_ms += ms_since (t0);

  t0 = g_get_monotonic_time ();
  bgra_premultiplied_to_rgba (pixels, (gsize) width * height);
  self->timings.swizzle_ms += ms_since (t0);
  self->captured[slot] = node;
}

/* Draws the current transition frame into `snapshot`. Returns FALSE (with `error`) when it
 * cannot: the caller then ends the transition. */
static gboolean
snapshot_transition (SegueGtkStack *self,
                     GtkSnapshot   *snapshot,
                     GError       **error)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  GskRenderer *renderer = native != NULL ? gtk_native_get_renderer (native) : NULL;
  guint width, height;
  gsize stride, size;
  guint8 *out;
  Page *first, *second;
  segue_transition *transition;
  double p = self->progress, time, rendered;
  segue_error *serr = NULL;
  GBytes *bytes;
  GdkTexture *texture;
  gint64 frame_start = g_get_monotonic_time (), t0;
  SegueGtkFrameTimings *timings = &self->timings;

  if (renderer == NULL || w <= 0 || h <= 0)
    {
      g_set_error_literal (error, SEGUE_GTK_ERROR, SEGUE_GTK_ERROR_INVALID_ARGUMENT, "the stack is not on screen");
      return FALSE;
    }
  if (w > SEGUE_MAX_SIDE / scale || h > SEGUE_MAX_SIDE / scale
      || (guint64) w * scale * h * scale > SEGUE_MAX_PIXELS)
    {
      g_set_error (error, SEGUE_GTK_ERROR, SEGUE_GTK_ERROR_INVALID_ARGUMENT,
                   "a %d×%d stack is larger than Segue renders", w * scale, h * scale);
      return FALSE;
    }
  width = (guint) (w * scale);
  height = (guint) (h * scale);
  stride = (gsize) width * 4;
  size = stride * height;
  if (self->pixels_size != size)
    {
      g_free (self->from_pixels);
      g_free (self->to_pixels);
      self->from_pixels = g_malloc (size);
      self->to_pixels = g_malloc (size);
      self->pixels_size = size;
    }
  if (self->captured_width != width || self->captured_height != height || self->captured_scale != scale)
    {
      frame_cache_clear (self);
      self->captured_width = width;
      self->captured_height = height;
      self->captured_scale = scale;
    }

  /* What the effect draws: a pop with its own reverse effect draws it from the upper page to the
   * lower one; other pops draw the effect backwards. */
  time = self->interaction != NULL ? p * self->total : MIN (MAX (now_seconds () - self->start, 0), self->total);
  if (self->kind == MOTION_POP && self->reverse == NULL)
    {
      first = self->to;
      second = self->from;
      rendered = 1 - p;
      time = MAX (self->total - time, 0);
      transition = self->forward->transition;
    }
  else
    {
      first = self->from;
      second = self->to;
      rendered = p;
      transition = (self->reverse != NULL ? self->reverse : self->forward)->transition;
    }

  timings->snapshot_ms = timings->render_ms = timings->download_ms = timings->swizzle_ms = 0;
  timings->bytes_copied = 0;
  capture_page (self, first, 0, scale, width, height, self->from_pixels);
  capture_page (self, second, 1, scale, width, height, self->to_pixels);

  t0 = g_get_monotonic_time ();
  out = g_malloc (size);
  if (segue_transition_render (transition, self->from_pixels, self->to_pixels, width, height, stride,
                               rendered, time, out, &serr) != 0)
    {
      g_free (out);
      propagate_segue_error (error, serr, "the transition did not render");
      return FALSE;
    }
  timings->segue_ms = ms_since (t0);
  timings->bytes_copied += 3 * size;  /* both pages in, the frame out */

  t0 = g_get_monotonic_time ();
  rgba_to_bgra_premultiplied (out, (gsize) width * height);
  timings->swizzle_ms += ms_since (t0);

  t0 = g_get_monotonic_time ();
  bytes = g_bytes_new_take (out, size);
  texture = gdk_memory_texture_new ((int) width, (int) height, GDK_MEMORY_DEFAULT, bytes, stride);
  g_bytes_unref (bytes);
  gtk_snapshot_append_texture (snapshot, texture, &GRAPHENE_RECT_INIT (0, 0, w, h));
  g_object_unref (texture);
  timings->texture_ms = ms_since (t0);

  timings->frames++;
  timings->width = width;
  timings->height = height;
  timings->total_ms = ms_since (frame_start);
  return TRUE;
}

/* A transition that cannot draw ends at once (later, outside the snapshot): only if the one
 * running still is a failed one (a navigation in between may have started a new, healthy one). */
static gboolean
end_failed_transition (gpointer data)
{
  SegueGtkStack *self = data;

  if (self->running && self->failed_warned)
    end_transition (self, transition_headed_to_end (self), TRUE);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

void
stack_snapshot (GtkWidget   *widget,
                GtkSnapshot *snapshot)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  if (self->running && !self->failed_warned)
    {
      g_autoptr (GError) error = NULL;

      if (snapshot_transition (self, snapshot, &error))
        return;
      g_warning ("SegueGtkStack: %s; switching pages without the transition", error->message);
      self->failed_warned = TRUE;
      g_idle_add_full (G_PRIORITY_HIGH, end_failed_transition, g_object_ref (self), NULL);
    }
  if (self->running && self->failed_warned)
    {
      /* Until the failed transition has ended: its destination. */
      Page *page = transition_headed_to_end (self) ? self->to : self->from;
      gtk_widget_snapshot_child (widget, page->widget, snapshot);
      return;
    }
  if (self->visible != NULL)
    gtk_widget_snapshot_child (widget, self->visible->widget, snapshot);
}

/* MARK: - Public API */

/**
 * segue_gtk_stack_get_frame_timings:
 * @stack: a #SegueGtkStack
 * @timings: (out caller-allocates): where to write them
 *
 * Where the last transition frame's time went, and the bytes it copied (see
 * #SegueGtkFrameTimings).
 */
void
segue_gtk_stack_get_frame_timings (SegueGtkStack        *stack,
                                   SegueGtkFrameTimings *timings)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  g_return_if_fail (timings != NULL);
  *timings = stack->timings;
}
