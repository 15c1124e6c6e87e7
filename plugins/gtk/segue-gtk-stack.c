/* segue-gtk-stack.c — SegueGtkStack: the widget (its properties, signal, layout and pages, and
 * navigation over a back stack), a stack of named pages whose switches run Segue effects
 * between the pages' live contents.
 *
 * How a transition frame is made (every tick of the frame clock while one runs; Docs/Gtk.md):
 *   1. both pages are allocated the stack's size and stay mapped, so their own animations, tick
 *      callbacks and redraws go on;
 *   2. in the stack's snapshot each page is snapshotted into a render node of its own
 *      (gtk_widget_snapshot_child into a private GtkSnapshot);
 *   3. each node is drawn with cairo (gsk_render_node_draw) straight into a buffer of the stack's
 *      (premultiplied BGRA), unless it is the node already there: a page that did not change;
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
 *
 * The widget's parts: segue-gtk-stack.c (this file), segue-gtk-transition.c (a transition's life),
 * segue-gtk-frame.c (drawing a transition frame through libsegue), segue-gtk-interactive.c
 * (interactive transitions and the edge swipe), segue-gtk-effects.c (effects, duration, timing,
 * parameters), segue-gtk-context.c (errors and the shared GPU context);
 * segue-gtk-stack-private.h declares what they share.
 */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

GParamSpec *stack_properties[N_PROPS];
guint stack_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SegueGtkStack, segue_gtk_stack, GTK_TYPE_WIDGET)

Page *
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

/* Which pages are drawn: the visible one, and during a transition both of its pages. */
void
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
void
set_visible_page (SegueGtkStack *self,
                  Page          *page)
{
  if (self->visible == page)
    return;
  self->visible = page;
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_VISIBLE_CHILD]);
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_VISIBLE_CHILD_NAME]);
}

void
set_progress (SegueGtkStack *self,
              double         progress)
{
  if (self->progress == progress)
    return;
  self->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_PROGRESS]);
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

/* MARK: - GObject and GtkWidget */

