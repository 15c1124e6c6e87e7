/* segue-gtk-stack.c — SegueGtkStack: a stack of named pages whose switches run Segue effects
 * between the pages' live contents.
 *
 * How a transition frame is made (every tick of the frame clock while one runs; Docs/Gtk.md):
 *   1. both pages are allocated the stack's size and stay mapped, so their own animations, tick
 *      callbacks and redraws go on;
 *   2. in the stack's snapshot each page is snapshotted into a render node of its own
 *      (gtk_widget_snapshot_child into a private GtkSnapshot);
 *   3. each node is rendered into a texture by the window's GskRenderer
 *      (gsk_renderer_render_texture) and downloaded (gdk_texture_download: premultiplied BGRA);
 *   4. both are converted in place to Segue's RGBA (straight alpha) and rendered through
 *      segue_transition_render (libsegue: upload, the effect on the GPU, readback);
 *   5. the result is wrapped, without a copy, as a GdkMemoryTexture and appended to the snapshot.
 *
 * Timing and interactive completion are libsegue's (segue_transition_progress_at,
 * segue_interaction_*), the same code as `segue navigate`; so is the rule for pops: a pop plays
 * the effect backwards (from the lower page to the upper, progress 1 − p, time duration − t)
 * unless the effect has its own reverse (segue_info_reverse: ios-push pops with ios-pop, from the
 * upper page to the lower at progress p). The edge swipe follows UIKit's: a drag starting within
 * 20 px of the left edge pops, with the finger's travel over the width as the fraction.
 */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk.h"

#include <math.h>
#include <segue.h>
#include <string.h>

/* Pixels from the left edge within which a drag pops interactively (UIKit's 20 points). */
#define EDGE_WIDTH 20.0

/* MARK: - Errors */

G_DEFINE_QUARK (segue-gtk-error-quark, segue_gtk_error)

/* Moves a libsegue error into a GError of SEGUE_GTK_ERROR with the same message and code. */
static void
propagate_segue_error (GError     **error,
                       segue_error *serr,
                       const char  *fallback)
{
  int code = serr != NULL ? (int) segue_error_code (serr) : SEGUE_GTK_ERROR_INTERNAL;
  const char *message = serr != NULL ? segue_error_message (serr) : "";

  if (code <= 0 || code > SEGUE_GTK_ERROR_INTERNAL)
    code = SEGUE_GTK_ERROR_INTERNAL;
  g_set_error_literal (error, SEGUE_GTK_ERROR, code, message[0] != '\0' ? message : fallback);
  segue_error_free (serr);
}

/* MARK: - The shared GPU context */

/* One context a process, opened on first use: opening a Vulkan device is slow, and every stack
 * of every window renders through it (libsegue serialises submissions inside). */
static GMutex context_lock;
static segue_context *shared_context;
static GError *shared_context_error;

static segue_context *
shared_context_get (GError **error)
{
  segue_context *context;

  g_mutex_lock (&context_lock);
  if (shared_context == NULL && shared_context_error == NULL)
    {
      segue_error *serr = NULL;
      char *cache = g_build_filename (g_get_user_cache_dir (), "segue", "spirv", NULL);

      shared_context = segue_context_create_cached (NULL, cache, &serr);
      if (shared_context == NULL)
        propagate_segue_error (&shared_context_error, serr, "no Vulkan device");
      g_free (cache);
    }
  context = shared_context;
  if (context == NULL)
    g_propagate_error (error, g_error_copy (shared_context_error));
  g_mutex_unlock (&context_lock);
  return context;
}

/* MARK: - Effects */

/* A transition of one effect, made once per stack and kept while the stack lives. */
typedef struct {
  char *name;
  segue_transition *transition;
  char *reverse;          /* the effect's own reverse ("ios-pop"), or NULL */
  gboolean duration_set;  /* whether segue_transition_set_duration was called on it */
  GPtrArray *params;      /* names and values set, alternating, to set again on a new transition */
} Effect;

static void
effect_free (gpointer data)
{
  Effect *effect = data;

  segue_transition_destroy (effect->transition);
  g_free (effect->name);
  g_free (effect->reverse);
  g_ptr_array_unref (effect->params);
  g_free (effect);
}

/* MARK: - The widget */

typedef struct {
  GtkWidget *widget;
  char *name;
} Page;

typedef enum {
  MOTION_SWITCH,  /* the top of the back stack replaced (visible-child-name) */
  MOTION_PUSH,
  MOTION_POP
} MotionKind;

struct _SegueGtkStack
{
  GtkWidget parent_instance;

  GPtrArray *pages;        /* Page *, in the order they were added */
  GPtrArray *back_stack;   /* Page * (borrowed from pages), bottom first */
  Page *visible;

  char *effect;
  double duration;         /* seconds; 0 = the effect's own */
  char *timing;            /* NULL = the effect's own */
  gboolean swipe_back;
  GHashTable *effects;     /* effect string → Effect * */

  /* The transition, while one runs. */
  gboolean running;
  MotionKind kind;
  Page *from;              /* where the navigation starts */
  Page *to;                /* where it goes */
  Effect *forward;         /* the effect whose timing drives it */
  Effect *reverse;         /* its own reverse, for pops that have one; else NULL */
  double total;            /* seconds */
  double start;            /* monotonic seconds */
  double progress;         /* navigation progress (0 at `from`, 1 at `to`) */
  guint tick_id;
  segue_interaction *interaction;  /* NULL unless interactive */
  int completion;          /* -1 following the caller, 0 headed back to `from`, 1 to `to` */
  gboolean failed_warned;

  /* The edge swipe. */
  GtkGesture *swipe;
  gboolean swiping;
  double swipe_origin;     /* x where the finger would be at fraction 0 */
  double swipe_start_x;

  /* Frame buffers (reused) and timings. */
  guint8 *from_pixels;
  guint8 *to_pixels;
  gsize pixels_size;
  SegueGtkFrameTimings timings;
};

