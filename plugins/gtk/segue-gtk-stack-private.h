/* segue-gtk-stack-private.h — what the parts of SegueGtkStack share (not installed; the functions
 * here are internal to libsegue-gtk). */
#ifndef SEGUE_GTK_STACK_PRIVATE_H
#define SEGUE_GTK_STACK_PRIVATE_H

#include "segue-gtk.h"

#include <segue.h>

G_BEGIN_DECLS

/* Pixels from the left edge within which a drag pops interactively (UIKit's 20 points). */
#define EDGE_WIDTH 20.0

/* The effects a stack keeps ready (their shaders compiled, GPU resources for 4 sizes each); the
 * least recently used beyond these are dropped (their parameters are kept). */
#define EFFECT_CACHE_SIZE 4
/* The longest transition, in seconds: the duration property's range and its setter's. */
#define MAX_DURATION 3600.0

/* A transition of one effect, made once per stack and kept while it is among the stack's
 * EFFECT_CACHE_SIZE most recently used (or in use). */
typedef struct {
  char *name;
  segue_transition *transition;
  char *reverse;          /* the effect's own reverse ("ios-pop"), or NULL */
  char *timing;           /* the effect's own timing (segue_info_timing: "linear", ios-push's spring) */
  gboolean duration_set;  /* whether segue_transition_set_duration was called on it */
  GPtrArray *params;      /* names and values set, alternating, one value a name (the last set, in
                           * the order of the names' first setting), to set again on a new
                           * transition (borrowed from the stack's effect_params: they outlive the
                           * Effect) */
  char **textures;        /* the names of its sampler2D parameters (an image path each) */
  guint64 last_used;      /* the stack's effect_clock when last asked for */
} Effect;

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
  GHashTable *effects;     /* effect string → Effect *, EFFECT_CACHE_SIZE at most but for those in use */
  GHashTable *effect_params;  /* effect string → GPtrArray of names and values set */
  guint64 effect_clock;
  GtkEventController *input_blocker;  /* stops input to the pages while a transition runs */

  /* The transition, while one runs. */
  gboolean running;
  guint navigations;       /* navigations begun (animated or at once): make_way compares them */
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
  GskRenderNode *captured[2];      /* the page nodes drawn into from_pixels and to_pixels, or NULL */
  guint captured_width;            /* the size and scale they were drawn at */
  guint captured_height;
  int captured_scale;
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

extern GParamSpec *stack_properties[N_PROPS] G_GNUC_INTERNAL;
extern guint stack_signals[N_SIGNALS] G_GNUC_INTERNAL;

static inline double
now_seconds (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

/* segue-gtk-context.c */
G_GNUC_INTERNAL void propagate_segue_error (GError **error, segue_error *serr, const char *fallback);
G_GNUC_INTERNAL segue_context *shared_context_get (GError **error);

/* segue-gtk-effects.c */
G_GNUC_INTERNAL void effect_free (gpointer data);
G_GNUC_INTERNAL Effect *effect_get (SegueGtkStack *self, const char *name, GError **error);
G_GNUC_INTERNAL gboolean effect_apply_timing (SegueGtkStack *self, Effect *effect, const char *timing,
                                              GError **error);
G_GNUC_INTERNAL gboolean effect_check_textures (Effect *effect, GError **error);

/* segue-gtk-stack.c */
G_GNUC_INTERNAL Page *find_page_by_name (SegueGtkStack *self, const char *name);
G_GNUC_INTERNAL void update_child_visibility (SegueGtkStack *self);
G_GNUC_INTERNAL void set_visible_page (SegueGtkStack *self, Page *page);
G_GNUC_INTERNAL void set_progress (SegueGtkStack *self, double progress);

/* segue-gtk-transition.c */
G_GNUC_INTERNAL Page *back_stack_top (SegueGtkStack *self);
G_GNUC_INTERNAL Page *back_stack_below_top (SegueGtkStack *self);
G_GNUC_INTERNAL void back_stack_collapse (SegueGtkStack *self);
G_GNUC_INTERNAL void end_transition (SegueGtkStack *self, gboolean finished, gboolean emit);
G_GNUC_INTERNAL gboolean transition_headed_to_end (SegueGtkStack *self);
G_GNUC_INTERNAL gboolean make_way (SegueGtkStack *self);
G_GNUC_INTERNAL const char *animation_blocker (SegueGtkStack *self);
G_GNUC_INTERNAL gboolean start_transition (SegueGtkStack *self, Page *to, MotionKind kind, gboolean interactive);
G_GNUC_INTERNAL void advance (SegueGtkStack *self, double now);

/* segue-gtk-frame.c */
G_GNUC_INTERNAL void frame_cache_clear (SegueGtkStack *self);
G_GNUC_INTERNAL void stack_snapshot (GtkWidget *widget, GtkSnapshot *snapshot);

/* segue-gtk-interactive.c */
G_GNUC_INTERNAL void swipe_init (SegueGtkStack *self);
G_GNUC_INTERNAL void input_blocker_init (SegueGtkStack *self);

G_END_DECLS

#endif /* SEGUE_GTK_STACK_PRIVATE_H */
