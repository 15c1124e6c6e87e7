/* segue-gtk-interactive.c — transitions driven by the caller (UIKit's percent-driven transition)
 * or by a finger: the edge swipe back. Both run over segue_interaction_*, the code of
 * `segue navigate`'s edge-drag pop. */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

#include <math.h>

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
  if (!start_transition (self, back_stack_below_top (self), MOTION_POP, TRUE))
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

/* Adds the edge swipe's drag gesture to a new stack (in the capture phase: before the pages). */
void
swipe_init (SegueGtkStack *self)
{
  self->swipe = gtk_gesture_drag_new ();
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (self->swipe), GTK_PHASE_CAPTURE);
  g_signal_connect (self->swipe, "drag-begin", G_CALLBACK (swipe_begin), self);
  g_signal_connect (self->swipe, "drag-update", G_CALLBACK (swipe_update), self);
  g_signal_connect (self->swipe, "drag-end", G_CALLBACK (swipe_end), self);
  g_signal_connect (self->swipe, "cancel", G_CALLBACK (swipe_cancel), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (self->swipe));
}

/* MARK: - Input during a transition */

/* While a transition runs, the pages get no pointer or key input (as UIKit's views during a
 * transition, and GtkStack's pages that are only drawn): a capture-phase controller of the stack,
 * after the swipe gesture, stops presses, motion, scrolls, touches and key presses on their way
 * to the pages. Releases pass, so that a press a page got before the transition ends cleanly. A
 * swipe's own events are the gesture's (it runs first, and claims them). */
static gboolean
block_input (GtkEventControllerLegacy *controller,
             GdkEvent                 *event,
             SegueGtkStack            *self)
{
  (void) controller;
  if (!self->running)
    return GDK_EVENT_PROPAGATE;
  switch ((int) gdk_event_get_event_type (event))
    {
    case GDK_BUTTON_PRESS:
    case GDK_MOTION_NOTIFY:
    case GDK_SCROLL:
    case GDK_KEY_PRESS:
    case GDK_TOUCH_BEGIN:
    case GDK_TOUCH_UPDATE:
    case GDK_TOUCHPAD_SWIPE:
    case GDK_TOUCHPAD_PINCH:
    case GDK_TOUCHPAD_HOLD:
    case GDK_PAD_BUTTON_PRESS:
    case GDK_PAD_RING:
    case GDK_PAD_STRIP:
      return GDK_EVENT_STOP;
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* Adds the input blocker to a new stack (after the swipe gesture: it runs after it). */
void
input_blocker_init (SegueGtkStack *self)
{
  self->input_blocker = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (self->input_blocker, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (self->input_blocker, "segue-input-blocker");
  g_signal_connect (self->input_blocker, "event", G_CALLBACK (block_input), self);
  gtk_widget_add_controller (GTK_WIDGET (self), self->input_blocker);
}

/* MARK: - Public API */

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
 * A transition still running first ends where it was headed (as for segue_gtk_stack_push(): a
 * #SegueGtkStack::transition-done handler's navigation stands, and this call returns %FALSE).
 *
 * Returns: %FALSE when it cannot start (an unknown page, the page shown, a stack not on
 *   screen, an effect that cannot run, a transition-done handler that navigated first: a warning
 *   says which); the other calls then do nothing
 */
gboolean
segue_gtk_stack_begin_interactive (SegueGtkStack *stack,
                                   const char    *name)
{
  g_autoptr (SegueGtkStack) keep = NULL;
  const char *refusal = NULL;
  Page *page = NULL;

  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  if (find_page_by_name (stack, name) == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s'", name != NULL ? name : "(null)");
      return FALSE;
    }
  keep = g_object_ref (stack);   /* a transition-done handler may close the window */
  if (!make_way (stack))
    refusal = "a transition-done handler navigated first";
  else if ((page = find_page_by_name (stack, name)) == NULL)
    refusal = "a transition-done handler removed the page";
  else if (page == stack->visible)
    refusal = "it is the page shown";
  else
    refusal = animation_blocker (stack);
  if (refusal != NULL)
    {
      g_warning ("SegueGtkStack: no interactive transition to '%s': %s", name, refusal);
      return FALSE;
    }
  /* Refused by start_transition only when the effect or the interaction cannot be made: it warns. */
  if (!start_transition (stack, page, page == back_stack_below_top (stack) ? MOTION_POP : MOTION_PUSH, TRUE))
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
  g_autoptr (SegueGtkStack) keep = NULL;
  double now = now_seconds ();

  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  if (!stack->running || stack->interaction == NULL || stack->swiping || !isfinite (progress))
    return;
  keep = g_object_ref (stack);   /* advance may end it: a transition-done handler may close the window */
  segue_interaction_update (stack->interaction, CLAMP (progress, 0, 1), now);
  stack->completion = -1;
  advance (stack, now);
  gtk_widget_queue_draw (GTK_WIDGET (stack));
}

/* Runs an interactive transition on to its end (or back to its start) with the stack's timing: the
 * timing property when set, else the effect's own (segue_info_timing: a curve over the remaining
 * share of the duration, ios-push's spring in its own time) — the timing that drives the same
 * transition when it runs on its own (a pop with its own reverse, as ios-pop, runs on the pushing
 * effect's timing there too). A finger's release is different: segue_interaction_release, the
 * spring of `segue navigate`'s edge drag, from the finger's speed. */
static void
complete_interactive (SegueGtkStack *stack,
                      gboolean       finish)
{
  g_autoptr (SegueGtkStack) keep = NULL;
  g_autoptr (GError) error = NULL;
  segue_error *serr = NULL;
  double now = now_seconds ();
  const char *timing;

  if (!stack->running || stack->interaction == NULL || stack->swiping)
    return;
  keep = g_object_ref (stack);   /* it may end: a transition-done handler may close the window */
  timing = stack->timing != NULL ? stack->timing : stack->forward->timing;
  if (segue_interaction_complete (stack->interaction, finish, timing, now, &serr) != 0)
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
 * Lets an interactive transition run on to its end, from where it is, with the stack's timing:
 * #SegueGtkStack:timing when set, else the effect's own (linear for most effects, a spring for
 * `ios-push`); a curve takes the remaining share of the duration, a spring its own time. Then
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
 * Lets an interactive transition run back to its start, from where it is, with the stack's
 * timing (as segue_gtk_stack_finish_interactive()); then #SegueGtkStack::transition-done is
 * emitted with %FALSE.
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
  g_object_notify_by_pspec (G_OBJECT (stack), stack_properties[PROP_SWIPE_BACK]);
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