enum {
  PROP_0,
  PROP_VISIBLE_CHILD,
  PROP_VISIBLE_CHILD_NAME,
  PROP_EFFECT,
  PROP_DURATION,
  PROP_TIMING,
  PROP_TRANSITION_RUNNING,
  PROP_PROGRESS,
  PROP_DEPTH,
  PROP_SWIPE_BACK,
  N_PROPS
};

enum {
  TRANSITION_DONE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SegueGtkStack, segue_gtk_stack, GTK_TYPE_WIDGET)

static double
now_seconds (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

static Page *
find_page_by_name (SegueGtkStack *self,
                   const char    *name)
{
  if (name == NULL)
    return NULL;
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      if (g_strcmp0 (page->name, name) == 0)
        return page;
    }
  return NULL;
}

static Page *
find_page_by_widget (SegueGtkStack *self,
                     GtkWidget     *child)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      if (page->widget == child)
        return page;
    }
  return NULL;
}

static Page *
back_stack_top (SegueGtkStack *self)
{
  return self->back_stack->len > 0 ? g_ptr_array_index (self->back_stack, self->back_stack->len - 1) : NULL;
}

/* Which pages are drawn: the visible one, and during a transition both of its pages. */
static void
update_child_visibility (SegueGtkStack *self)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      gboolean shown = page == self->visible || (self->running && (page == self->from || page == self->to));
      gtk_widget_set_child_visible (page->widget, shown);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Makes `page` the visible one at rest, notifying what changed. */
static void
set_visible_page (SegueGtkStack *self,
                  Page          *page)
{
  if (self->visible == page)
    return;
  self->visible = page;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_CHILD]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_CHILD_NAME]);
}

static void
set_progress (SegueGtkStack *self,
              double         progress)
{
  if (self->progress == progress)
    return;
  self->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

/* MARK: - Effects and timing */

/* The stack's Effect for `name`, made (and its shader compiled) on first use. */
static Effect *
effect_get (SegueGtkStack *self,
            const char    *name,
            GError       **error)
{
  Effect *effect = g_hash_table_lookup (self->effects, name);
  segue_context *context;
  segue_error *serr = NULL;
  segue_info *info;
  segue_transition *transition;
  guint8 probe[4 * 4 * 4] = { 0 };

  if (effect != NULL)
    return effect;

  info = segue_info_create (name, &serr);
  if (info == NULL)
    {
      propagate_segue_error (error, serr, "unknown effect");
      return NULL;
    }
  if (segue_info_kind (info) == SEGUE_KIND_SINGLE_IMAGE)
    {
      g_set_error (error, SEGUE_GTK_ERROR, SEGUE_GTK_ERROR_UNSUPPORTED,
                   "'%s' is an effect on one image, not a transition between two pages", name);
      segue_info_destroy (info);
      return NULL;
    }

  context = shared_context_get (error);
  if (context == NULL)
    {
      segue_info_destroy (info);
      return NULL;
    }
  transition = segue_transition_create (context, name, &serr);
  if (transition == NULL)
    {
      propagate_segue_error (error, serr, "cannot make the transition");
      segue_info_destroy (info);
      return NULL;
    }
  /* A shader that parses but does not compile is reported by its first render: render a tiny
   * frame now, so that set_effect says so. Other failures (a sampler2D parameter not set yet)
   * are for set_param to mend before the first switch. */
  if (segue_transition_render (transition, probe, probe, 2, 2, 2 * 4, 0.5, 0, probe + 16, &serr) != 0)
    {
      segue_code code = segue_error_code (serr);
      if (code == SEGUE_ERROR_COMPILE || code == SEGUE_ERROR_BAD_EFFECT_FILE || code == SEGUE_ERROR_UNSUPPORTED)
        {
          propagate_segue_error (error, serr, "the effect does not render");
          segue_transition_destroy (transition);
          segue_info_destroy (info);
          return NULL;
        }
      segue_error_free (serr);
      serr = NULL;
    }

  effect = g_new0 (Effect, 1);
  effect->name = g_strdup (name);
  effect->params = g_ptr_array_new_with_free_func (g_free);
  effect->transition = transition;
  effect->reverse = segue_info_reverse (info)[0] != '\0' ? g_strdup (segue_info_reverse (info)) : NULL;
  segue_info_destroy (info);
  g_hash_table_insert (self->effects, g_strdup (name), effect);
  return effect;
}

/* Gives `effect` the stack's duration and timing. Without a duration of the stack's, the effect's
 * own: a spring timing then lasts its settling time, which only a transition whose duration was
 * never set does (libsegue), so one that had a duration is made anew, with its parameters. */
static gboolean
effect_apply_timing (SegueGtkStack *self,
                     Effect        *effect,
                     const char    *timing,
                     GError       **error)
{
  segue_error *serr = NULL;

  if (self->duration > 0)
    {
      if (segue_transition_set_duration (effect->transition, self->duration, &serr) != 0)
        goto failed;
      effect->duration_set = TRUE;
    }
  else if (effect->duration_set)
    {
      segue_context *context = shared_context_get (error);
      segue_transition *fresh;

      if (context == NULL)
        return FALSE;
      fresh = segue_transition_create (context, effect->name, &serr);
      if (fresh == NULL)
        goto failed;
      for (guint i = 0; i + 1 < effect->params->len; i += 2)
        segue_transition_set_param (fresh, g_ptr_array_index (effect->params, i),
                                    g_ptr_array_index (effect->params, i + 1), NULL);
      segue_transition_destroy (effect->transition);
      effect->transition = fresh;
      effect->duration_set = FALSE;
    }
  if (segue_transition_set_timing (effect->transition, timing, &serr) != 0)
    goto failed;
  return TRUE;

failed:
  propagate_segue_error (error, serr, "cannot set the timing");
  return FALSE;
}

/* MARK: - Transitions */

static gboolean tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data);

/* Ends the transition now: at `to` when `finished`, else back at `from`; updates the back stack
 * and emits transition-done when `emit`. */
