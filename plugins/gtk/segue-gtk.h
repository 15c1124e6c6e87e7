/* segue-gtk.h — Segue transitions between the live widgets of a GTK 4 app (libsegue-gtk).
 *
 *   cc app.c $(pkg-config --cflags --libs segue-gtk)
 *
 * SegueGtkStack is a container of named pages, like GtkStack, that runs any Segue effect (a
 * built-in, an ffmpeg xfade name, a mesh transition such as cube, a gl-transitions .glsl file, a
 * SwiftUI stitchable FILE.metal:NAME) between its pages while both keep living: every frame of a
 * transition draws both pages as they are at that moment. See Docs/Gtk.md.
 *
 * A call that ends a running transition (a push, a pop, a switch, begin_interactive, removing one
 * of its pages, hiding the stack) emits its ::transition-done first, and a handler may do anything
 * there, close the window included. When the handler navigates (push, pop, a switch,
 * begin_interactive), its navigation stands: the call that ended the transition is dropped (push,
 * pop and begin_interactive return FALSE) and every navigation that returned TRUE gets its own
 * ::transition-done. Other changes a handler makes (a page removed, the stack hidden, the window
 * closed) are taken as they are: the call goes on with the stack as the handler left it (a stack no
 * longer on screen switches at once). The back stack never holds a page twice in a row.
 */
#ifndef SEGUE_GTK_H
#define SEGUE_GTK_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * SEGUE_GTK_ERROR:
 *
 * The error domain of libsegue-gtk: its codes are Segue's (#SegueGtkError), its messages
 * Segue's own.
 */
#define SEGUE_GTK_ERROR (segue_gtk_error_quark ())

/**
 * SegueGtkError:
 * @SEGUE_GTK_ERROR_INVALID_ARGUMENT: a value out of range, an unknown parameter or page
 * @SEGUE_GTK_ERROR_UNKNOWN_EFFECT: no built-in effect has that name
 * @SEGUE_GTK_ERROR_BAD_EFFECT_FILE: a .glsl or .metal file missing, unreadable or malformed
 * @SEGUE_GTK_ERROR_COMPILE: a shader that does not compile (the message has its log)
 * @SEGUE_GTK_ERROR_UNSUPPORTED: an effect that is not a transition, or a device that cannot run it
 * @SEGUE_GTK_ERROR_OUT_OF_MEMORY: the GPU or the host ran out of memory
 * @SEGUE_GTK_ERROR_DEVICE_LOST: the GPU was lost or did not finish in time
 * @SEGUE_GTK_ERROR_NO_DEVICE: no Vulkan driver or device
 * @SEGUE_GTK_ERROR_IO: a file cannot be read
 * @SEGUE_GTK_ERROR_BUSY: the transition is in use by another thread
 * @SEGUE_GTK_ERROR_FORKED: the GPU objects were made before fork()
 * @SEGUE_GTK_ERROR_INTERNAL: anything else (a bug)
 *
 * What kind of failure a #SEGUE_GTK_ERROR is: the values of libsegue's `segue_code`.
 */
typedef enum {
  SEGUE_GTK_ERROR_INVALID_ARGUMENT = 1,
  SEGUE_GTK_ERROR_UNKNOWN_EFFECT = 2,
  SEGUE_GTK_ERROR_BAD_EFFECT_FILE = 3,
  SEGUE_GTK_ERROR_COMPILE = 4,
  SEGUE_GTK_ERROR_UNSUPPORTED = 5,
  SEGUE_GTK_ERROR_OUT_OF_MEMORY = 6,
  SEGUE_GTK_ERROR_DEVICE_LOST = 7,
  SEGUE_GTK_ERROR_NO_DEVICE = 8,
  SEGUE_GTK_ERROR_IO = 9,
  SEGUE_GTK_ERROR_BUSY = 10,
  SEGUE_GTK_ERROR_FORKED = 11,
  SEGUE_GTK_ERROR_INTERNAL = 12
} SegueGtkError;

GQuark segue_gtk_error_quark (void);

