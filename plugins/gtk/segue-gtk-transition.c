/* segue-gtk-transition.c — a transition's life: it starts (or, when it cannot run, the switch is
 * immediate), advances from the frame clock by libsegue's timing (segue_transition_progress_at)
 * or an interaction (segue_interaction_*), and ends at one of its pages, updating the back stack. */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

static gboolean tick_cb (GtkWidget *widget, GdkFrameClock *clock, gpointer data);

/* MARK: - The back stack */

/* The page on top of the back stack (the visible one at rest), or NULL without pages. */
Page *
back_stack_top (SegueGtkStack *self)
{
  return self->back_stack->len > 0 ? g_ptr_array_index (self->back_stack, self->back_stack->len - 1) : NULL;
}

/* The page a pop goes back to, or NULL at the root. */
Page *
back_stack_below_top (SegueGtkStack *self)
{
  return self->back_stack->len > 1 ? g_ptr_array_index (self->back_stack, self->back_stack->len - 2) : NULL;
}

/* Drops a page that follows itself on the back stack (left by removing the page between them). */
void
back_stack_collapse (SegueGtkStack *self)
{
  for (guint i = 1; i < self->back_stack->len;)
    {
      if (g_ptr_array_index (self->back_stack, i) == g_ptr_array_index (self->back_stack, i - 1))
        g_ptr_array_remove_index (self->back_stack, i);
      else
        i++;
    }
}

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

/* Makes way for a navigation request: a running transition ends where it was headed, emitting
 * transition-done. Returns FALSE when a handler of it (or of the notifications) navigated: the
 * request then yields to that navigation, which stands (its push returned TRUE and gets its
 * transition-done). Any other change a handler makes (a page removed, the stack hidden, the window
 * closed) is for the caller to take as it finds it: it looks its page up again. The caller holds a
 * reference on the stack, which a handler closing the window may otherwise finalize. */
gboolean
make_way (SegueGtkStack *self)
{
  guint navigations = self->navigations;

  if (self->running)
    end_transition (self, transition_headed_to_end (self), TRUE);
  return self->navigations == navigations;
}

/* Why a switch cannot animate now (it is then immediate), or NULL when it can. A stack being hidden
 * is unmapped already when its transition ends (segue_gtk_stack_unmap), so that a transition-done
 * handler navigating then switches at once. */
const char *
animation_blocker (SegueGtkStack *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  if (self->visible == NULL)
    return "the stack has no page";
  if (!gtk_widget_get_mapped (widget))
    return "the stack is not on screen (hidden, unmapped or its window closed)";
  if (gtk_widget_get_width (widget) <= 0 || gtk_widget_get_height (widget) <= 0)
    return "the stack has no size";
  return NULL;
}

/* Sets up a navigation from the visible page to `to`, animated or not. */
static void
begin_motion (SegueGtkStack *self,
              Page          *to,
              MotionKind     kind)
{
  self->navigations++;
  self->running = TRUE;
  self->kind = kind;
  self->from = self->visible;
  self->to = to;
  self->completion = -1;
}

/* Navigates without an animation (a transition that cannot run: at worst a switch is immediate),
 * emitting transition-done. */
static void
switch_now (SegueGtkStack *self,
            Page          *to,
            MotionKind     kind)
{
  begin_motion (self, to, kind);
  end_transition (self, TRUE, TRUE);
}

/* The effects a transition of `kind` draws: `forward`, and for a pop of an effect with its own
 * reverse that one in `reverse` (else NULL). Returns FALSE (with `error`) when they cannot run. */
static gboolean
transition_effects (SegueGtkStack *self,
                    MotionKind     kind,
                    Effect       **forward,
                    Effect       **reverse,
                    GError       **error)
{
  *reverse = NULL;
  *forward = effect_get (self, self->effect, error);
  if (*forward == NULL || !effect_apply_timing (self, *forward, self->timing, error)
      || !effect_check_textures (*forward, error))
    return FALSE;
  if (kind != MOTION_POP || (*forward)->reverse == NULL)
    return TRUE;
  *reverse = effect_get (self, (*forward)->reverse, error);
  return *reverse != NULL && effect_apply_timing (self, *reverse, self->timing, error)
         && effect_check_textures (*reverse, error);
}

/* Starts a transition to `to` (interactive: paused at 0 for the caller or a finger), or switches
 * at once when it cannot run (interactive: nothing happens). None may be running (make_way).
 * Returns whether a transition runs. */