static void
end_transition (SegueGtkStack *self,
                gboolean       finished,
                gboolean       emit)
{
  Page *destination;

  if (!self->running)
    return;
  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  g_clear_pointer (&self->interaction, segue_interaction_destroy);
  if (self->swiping && self->swipe != NULL)
    {
      self->swiping = FALSE;
      gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->swipe));
    }

  destination = finished ? self->to : self->from;
  if (finished)
    {
      switch (self->kind)
        {
        case MOTION_PUSH:
          g_ptr_array_add (self->back_stack, self->to);
          break;
        case MOTION_POP:
          if (self->back_stack->len > 1)
            g_ptr_array_remove_index (self->back_stack, self->back_stack->len - 1);
          break;
        case MOTION_SWITCH:
          if (self->back_stack->len > 0)
            g_ptr_array_index (self->back_stack, self->back_stack->len - 1) = self->to;
          else
            g_ptr_array_add (self->back_stack, self->to);
          break;
        }
    }
  self->running = FALSE;
  self->from = self->to = NULL;
  self->forward = self->reverse = NULL;
  self->completion = -1;

  g_object_freeze_notify (G_OBJECT (self));
  set_visible_page (self, destination);
  update_child_visibility (self);
  set_progress (self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSITION_RUNNING]);
  if (finished && self->kind != MOTION_SWITCH)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DEPTH]);
  g_object_thaw_notify (G_OBJECT (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (emit)
    g_signal_emit (self, signals[TRANSITION_DONE], 0, finished);
}

/* Where an unfinished transition was going: running on its own or released, its end; following a
 * caller or a finger, back to its start. */
static gboolean
transition_headed_to_end (SegueGtkStack *self)
{
  return self->interaction == NULL || self->completion == 1;
}

/* Navigates without an animation (a transition that cannot run: at worst a switch is immediate). */
static void
switch_now (SegueGtkStack *self,
            Page          *to,
            MotionKind     kind)
{
  self->running = TRUE;
  self->kind = kind;
  self->from = self->visible;
  self->to = to;
  end_transition (self, TRUE, TRUE);
}

/* Starts a transition to `to` (interactive: paused at 0 for the caller or a finger), or switches
 * at once when it cannot run. Returns whether a transition runs. */
static gboolean
start_transition (SegueGtkStack *self,
                  Page          *to,
                  MotionKind     kind,
                  gboolean       interactive)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GError) error = NULL;
  Effect *forward, *reverse = NULL;

  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
  if (to == self->visible)
    return FALSE;

  if (self->visible == NULL || !gtk_widget_get_mapped (widget)
      || gtk_widget_get_width (widget) <= 0 || gtk_widget_get_height (widget) <= 0)
    {
      if (!interactive)
        switch_now (self, to, kind);
      return FALSE;
    }

  forward = effect_get (self, self->effect, &error);
  if (forward != NULL && !effect_apply_timing (self, forward, self->timing, &error))
    forward = NULL;
  if (forward != NULL && kind == MOTION_POP && forward->reverse != NULL)
    {
      reverse = effect_get (self, forward->reverse, &error);
      if (reverse == NULL || !effect_apply_timing (self, reverse, self->timing, &error))
        forward = NULL;
    }
  if (forward == NULL)
    {
      g_warning ("SegueGtkStack: %s; switching pages without a transition", error->message);
      if (!interactive)
        switch_now (self, to, kind);
      return FALSE;
    }
  if (interactive)
    {
      segue_error *serr = NULL;
      self->interaction = segue_interaction_create (segue_transition_duration (forward->transition), &serr);
      if (self->interaction == NULL)
        {
          g_warning ("SegueGtkStack: %s", segue_error_message (serr));
          segue_error_free (serr);
          return FALSE;
        }
    }

  self->running = TRUE;
  self->kind = kind;
  self->from = self->visible;
  self->to = to;
  self->forward = forward;
  self->reverse = reverse;
  self->total = segue_transition_duration (forward->transition);
  self->start = now_seconds ();
  self->completion = -1;
  self->failed_warned = FALSE;
  self->timings = (SegueGtkFrameTimings) { 0 };
  self->progress = 0;
  self->tick_id = gtk_widget_add_tick_callback (widget, tick_cb, NULL, NULL);

  g_object_freeze_notify (G_OBJECT (self));
  update_child_visibility (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSITION_RUNNING]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
  g_object_thaw_notify (G_OBJECT (self));
  gtk_widget_queue_draw (widget);
  return TRUE;
}

/* Advances the transition to `now`; ends it when its time is up or its completion has settled. */
static void
advance (SegueGtkStack *self,
         double         now)
{
  if (!self->running)
    return;
  if (self->interaction != NULL)
    {
      int result = segue_interaction_result (self->interaction, now);
      if (result >= 0)
        {
          end_transition (self, result == 1, TRUE);
          return;
        }
      set_progress (self, segue_interaction_progress (self->interaction, now));
    }
  else
    {
      double elapsed = now - self->start;
      if (elapsed >= self->total)
        {
          end_transition (self, TRUE, TRUE);
          return;
        }
      set_progress (self, segue_transition_progress_at (self->forward->transition, MAX (elapsed, 0)));
    }
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  (void) clock;
  (void) data;
  advance (self, now_seconds ());
  if (self->running)
    gtk_widget_queue_draw (widget);
  /* end_transition removed this callback when it ended */
  return G_SOURCE_CONTINUE;
}

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