/**
 * SegueGtkFrameTimings:
 * @frames: frames drawn by the current or last transition
 * @width: the width of the last frame, in pixels
 * @height: the height of the last frame, in pixels
 * @snapshot_ms: the last frame's time spent snapshotting both pages into render nodes
 * @render_ms: drawing the pages' nodes with cairo straight into the stack's buffers (a page
 *   whose node did not change since the last frame is not drawn again)
 * @download_ms: always 0: the pages are drawn into memory and there is no texture to download
 *   (the field stays for compatibility: the first version rendered them with the window's
 *   #GskRenderer and downloaded the textures)
 * @swizzle_ms: converting the pages drawn from premultiplied BGRA to Segue's RGBA, and the result
 *   back
 * @segue_ms: segue_transition_render: upload, the effect on the GPU, readback
 * @texture_ms: wrapping the result as a #GdkMemoryTexture (no copy) and appending it
 * @total_ms: the whole frame inside the widget's snapshot
 * @bytes_copied: bytes the last frame copied between GTK and Segue on the CPU
 *
 * Where the time of a transition frame goes, and how many bytes it copies, for benchmarks and
 * for apps that want to know (see Docs/Gtk.md for the copies). Times in milliseconds.
 */
typedef struct {
  guint frames;
  guint width;
  guint height;
  double snapshot_ms;
  double render_ms;
  double download_ms;
  double swizzle_ms;
  double segue_ms;
  double texture_ms;
  double total_ms;
  guint64 bytes_copied;
} SegueGtkFrameTimings;

#define SEGUE_GTK_TYPE_STACK (segue_gtk_stack_get_type ())
G_DECLARE_FINAL_TYPE (SegueGtkStack, segue_gtk_stack, SEGUE_GTK, STACK, GtkWidget)

GtkWidget  *segue_gtk_stack_new                    (void);

void        segue_gtk_stack_add_named              (SegueGtkStack *stack,
                                                    GtkWidget     *child,
                                                    const char    *name);
void        segue_gtk_stack_remove                 (SegueGtkStack *stack,
                                                    GtkWidget     *child);
GtkWidget  *segue_gtk_stack_get_child_by_name      (SegueGtkStack *stack,
                                                    const char    *name);

GtkWidget  *segue_gtk_stack_get_visible_child      (SegueGtkStack *stack);
const char *segue_gtk_stack_get_visible_child_name (SegueGtkStack *stack);
void        segue_gtk_stack_set_visible_child_name (SegueGtkStack *stack,
                                                    const char    *name);

gboolean    segue_gtk_stack_push                   (SegueGtkStack *stack,
                                                    const char    *name);
gboolean    segue_gtk_stack_pop                    (SegueGtkStack *stack);
guint       segue_gtk_stack_get_depth              (SegueGtkStack *stack);

gboolean    segue_gtk_stack_set_effect             (SegueGtkStack *stack,
                                                    const char    *effect,
                                                    GError       **error);
const char *segue_gtk_stack_get_effect             (SegueGtkStack *stack);
void        segue_gtk_stack_set_duration           (SegueGtkStack *stack,
                                                    double         seconds);
double      segue_gtk_stack_get_duration           (SegueGtkStack *stack);
gboolean    segue_gtk_stack_set_timing             (SegueGtkStack *stack,
                                                    const char    *timing,
                                                    GError       **error);
const char *segue_gtk_stack_get_timing             (SegueGtkStack *stack);
gboolean    segue_gtk_stack_set_param              (SegueGtkStack *stack,
                                                    const char    *name,
                                                    const char    *value,
                                                    GError       **error);

gboolean    segue_gtk_stack_get_transition_running (SegueGtkStack *stack);
double      segue_gtk_stack_get_progress           (SegueGtkStack *stack);

gboolean    segue_gtk_stack_begin_interactive      (SegueGtkStack *stack,
                                                    const char    *name);
void        segue_gtk_stack_update_interactive     (SegueGtkStack *stack,
                                                    double         progress);
void        segue_gtk_stack_finish_interactive     (SegueGtkStack *stack);
void        segue_gtk_stack_cancel_interactive     (SegueGtkStack *stack);

void        segue_gtk_stack_set_swipe_back         (SegueGtkStack *stack,
                                                    gboolean       enabled);
gboolean    segue_gtk_stack_get_swipe_back         (SegueGtkStack *stack);

void        segue_gtk_stack_get_frame_timings      (SegueGtkStack        *stack,
                                                    SegueGtkFrameTimings *timings);

G_END_DECLS

#endif /* SEGUE_GTK_H */
