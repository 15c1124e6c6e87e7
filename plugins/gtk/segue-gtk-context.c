/* segue-gtk-context.c — the SEGUE_GTK_ERROR domain, libsegue's errors moved into GErrors, and the
 * one GPU context a process (Docs/Gtk.md, "One GPU context a process"). */
#define G_LOG_DOMAIN "SegueGtk"

#include "segue-gtk-stack-private.h"

/* MARK: - Errors */

G_DEFINE_QUARK (segue-gtk-error-quark, segue_gtk_error)

/* Moves a libsegue error into a GError of SEGUE_GTK_ERROR with the same message and code. */
void
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

segue_context *
shared_context_get (GError **error)
{
  segue_context *context;

  g_mutex_lock (&context_lock);
  if (shared_context == NULL && shared_context_error == NULL)
    {
      segue_error *serr = NULL;

      /* The device and shader cache of the environment, as the segue CLI chooses them
       * ($SEGUE_DEVICE, $SEGUE_CACHE_DIR, …). */
      shared_context = segue_context_create_default (&serr);
      if (shared_context == NULL)
        propagate_segue_error (&shared_context_error, serr, "no Vulkan device");
    }
  context = shared_context;
  if (context == NULL)
    g_propagate_error (error, g_error_copy (shared_context_error));
  g_mutex_unlock (&context_lock);
  return context;
}