/* Draws `page` as it is now into `pixels` (width × height RGBA, straight alpha). */
static void
capture_page (SegueGtkStack *self,
              Page          *page,
              GskRenderer   *renderer,
              int            scale,
              guint          width,
              guint          height,
              guint8        *pixels)
{
  gsize stride = (gsize) width * 4;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  GdkTexture *texture;
  gint64 t0;

  t0 = g_get_monotonic_time ();
  if (scale != 1)
    gtk_snapshot_scale (snapshot, scale, scale);
  gtk_widget_snapshot_child (GTK_WIDGET (self), page->widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  self->timings.snapshot_ms += ms_since (t0);
  if (node == NULL)
    {
      memset (pixels, 0, stride * height);
      return;
    }

  t0 = g_get_monotonic_time ();
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_render_node_unref (node);
  self->timings.render_ms += ms_since (t0);

  t0 = g_get_monotonic_time ();
  if ((guint) gdk_texture_get_width (texture) == width && (guint) gdk_texture_get_height (texture) == height)
    {
      gdk_texture_download (texture, pixels, stride);
    }
  else
    {
      /* A renderer that rounded the viewport differently: keep the overlap. */
      guint tw = gdk_texture_get_width (texture), th = gdk_texture_get_height (texture);
      guint8 *whole = g_malloc ((gsize) tw * th * 4);
      gdk_texture_download (texture, whole, (gsize) tw * 4);
      memset (pixels, 0, stride * height);
      for (guint y = 0; y < MIN (th, height); y++)
        memcpy (pixels + y * stride, whole + (gsize) y * tw * 4, (gsize) MIN (tw, width) * 4);
      g_free (whole);
    }
  g_object_unref (texture);
  self->timings.download_ms += ms_since (t0);
  self->timings.bytes_copied += stride * height;

  t0 = g_get_monotonic_time ();
  bgra_premultiplied_to_rgba (pixels, (gsize) width * height);
  self->timings.swizzle_ms += ms_since (t0);
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
  capture_page (self, first, renderer, scale, width, height, self->from_pixels);
  capture_page (self, second, renderer, scale, width, height, self->to_pixels);

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

/* A transition that cannot draw ends at once (later, outside the snapshot). */
static gboolean
end_failed_transition (gpointer data)
{
  SegueGtkStack *self = data;

  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
segue_gtk_stack_snapshot (GtkWidget   *widget,
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

/* MARK: - Layout */

static void
segue_gtk_stack_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  *minimum = *natural = 0;
  *minimum_baseline = *natural_baseline = -1;
  /* Homogeneous, as GtkStack's default: the largest page. */
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      int child_min, child_nat;

      if (!gtk_widget_get_visible (page->widget))
        continue;
      gtk_widget_measure (page->widget, orientation, for_size, &child_min, &child_nat, NULL, NULL);
      *minimum = MAX (*minimum, child_min);
      *natural = MAX (*natural, child_nat);
    }
}

static void
segue_gtk_stack_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  /* A resize during a transition keeps it running: the next frame is drawn at the new size. */
  for (guint i = 0; i < self->pages->len; i++)
    {
      Page *page = g_ptr_array_index (self->pages, i);
      if (gtk_widget_get_child_visible (page->widget))
        gtk_widget_allocate (page->widget, width, height, baseline, NULL);
    }
}

/* MARK: - Edge swipe */

static void
swipe_begin (GtkGestureDrag *gesture,
             double          x,
             double          y,
             SegueGtkStack  *self)
{
  double now = now_seconds ();
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  (void) y;
  /* A finger landing while a released swipe completes catches it where it is. */
  if (self->running && self->interaction != NULL && self->completion != -1 && self->kind == MOTION_POP)
    {
      double p = segue_interaction_progress (self->interaction, now);
      segue_interaction_update (self->interaction, p, now);
      self->completion = -1;
      self->swiping = TRUE;
      self->swipe_start_x = x;
      self->swipe_origin = x - p * width;
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
      return;
    }
  if (!self->swipe_back || self->running || x > EDGE_WIDTH || self->back_stack->len < 2 || width <= 0)
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  if (!start_transition (self, g_ptr_array_index (self->back_stack, self->back_stack->len - 2), MOTION_POP, TRUE))
    {
      gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  segue_interaction_update (self->interaction, 0, now);
  self->swiping = TRUE;
  self->swipe_start_x = x;
  self->swipe_origin = x;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

static double
swipe_fraction (SegueGtkStack *self,
                double         offset_x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));

  return width > 0 ? (self->swipe_start_x + offset_x - self->swipe_origin) / width : 0;
}

static void
swipe_update (GtkGestureDrag *gesture,
              double          offset_x,
              double          offset_y,
              SegueGtkStack  *self)
{
  (void) gesture;
  (void) offset_y;
  if (!self->swiping || !self->running || self->interaction == NULL)
    return;
  segue_interaction_update (self->interaction, swipe_fraction (self, offset_x), now_seconds ());
  advance (self, now_seconds ());
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
swipe_end (GtkGestureDrag *gesture,
           double          offset_x,
           double          offset_y,
           SegueGtkStack  *self)
{
  double now = now_seconds ();

  (void) gesture;
  (void) offset_y;
  if (!self->swiping)
    return;
  self->swiping = FALSE;
  if (!self->running || self->interaction == NULL)
    return;
  segue_interaction_update (self->interaction, swipe_fraction (self, offset_x), now);
  self->completion = segue_interaction_release (self->interaction, now);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
swipe_cancel (GtkGesture       *gesture,
              GdkEventSequence *sequence,
              SegueGtkStack    *self)
{
  (void) gesture;
  (void) sequence;
  if (!self->swiping)
    return;
  self->swiping = FALSE;
  if (self->running && self->interaction != NULL && self->completion == -1)
    self->completion = segue_interaction_release (self->interaction, now_seconds ());
}

/* MARK: - GObject and GtkWidget */

static void
segue_gtk_stack_unmap (GtkWidget *widget)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  /* Hidden mid-transition: it ends where it was headed. */
  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
  GTK_WIDGET_CLASS (segue_gtk_stack_parent_class)->unmap (widget);
}

static void
segue_gtk_stack_unrealize (GtkWidget *widget)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
  GTK_WIDGET_CLASS (segue_gtk_stack_parent_class)->unrealize (widget);
}

static void
page_free (Page *page)
{
  g_free (page->name);
  g_free (page);
}

static void
segue_gtk_stack_dispose (GObject *object)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (object);

  if (self->running)
    end_transition (self, transition_headed_to_end (self), FALSE);
  g_ptr_array_set_size (self->back_stack, 0);
  self->visible = NULL;
  while (self->pages->len > 0)
    {
      Page *page = g_ptr_array_steal_index (self->pages, self->pages->len - 1);
      gtk_widget_unparent (page->widget);
      page_free (page);
    }
  G_OBJECT_CLASS (segue_gtk_stack_parent_class)->dispose (object);
}

