/* segue-gtk-transition.c — a transition's life: it starts (or, when it cannot run, the switch is
 * immediate), advances from the frame clock by libsegue's timing (segue_transition_progress_at)
 * or an interaction (segue_interaction_*), and ends at one of its pages, updating the back stack. */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

static gboolean tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data);

/* Ends the transition now: at `to` when `finished`, else back at `from`; updates the back stack
 * and emits transition-done when `emit`. */
void
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
  frame_cache_clear (self);
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
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_TRANSITION_RUNNING]);
  if (finished && self->kind != MOTION_SWITCH)
    g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_DEPTH]);
  g_object_thaw_notify (G_OBJECT (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));

  if (emit)
    g_signal_emit (self, stack_signals[TRANSITION_DONE], 0, finished);
}

/* Where an unfinished transition was going: running on its own or released, its end; following a
 * caller or a finger, back to its start. */
gboolean
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
gboolean
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
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_TRANSITION_RUNNING]);
  g_object_notify_by_pspec (G_OBJECT (self), stack_properties[PROP_PROGRESS]);
  g_object_thaw_notify (G_OBJECT (self));
  gtk_widget_queue_draw (widget);
  return TRUE;
}

/* Advances the transition to `now`; ends it when its time is up or its completion has settled. */
void
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

/* MARK: - Public API */

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

/* MARK: - Navigation */

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