static void
segue_gtk_stack_unmap (GtkWidget *widget)
{
  SegueGtkStack *self = SEGUE_GTK_STACK (widget);

  /* Hidden mid-transition: it ends where it was headed, once unmapped (so a handler navigating
   * then switches at once). */
  GTK_WIDGET_CLASS (segue_gtk_stack_parent_class)->unmap (widget);
  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
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
  g_hash_table_unref (self->effect_params);
  g_free (self->effect);
  g_free (self->timing);
  frame_cache_clear (self);
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

  widget_class->snapshot = stack_snapshot;
  widget_class->measure = segue_gtk_stack_measure;
  widget_class->size_allocate = segue_gtk_stack_size_allocate;
  widget_class->unmap = segue_gtk_stack_unmap;
  widget_class->unrealize = segue_gtk_stack_unrealize;

  /**
   * SegueGtkStack:visible-child: (getter get_visible_child)
   *
   * The page shown at rest (during a transition: the page it started from).
   */
  stack_properties[PROP_VISIBLE_CHILD] =
    g_param_spec_object ("visible-child", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:visible-child-name: (getter get_visible_child_name) (setter set_visible_child_name)
   *
   * The name of the page shown. Setting it switches to that page with the transition, replacing
   * the top of the back stack (push and pop keep the pages below); the page below the top pops.
   */
  stack_properties[PROP_VISIBLE_CHILD_NAME] =
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
  stack_properties[PROP_EFFECT] =
    g_param_spec_string ("effect", NULL, NULL, "ios-push",
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:duration: (getter get_duration) (setter set_duration)
   *
   * The transitions' duration in seconds; 0 for the effect's own (ios-push 0.5, doom-melt 2, …).
   */
  stack_properties[PROP_DURATION] =
    g_param_spec_double ("duration", NULL, NULL, 0, MAX_DURATION, 0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:timing: (getter get_timing)
   *
   * The timing curve of the transitions as Segue writes it: `linear`, `ease-in-out`,
   * `cubic-bezier(x1,y1,x2,y2)`, `spring(response=…,damping-fraction=…)`; %NULL or empty for the
   * effect's own. Interactive transitions finish and cancel with it too
   * (segue_gtk_stack_finish_interactive()). An invalid value logs a warning and keeps the last
   * good one; segue_gtk_stack_set_timing() says why in a #GError.
   */
  stack_properties[PROP_TIMING] =
    g_param_spec_string ("timing", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:transition-running: (getter get_transition_running)
   *
   * Whether a transition runs or follows a finger (or segue_gtk_stack_update_interactive()).
   */
  stack_properties[PROP_TRANSITION_RUNNING] =
    g_param_spec_boolean ("transition-running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:progress: (getter get_progress)
   *
   * How far the running transition is from the page it started at (0) to the page it goes to (1),
   * after the timing curve (a spring may overshoot); 0 when none runs.
   */
  stack_properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:depth: (getter get_depth)
   *
   * The number of pages on the back stack (1 at the root; 0 without pages).
   */
  stack_properties[PROP_DEPTH] =
    g_param_spec_uint ("depth", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SegueGtkStack:swipe-back: (getter get_swipe_back) (setter set_swipe_back)
   *
   * Whether a drag starting within 20 pixels of the left edge pops interactively: released past
   * half way, or flicked, it finishes; otherwise it springs back.
   */
  stack_properties[PROP_SWIPE_BACK] =
    g_param_spec_boolean ("swipe-back", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, stack_properties);

  /**
   * SegueGtkStack::transition-done:
   * @stack: the stack
   * @finished: %TRUE when the transition reached its destination, %FALSE when it was cancelled
   *   and the page it started from is shown again
   *
   * Emitted when a transition ends (a switch that could not animate ends at once, finished), once
   * a navigation; a handler navigating prevails over the call that ended it (segue_gtk_stack_push()).
   */
  stack_signals[TRANSITION_DONE] =
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
  self->effect_params = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  self->effect = g_strdup ("ios-push");
  self->swipe_back = TRUE;
  self->completion = -1;
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  swipe_init (self);
  input_blocker_init (self);
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
      g_object_notify_by_pspec (G_OBJECT (stack), stack_properties[PROP_DEPTH]);
    }
  update_child_visibility (stack);
}

/* Takes `page` out of the stack (no transition may use it) and frees it. */
static void
remove_page (SegueGtkStack *self,
             Page          *page)
{
  guint depth = self->back_stack->len;

  g_object_freeze_notify (G_OBJECT (self));
  g_ptr_array_remove (self->pages, page);
  while (g_ptr_array_remove (self->back_stack, page))
    ;
  back_stack_collapse (self);
  if (self->visible == page)
    {
      Page *next = back_stack_top (self);
      if (next == NULL && self->pages->len > 0)
        {
          next = g_ptr_array_index (self->pages, 0);
          g_ptr_array_add (self->back_stack, next);
        }
      set_visible_page (self, next);
    }
  if (depth != self->back_stack->len)
    g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_DEPTH]);
  gtk_widget_unparent (page->widget);
  page_free (page);
  update_child_visibility (self);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * segue_gtk_stack_remove:
 * @stack: a #SegueGtkStack
 * @child: a page of @stack
 *
 * Removes a page, from the back stack too (a page then twice in a row there is kept once). A
 * transition from or to it ends at once, its transition-done emitted first (a handler may remove the
 * page itself); when it was shown, the page below it on the back stack (else the first) is shown.
 */
void
segue_gtk_stack_remove (SegueGtkStack *stack,
                        GtkWidget     *child)
{
  g_autoptr (SegueGtkStack) keep = NULL;
  g_autoptr (GtkWidget) keep_child = NULL;
  Page *page;

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  g_return_if_fail (GTK_IS_WIDGET (child));
  if (find_page_by_widget (stack, child) == NULL)
    {
      g_warning ("SegueGtkStack: the widget to remove is not a page of this stack");
      return;
    }

  /* A transition-done handler may close the window, remove the page or navigate to it again. */
  keep = g_object_ref (stack);
  keep_child = g_object_ref (child);
  while ((page = find_page_by_widget (stack, child)) != NULL && stack->running
         && (page == stack->from || page == stack->to))
    end_transition (stack, page != stack->to, TRUE);
  if (page != NULL)
    remove_page (stack, page);
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