static void
segue_gtk_stack_finalize (GObject *object)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (object);

  g_ptr_array_unref (self->pages);
  g_ptr_array_unref (self->back_stack);
  g_hash_table_unref (self->effects);
  g_free (self->effect);
  g_free (self->timing);
  g_free (self->from_pixels);
  g_free (self->to_pixels);
  G_OBJECT_CLASS (segue_gtk_stack_parent_class)->finalize (object);
}

static void
segue_gtk_stack_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (object);

  switch (prop_id)
    {
    case PROP_VISIBLE_CHILD:
      g_value_set_object (value, segue_gtk_stack_get_visible_child (self));
      break;
    case PROP_VISIBLE_CHILD_NAME:
      g_value_set_string (value, segue_gtk_stack_get_visible_child_name (self));
      break;
    case PROP_EFFECT:
      g_value_set_string (value, self->effect);
      break;
    case PROP_DURATION:
      g_value_set_double (value, self->duration);
      break;
    case PROP_TIMING:
      g_value_set_string (value, self->timing);
      break;
    case PROP_TRANSITION_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_DEPTH:
      g_value_set_uint (value, self->back_stack->len);
      break;
    case PROP_SWIPE_BACK:
      g_value_set_boolean (value, self->swipe_back);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
segue_gtk_stack_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (object);

  switch (prop_id)
    {
    case PROP_VISIBLE_CHILD_NAME:
      segue_gtk_stack_set_visible_child_name (self, g_value_get_string (value));
      break;
    case PROP_EFFECT:
      {
        g_autoptr (GError) error = NULL;
        if (!segue_gtk_stack_set_effect (self, g_value_get_string (value), &error))
          g_warning ("SegueGtkStack: effect '%s' not used: %s (keeping '%s')",
                     g_value_get_string (value) != NULL ? g_value_get_string (value) : "(null)",
                     error->message, self->effect);
      }
      break;
    case PROP_DURATION:
      segue_gtk_stack_set_duration (self, g_value_get_double (value));
      break;
    case PROP_TIMING:
      {
        g_autoptr (GError) error = NULL;
        if (!segue_gtk_stack_set_timing (self, g_value_get_string (value), &error))
          g_warning ("SegueGtkStack: timing '%s' not used: %s", g_value_get_string (value), error->message);
      }
      break;
    case PROP_SWIPE_BACK:
      segue_gtk_stack_set_swipe_back (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
segue_gtk_stack_class_init (SegueGtkStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = segue_gtk_stack_dispose;
  object_class->finalize = segue_gtk_stack_finalize;
  object_class->get_property = segue_gtk_stack_get_property;
  object_class->set_property = segue_gtk_stack_set_property;

  widget_class->snapshot = segue_gtk_stack_snapshot;
  widget_class->measure = segue_gtk_stack_measure;
  widget_class->size_allocate = segue_gtk_stack_size_allocate;
  widget_class->unmap = segue_gtk_stack_unmap;
  widget_class->unrealize = segue_gtk_stack_unrealize;

  /**
   * SegueGtkStack:visible-child: (getter get_visible_child)
   *
   * The page shown at rest (during a transition: the page it started from).
   */
  properties[PROP_VISIBLE_CHILD] =
    g_param_spec_object ("visible-child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:visible-child-name: (getter get_visible_child_name) (setter set_visible_child_name)
   *
   * The name of the page shown. Setting it switches to that page with the transition, replacing
   * the top of the back stack (push and pop keep the pages below).
   */
  properties[PROP_VISIBLE_CHILD_NAME] =
    g_param_spec_string ("visible-child-name", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:effect: (getter get_effect)
   *
   * The effect of the transitions: a Segue built-in (`fade`, `doom-melt`, `cube`, `ios-push`, …),
   * an ffmpeg xfade name (`wipeleft`, …), a path to a gl-transitions `.glsl` file or a stitchable
   * `FILE.metal:FUNCTION`. Setting the property to an effect that cannot be used logs a warning
   * and keeps the last good effect; segue_gtk_stack_set_effect() says why in a #GError.
   */
  properties[PROP_EFFECT] =
    g_param_spec_string ("effect", NULL, NULL, "ios-push",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:duration: (getter get_duration) (setter set_duration)
   *
   * The transitions' duration in seconds; 0 for the effect's own (ios-push 0.35, doom-melt 2, …).
   */
  properties[PROP_DURATION] =
    g_param_spec_double ("duration", NULL, NULL, 0, 3600, 0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:timing: (getter get_timing)
   *
   * The timing curve of the transitions as Segue writes it: `linear`, `ease-in-out`,
   * `cubic-bezier(x1,y1,x2,y2)`, `spring(response=…,damping-fraction=…)`; %NULL or empty for the
   * effect's own. An invalid value logs a warning and keeps the last good one;
   * segue_gtk_stack_set_timing() says why in a #GError.
   */
  properties[PROP_TIMING] =
    g_param_spec_string ("timing", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:transition-running: (getter get_transition_running)
   *
   * Whether a transition runs or follows a finger (or segue_gtk_stack_update_interactive()).
   */
  properties[PROP_TRANSITION_RUNNING] =
    g_param_spec_boolean ("transition-running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:progress: (getter get_progress)
   *
   * How far the running transition is from the page it started at (0) to the page it goes to (1),
   * after the timing curve (a spring may overshoot); 0 when none runs.
   */
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:depth: (getter get_depth)
   *
   * The number of pages on the back stack (1 at the root; 0 without pages).
   */
  properties[PROP_DEPTH] =
    g_param_spec_uint ("depth", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:swipe-back: (getter get_swipe_back) (setter set_swipe_back)
   *
   * Whether a drag starting within 20 pixels of the left edge pops interactively: released past
   * half way, or flicked, it finishes; otherwise it springs back.
   */
  properties[PROP_SWIPE_BACK] =
    g_param_spec_boolean ("swipe-back", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SegueGtkStack::transition-done:
   * @stack: the stack
   * @finished: %TRUE when the transition reached its destination, %FALSE when it was cancelled
   *   and the page it started from is shown again
   *
   * Emitted when a transition ends (a switch that could not animate ends at once, finished).
   */
  signals[TRANSITION_DONE] =
    g_signal_new ("transition-done", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                  NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_css_name (widget_class, "seguestack");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
segue_gtk_stack_init (SegueGtkStack *self)
{
  self->pages = g_ptr_array_new ();
  self->back_stack = g_ptr_array_new ();
  self->effects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, effect_free);
  self->effect = g_strdup ("ios-push");
  self->swipe_back = TRUE;
  self->completion = -1;
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  self->swipe = gtk_gesture_drag_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (self->swipe), GTK_PHASE_CAPTURE);
  g_signal_connect (self->swipe, "drag-begin", G_CALLBACK (swipe_begin), self);
  g_signal_connect (self->swipe, "drag-update", G_CALLBACK (swipe_update), self);
  g_signal_connect (self->swipe, "drag-end", G_CALLBACK (swipe_end), self);
  g_signal_connect (self->swipe, "cancel", G_CALLBACK (swipe_cancel), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->swipe));
}

/* MARK: - Public API */

/**
 * segue_gtk_stack_new:
 *
 * Creates a stack without pages, with the `ios-push` effect.
 *
 * Returns: a new #SegueGtkStack
 */
GtkWidget *
segue_gtk_stack_new (void)
{
  return g_object_new (SEGUE_GTK_TYPE_STACK, NULL);
}

/**
 * segue_gtk_stack_add_named:
 * @stack: a #SegueGtkStack
 * @child: the page
 * @name: (nullable): its name, unique in the stack
 *
 * Adds a page. The first page added is shown, and is the root of the back stack.
 */
void
segue_gtk_stack_add_named (SegueGtkStack *stack,
                           GtkWidget     *child,
                           const char    *name)
{
  Page *page;

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  g_return_if_fail (GTK_IS_WIDGET (child));
  g_return_if_fail (gtk_widget_get_parent (child) == NULL);
  if (name != NULL && find_page_by_name (stack, name) != NULL)
    {
      g_warning ("SegueGtkStack: a page named '%s' is already in the stack", name);
      return;
    }

  page = g_new0 (Page, 1);
  page->widget = child;
  page->name = g_strdup (name);
  g_ptr_array_add (stack->pages, page);
  gtk_widget_set_child_visible (child, FALSE);
  gtk_widget_set_parent (child, GTK_WIDGET (stack));
  if (stack->visible == NULL)
    {
      g_ptr_array_add (stack->back_stack, page);
      set_visible_page (stack, page);
      g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_DEPTH]);
    }
  update_child_visibility (stack);
}

/**
 * segue_gtk_stack_remove:
 * @stack: a #SegueGtkStack
 * @child: a page of @stack
 *
 * Removes a page, from the back stack too. A transition from or to it ends at once; when it was
 * shown, the page below it on the back stack (else the first page) is shown.
 */
void
segue_gtk_stack_remove (SegueGtkStack *stack,
                        GtkWidget     *child)
{
  Page *page;
  guint depth;

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  g_return_if_fail (GTK_IS_WIDGET (child));
  page = find_page_by_widget (stack, child);
  if (page == NULL)
    {
      g_warning ("SegueGtkStack: the widget to remove is not a page of this stack");
      return;
    }

  g_object_freeze_notify (G_OBJECT (stack));
  if (stack->running && (page == stack->from || page == stack->to))
    end_transition (stack, page != stack->to, TRUE);
  depth = stack->back_stack->len;
  g_ptr_array_remove (stack->pages, page);
  while (g_ptr_array_remove (stack->back_stack, page))
    ;
  if (stack->visible == page)
    {
      Page *next = back_stack_top (stack);
      if (next == NULL && stack->pages->len > 0)
        {
          next = g_ptr_array_index (stack->pages, 0);
          g_ptr_array_add (stack->back_stack, next);
        }
      set_visible_page (stack, next);
    }
  if (depth != stack->back_stack->len)
    g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_DEPTH]);
  gtk_widget_unparent (child);
  page_free (page);
  update_child_visibility (stack);
  g_object_thaw_notify (G_OBJECT (stack));
}

/**
 * segue_gtk_stack_get_child_by_name:
 * @stack: a #SegueGtkStack
 * @name: a page's name
 *
 * Returns: (transfer none) (nullable): the page named @name, or %NULL
 */
GtkWidget *
segue_gtk_stack_get_child_by_name (SegueGtkStack *stack,
                                   const char    *name)
{
  Page *page;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), NULL);
  page = find_page_by_name (stack, name);
  return page != NULL ? page->widget : NULL;
}

/**
 * segue_gtk_stack_get_visible_child:
 * @stack: a #SegueGtkStack
 *
 * Returns: (transfer none) (nullable): the page shown at rest (during a transition, the page
 *   it started from), or %NULL without pages
 */
GtkWidget *
segue_gtk_stack_get_visible_child (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), NULL);
  return stack->visible != NULL ? stack->visible->widget : NULL;
}

/**
 * segue_gtk_stack_get_visible_child_name:
 * @stack: a #SegueGtkStack
 *
 * Returns: (nullable): the name of the page shown, or %NULL
 */
const char *
segue_gtk_stack_get_visible_child_name (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), NULL);
  return stack->visible != NULL ? stack->visible->name : NULL;
}

