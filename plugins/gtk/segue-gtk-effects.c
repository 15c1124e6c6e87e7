/* segue-gtk-effects.c — the effects of a stack: one segue_transition per effect used (its shader
 * compiled once), the stack's duration and timing applied to it, and the API that sets the effect,
 * the duration, the timing and the effect's parameters. */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

#include <math.h>

void
effect_free (gpointer data)
{
  Effect *effect = data;

  segue_transition_destroy (effect->transition);
  g_free (effect->name);
  g_free (effect->reverse);
  g_free (effect->timing);
  g_strfreev (effect->textures);
  g_free (effect);
}

/* Where the value of parameter `name` is in `params` (names and values, alternating), or NULL when
 * it was never set. */
static char **
param_value (GPtrArray  *params,
             const char *name)
{
  for (guint i = 0; i + 1 < params->len; i += 2)
    if (g_strcmp0 (g_ptr_array_index (params, i), name) == 0)
      return (char **) &g_ptr_array_index (params, i + 1);
  return NULL;
}

/* Sets `params` (each set before, one value a name) on a transition made anew for `self`'s effect
 * `name`. */
static void
params_set_again (SegueGtkStack    *self,
                  const char       *name,
                  GPtrArray        *params,
                  segue_transition *transition)
{
  for (guint i = 0; i + 1 < params->len; i += 2)
    segue_transition_set_param (transition, g_ptr_array_index (params, i), g_ptr_array_index (params, i + 1),
                                NULL);
  g_debug ("SegueGtkStack %p: made effect '%s' again, setting its %u parameters again", (void *) self, name,
           params->len / 2);
}

/* The names of the sampler2D parameters (image paths) of an effect. */
static char **
info_textures (segue_info *info)
{
  GPtrArray *names = g_ptr_array_new ();

  for (size_t i = 0; i < segue_info_param_count (info); i++)
    if (g_strcmp0 (segue_info_param_type (info, i), "sampler2D") == 0)
      g_ptr_array_add (names, g_strdup (segue_info_param_name (info, i)));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

/* Fails when a sampler2D parameter of `effect` has no image yet, or was set to "" (which unsets
 * it): the transition would not render. The message is the widget's own (libsegue's names
 * segue_transition_set_param). */
gboolean
effect_check_textures (Effect  *effect,
                       GError **error)
{
  for (char **name = effect->textures; *name != NULL; name++)
    {
      char **path = param_value (effect->params, *name);
      if (path != NULL && **path != '\0')
        continue;
      g_set_error (error, SEGUE_GTK_ERROR, SEGUE_GTK_ERROR_INVALID_ARGUMENT,
                   "effect '%s' needs the texture '%s': set it to an image path with "
                   "segue_gtk_stack_set_param", effect->name, *name);
      return FALSE;
    }
  return TRUE;
}

/* Drops the least recently used effects beyond EFFECT_CACHE_SIZE, but never the stack's current
 * effect nor those the running transition uses (the one just asked for is the most recent). */
static void
effect_cache_trim (SegueGtkStack *self)
{
  while (g_hash_table_size (self->effects) > EFFECT_CACHE_SIZE)
    {
      GHashTableIter iter;
      gpointer value;
      Effect *oldest = NULL;

      g_hash_table_iter_init (&iter, self->effects);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        {
          Effect *effect = value;
          if (effect == self->forward || effect == self->reverse || g_strcmp0 (effect->name, self->effect) == 0)
            continue;
          if (oldest == NULL || effect->last_used < oldest->last_used)
            oldest = effect;
        }
      if (oldest == NULL)
        return;
      g_debug ("SegueGtkStack %p: dropped effect '%s', the least recently used of %u", (void *) self,
               oldest->name, g_hash_table_size (self->effects));
      g_hash_table_remove (self->effects, oldest->name);
    }
}

/* The stack's Effect for `name`, made (and its shader compiled) on first use, or again after it was
 * dropped from the cache (with the parameters set on it before). */
Effect *
effect_get (SegueGtkStack *self,
            const char    *name,
            GError       **error)
{
  Effect *effect = g_hash_table_lookup (self->effects, name);
  segue_context *context;
  segue_error *serr = NULL;
  segue_info *info;
  segue_transition *transition;
  GPtrArray *params;
  guint8 probe[4 * 4 * 4] = { 0 };

  if (effect != NULL)
    {
      effect->last_used = ++self->effect_clock;
      return effect;
    }

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
  params = g_hash_table_lookup (self->effect_params, name);
  if (params != NULL)
    params_set_again (self, name, params, transition);
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

  if (params == NULL)
    {
      params = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_insert (self->effect_params, g_strdup (name), params);
    }
  effect = g_new0 (Effect, 1);
  effect->name = g_strdup (name);
  effect->params = params;
  effect->last_used = ++self->effect_clock;
  effect->transition = transition;
  effect->reverse = segue_info_reverse (info)[0] != '\0' ? g_strdup (segue_info_reverse (info)) : NULL;
  effect->timing = segue_info_timing (info)[0] != '\0' ? g_strdup (segue_info_timing (info)) : NULL;
  effect->textures = info_textures (info);
  segue_info_destroy (info);
  g_hash_table_insert (self->effects, g_strdup (name), effect);
  effect_cache_trim (self);
  return effect;
}

/* Gives `effect` the stack's duration and timing. Without a duration of the stack's, the effect's
 * own: a spring timing then lasts its settling time, which only a transition whose duration was
 * never set does (libsegue), so one that had a duration is made anew, with its parameters. */
gboolean
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
      params_set_again (self, effect->name, effect->params, fresh);
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

/* MARK: - Public API */

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
  g_object_notify_by_pspec (G_OBJECT (stack), stack_properties[PROP_EFFECT]);
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
 * @seconds: the duration of the next transitions, up to 3600 s; 0 for the effect's own
 *
 * Sets the transitions' duration (from the next one on).
 */
void
segue_gtk_stack_set_duration (SegueGtkStack *stack,
                              double         seconds)
{
  g_return_if_fail (SEGUE_GTK_IS_STACK (stack));
  if (!isfinite (seconds) || seconds < 0 || seconds > MAX_DURATION)
    {
      g_warning ("SegueGtkStack: a duration of %g s is not one (0 for the effect's own, else up to %g s)", seconds, MAX_DURATION);
      return;
    }
  if (stack->duration == seconds)
    return;
  stack->duration = seconds;
  g_object_notify_by_pspec (G_OBJECT (stack), stack_properties[PROP_DURATION]);
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
  g_object_notify_by_pspec (G_OBJECT (stack), stack_properties[PROP_TIMING]);
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
 * @value: its value as `segue frame --param` takes it: "0.5", "1,0", "true", a PNG path ("" unsets
 *   a texture again)
 * @error: a #GError, or %NULL
 *
 * Sets a parameter of the current effect; the effect keeps it when the stack switches to
 * another effect and back. A parameter keeps one value, the last set: setting it again replaces
 * it.
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
  char **kept;

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
  /* Kept to set again on a new transition of the effect: one value a name, so that they take as
   * much memory as there are parameters, however often they are set. */
  kept = param_value (effect->params, name);
  if (kept != NULL)
    {
      g_free (*kept);
      *kept = g_strdup (value);
    }
  else
    {
      g_ptr_array_add (effect->params, g_strdup (name));
      g_ptr_array_add (effect->params, g_strdup (value));
    }
  gtk_widget_queue_draw (GTK_WIDGET (stack));
  return TRUE;
}