gboolean
start_transition (SegueGtkStack *self,
                  Page          *to,
                  MotionKind     kind,
                  gboolean       interactive)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr (GError) error = NULL;
  Effect *forward, *reverse;
  segue_interaction *interaction = NULL;

  g_return_val_if_fail (!self->running, FALSE);
  if (to == self->visible)
    return FALSE;
  if (animation_blocker (self) != NULL)
    {
      if (!interactive)
        switch_now (self, to, kind);
      return FALSE;
    }
  if (!transition_effects (self, kind, &forward, &reverse, &error))
    {
      g_warning ("SegueGtkStack: %s; switching pages without a transition", error->message);
      if (!interactive)
        switch_now (self, to, kind);
      return FALSE;
    }
  if (interactive)
    {
      segue_error *serr = NULL;
      interaction = segue_interaction_create (segue_transition_duration (forward->transition), &serr);
      if (interaction == NULL)
        {
          g_warning ("SegueGtkStack: %s", segue_error_message (serr));
          segue_error_free (serr);
          return FALSE;
        }
    }

  begin_motion (self, to, kind);
  self->interaction = interaction;
  self->forward = forward;
  self->reverse = reverse;
  self->total = segue_transition_duration (forward->transition);
  self->start = now_seconds ();
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

/* A navigation request: makes way (make_way: it yields to a transition-done handler that
 * navigated), then goes to the page named `name`, or for a pop to the page below the top of the
 * back stack. A switch to the page below the top is a pop: the back stack never holds a page twice
 * in a row. Returns whether it navigates (a transition runs, or the switch was made at once). */
static gboolean
navigate (SegueGtkStack *self,
          const char    *name,
          MotionKind     kind)
{
  g_autoptr (SegueGtkStack) keep = g_object_ref (self);   /* a transition-done handler may close the window */
  Page *page;

  if (!make_way (self))
    return FALSE;
  /* Looked up now: a transition-done handler may have removed it. */
  page = kind == MOTION_POP ? back_stack_below_top (self) : find_page_by_name (self, name);
  if (page == NULL || page == self->visible)
    return FALSE;
  if (kind == MOTION_SWITCH && page == back_stack_below_top (self))
    kind = MOTION_POP;
  start_transition (self, page, kind, FALSE);
  return TRUE;
}

/**
 * segue_gtk_stack_set_visible_child_name:
 * @stack: a #SegueGtkStack
 * @name: a page's name
 *
 * Switches to the page named @name with the transition (at once when the stack is not on
 * screen or the effect cannot run); it replaces the top of the back stack. When @name is the page
 * below the top, it is a pop (as segue_gtk_stack_pop()): the back stack never holds a page twice in
 * a row. A transition still running first ends where it was headed; when a
 * #SegueGtkStack::transition-done handler of it navigates, that navigation stands and this switch
 * is dropped.
 */
void
segue_gtk_stack_set_visible_child_name (SegueGtkStack *stack,
                                        const char    *name)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  if (find_page_by_name (stack, name) == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s'", name != NULL ? name : "(null)");
      return;
    }
  navigate (stack, name, MOTION_SWITCH);
}

/**
 * segue_gtk_stack_push:
 * @stack: a #SegueGtkStack
 * @name: a page's name
 *
 * Shows the page named @name with the transition and puts it on the back stack. A transition
 * still running first ends where it was headed; when a #SegueGtkStack::transition-done handler of
 * it navigates (push, pop, a switch, an interactive transition), that navigation stands and this
 * push is dropped. The switch never fails: when the effect cannot run, a warning says why and the
 * page is shown at once. Every push that returns %TRUE is followed by one
 * #SegueGtkStack::transition-done of its own.
 *
 * Returns: %FALSE when no page has that name, it is already shown, or the push was dropped for a
 *   transition-done handler's navigation
 */
gboolean
segue_gtk_stack_push (SegueGtkStack *stack,
                      const char    *name)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  if (find_page_by_name (stack, name) == NULL)
    {
      g_warning ("SegueGtkStack: no page named '%s' to push", name != NULL ? name : "(null)");
      return FALSE;
    }
  return navigate (stack, name, MOTION_PUSH);
}

/**
 * segue_gtk_stack_pop:
 * @stack: a #SegueGtkStack
 *
 * Goes back to the page below the top of the back stack. The effect plays backwards, unless it
 * has its own reverse (`ios-push` pops with `ios-pop`). A transition still running first ends
 * where it was headed (as for segue_gtk_stack_push(): a transition-done handler's navigation
 * stands).
 *
 * Returns: %FALSE when it does nothing: the back stack has one page or none (once a running
 *   transition has ended), or the pop was dropped for a transition-done handler's navigation
 */
gboolean
segue_gtk_stack_pop (SegueGtkStack *stack)
{
  g_return_val_if_fail (SEGUE_GTK_IS_STACK (stack), FALSE);
  return navigate (stack, NULL, MOTION_POP);
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