/**
 * segue_gtk_stack_set_visible_child_name:
 * @stack: a #SegueGtkStack
 * @name: a page's name
 *
 * Switches to the page named @name with the transition (at once when the stack is not on
 * screen or the effect cannot run); it replaces the top of the back stack.
 */
void
segue_gtk_stack_set_visible_child_name (SegueGtkStack *stack,
                                        const char    *name)
{
  Page *page;

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  page = find_page_by_name (stack, name);
  if (page == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s'", name != NULL ? name : "(null)");
      return;
    }
  start_transition (stack, page, MOTION_SWITCH, FALSE);
}

/**
 * segue_gtk_stack_push:
 * @stack: a #SegueGtkStack
 * @name: a page's name
 *
 * Shows the page named @name with the transition and puts it on the back stack. A transition
 * still running first ends where it was headed. The switch never fails: when the effect cannot
 * run, a warning says why and the page is shown at once.
 *
 * Returns: %FALSE when no page has that name or it is already shown
 */
gboolean
segue_gtk_stack_push (SegueGtkStack *stack,
                      const char    *name)
{
  Page *page;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  page = find_page_by_name (stack, name);
  if (page == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s' to push", name != NULL ? name : "(null)");
      return FALSE;
    }
  if (stack->running)
    end_transition (stack, transition_headed_to_end (stack), TRUE);
  if (page == stack->visible)
    return FALSE;
  start_transition (stack, page, MOTION_PUSH, FALSE);
  return TRUE;
}

/**
 * segue_gtk_stack_pop:
 * @stack: a #SegueGtkStack
 *
 * Goes back to the page below the top of the back stack. The effect plays backwards, unless it
 * has its own reverse (`ios-push` pops with `ios-pop`).
 *
 * Returns: %FALSE when the back stack has one page or none
 */
gboolean
segue_gtk_stack_pop (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  if (stack->running)
    end_transition (stack, transition_headed_to_end (stack), TRUE);
  if (stack->back_stack->len < 2)
    return FALSE;
  start_transition (stack, g_ptr_array_index (stack->back_stack, stack->back_stack->len - 2), MOTION_POP, FALSE);
  return TRUE;
}

/**
 * segue_gtk_stack_get_depth:
 * @stack: a #SegueGtkStack
 *
 * Returns: the number of pages on the back stack
 */
guint
segue_gtk_stack_get_depth (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), 0);
  return stack->back_stack->len;
}

/**
 * segue_gtk_stack_set_effect:
 * @stack: a #SegueGtkStack
 * @effect: a Segue effect (see #SegueGtkStack:effect)
 * @error: a #GError, or %NULL
 *
 * Sets the effect of the next transitions, after checking that it can be used: its file read
 * and parsed, its shader compiled (the first effect of a process also opens the GPU). A running
 * transition keeps its effect.
 *
 * Returns: %TRUE, or %FALSE with @error set to Segue's message and code (the effect unchanged)
 */
gboolean
segue_gtk_stack_set_effect (SegueGtkStack *stack,
                            const char    *effect,
                            GError       **error)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (effect == NULL || effect[0] == '\0')
    {
      g_set_error_literal (error, SEGUE_GTK_ERROR, SEGUE_GTK_ERROR_INVALID_ARGUMENT, "the effect is empty");
      return FALSE;
    }
  if (g_strcmp0 (stack->effect, effect) == 0)
    return TRUE;
  if (effect_get (stack, effect, error) == NULL)
    return FALSE;
  g_free (stack->effect);
  stack->effect = g_strdup (effect);
  g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_EFFECT]);
  return TRUE;
}

/**
 * segue_gtk_stack_get_effect:
 * @stack: a #SegueGtkStack
 *
 * Returns: the effect of the transitions
 */
const char *
segue_gtk_stack_get_effect (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), NULL);
  return stack->effect;
}

/**
 * segue_gtk_stack_set_duration:
 * @stack: a #SegueGtkStack
 * @seconds: the duration of the next transitions; 0 for the effect's own
 *
 * Sets the transitions' duration (from the next one on).
 */
void
segue_gtk_stack_set_duration (SegueGtkStack *stack,
                              double         seconds)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  if (!isfinite (seconds) || seconds < 0)
    {
      g_warning ("SegueGtkStack: a duration of %g s is not one (0 for the effect's own, else > 0)", seconds);
      return;
    }
  if (stack->duration == seconds)
    return;
  stack->duration = seconds;
  g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_DURATION]);
}

/**
 * segue_gtk_stack_get_duration:
 * @stack: a #SegueGtkStack
 *
 * Returns: the transitions' duration in seconds; 0 for the effect's own
 */
double
segue_gtk_stack_get_duration (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), 0);
  return stack->duration;
}

/**
 * segue_gtk_stack_set_timing:
 * @stack: a #SegueGtkStack
 * @timing: (nullable): a timing curve (see #SegueGtkStack:timing), or %NULL for the effect's own
 * @error: a #GError, or %NULL
 *
 * Sets the timing curve of the next transitions and of an interactive transition's completion.
 *
 * Returns: %TRUE, or %FALSE with @error set to Segue's message (the timing unchanged)
 */
gboolean
segue_gtk_stack_set_timing (SegueGtkStack *stack,
                            const char    *timing,
                            GError       **error)
{
  Effect *effect;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  if (timing != NULL && timing[0] == '\0')
    timing = NULL;
  if (g_strcmp0 (stack->timing, timing) == 0)
    return TRUE;
  /* Checked on the current effect's transition (without a GPU it is checked when used). */
  effect = effect_get (stack, stack->effect, &local);
  if (effect != NULL && !effect_apply_timing (stack, effect, timing, error))
    {
      effect_apply_timing (stack, effect, stack->timing, NULL);
      return FALSE;
    }
  g_free (stack->timing);
  stack->timing = g_strdup (timing);
  g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_TIMING]);
  return TRUE;
}

/**
 * segue_gtk_stack_get_timing:
 * @stack: a #SegueGtkStack
 *
 * Returns: (nullable): the timing curve, or %NULL for the effect's own
 */
const char *
segue_gtk_stack_get_timing (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), NULL);
  return stack->timing;
}

/**
 * segue_gtk_stack_set_param:
 * @stack: a #SegueGtkStack
 * @name: a parameter of the current effect (`segue info EFFECT` lists them)
 * @value: its value as `segue frame --param` takes it: "0.5", "1,0", "true", a PNG path
 * @error: a #GError, or %NULL
 *
 * Sets a parameter of the current effect; the effect keeps it when the stack switches to
 * another effect and back.
 *
 * Returns: %TRUE, or %FALSE with @error set to Segue's message (the old value kept)
 */
gboolean
segue_gtk_stack_set_param (SegueGtkStack *stack,
                           const char    *name,
                           const char    *value,
                           GError       **error)
{
  Effect *effect;
  segue_error *serr = NULL;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  effect = effect_get (stack, stack->effect, error);
  if (effect == NULL)
    return FALSE;
  if (segue_transition_set_param (effect->transition, name, value, &serr) != 0)
    {
      propagate_segue_error (error, serr, "cannot set the parameter");
      return FALSE;
    }
  g_ptr_array_add (effect->params, g_strdup (name));
  g_ptr_array_add (effect->params, g_strdup (value));
  gtk_widget_queue_draw (GTK_WIDGET (stack));
  return TRUE;
}

/**
 * segue_gtk_stack_get_transition_running:
 * @stack: a #SegueGtkStack
 *
 * Returns: whether a transition runs
 */
gboolean
segue_gtk_stack_get_transition_running (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  return stack->running;
}

/**
 * segue_gtk_stack_get_progress:
 * @stack: a #SegueGtkStack
 *
 * Returns: the running transition's progress (see #SegueGtkStack:progress)
 */
double
segue_gtk_stack_get_progress (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), 0);
  return stack->progress;
}

/**
 * segue_gtk_stack_begin_interactive:
 * @stack: a #SegueGtkStack
 * @name: the page to go to
 *
 * Starts a transition to the page named @name, paused at progress 0 and driven by
 * segue_gtk_stack_update_interactive() until segue_gtk_stack_finish_interactive() or
 * segue_gtk_stack_cancel_interactive() (UIKit's percent-driven transition). When @name is the
 * page below the top of the back stack it is a pop, else a push.
 *
 * Returns: %FALSE when it cannot start (an unknown page, the page shown, a stack not on
 *   screen, an effect that cannot run: a warning says which); the other calls then do nothing
 */
gboolean
segue_gtk_stack_begin_interactive (SegueGtkStack *stack,
                                   const char    *name)
{
  Page *page;
  MotionKind kind;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  page = find_page_by_name (stack, name);
  if (page == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s'", name != NULL ? name : "(null)");
      return FALSE;
    }
  if (stack->running)
    end_transition (stack, transition_headed_to_end (stack), TRUE);
  kind = stack->back_stack->len >= 2 && g_ptr_array_index (stack->back_stack, stack->back_stack->len - 2) == page
           ? MOTION_POP : MOTION_PUSH;
  if (!start_transition (stack, page, kind, TRUE))
    return FALSE;
  segue_interaction_update (stack->interaction, 0, now_seconds ());
  return TRUE;
}

/**
 * segue_gtk_stack_update_interactive:
 * @stack: a #SegueGtkStack
 * @progress: how far the transition is (0 at the start, 1 at the end)
 *
 * Moves an interactive transition to @progress (values outside 0…1 are clamped).
 */
void
segue_gtk_stack_update_interactive (SegueGtkStack *stack,
                                    double         progress)
{
  double now = now_seconds ();

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  if (!stack->running || stack->interaction == NULL || stack->swiping || !isfinite (progress))
    return;
  segue_interaction_update (stack->interaction, CLAMP (progress, 0, 1), now);
  stack->completion = -1;
  advance (stack, now);
  gtk_widget_queue_draw (GTK_WIDGET (stack));
}

static void
complete_interactive (SegueGtkStack *stack,
                      gboolean       finish)
{
  g_autoptr (GError) error = NULL;
  segue_error *serr = NULL;
  double now = now_seconds ();

  if (!stack->running || stack->interaction == NULL || stack->swiping)
    return;
  if (segue_interaction_complete (stack->interaction, finish, stack->timing, now, &serr) != 0)
    {
      propagate_segue_error (&error, serr, "cannot complete the transition");
      g_warning ("SegueGtkStack: %s", error->message);
      end_transition (stack, finish, TRUE);
      return;
    }
  stack->completion = finish ? 1 : 0;
  advance (stack, now);
  gtk_widget_queue_draw (GTK_WIDGET (stack));
}

/**
 * segue_gtk_stack_finish_interactive:
 * @stack: a #SegueGtkStack
 *
 * Lets an interactive transition run on to its end with the stack's timing; then
 * #SegueGtkStack::transition-done is emitted with %TRUE.
 */
void
segue_gtk_stack_finish_interactive (SegueGtkStack *stack)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  complete_interactive (stack, TRUE);
}

/**
 * segue_gtk_stack_cancel_interactive:
 * @stack: a #SegueGtkStack
 *
 * Lets an interactive transition run back to its start with the stack's timing; then
 * #SegueGtkStack::transition-done is emitted with %FALSE.
 */
void
segue_gtk_stack_cancel_interactive (SegueGtkStack *stack)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  complete_interactive (stack, FALSE);
}

/**
 * segue_gtk_stack_set_swipe_back:
 * @stack: a #SegueGtkStack
 * @enabled: whether a drag from the left edge pops
 *
 * Turns the edge swipe back on or off (see #SegueGtkStack:swipe-back).
 */
void
segue_gtk_stack_set_swipe_back (SegueGtkStack *stack,
                                gboolean       enabled)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  enabled = !!enabled;
  if (stack->swipe_back == enabled)
    return;
  stack->swipe_back = enabled;
  g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_SWIPE_BACK]);
}

/**
 * segue_gtk_stack_get_swipe_back:
 * @stack: a #SegueGtkStack
 *
 * Returns: whether a drag from the left edge pops
 */
gboolean
segue_gtk_stack_get_swipe_back (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  return stack->swipe_back;
}

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
