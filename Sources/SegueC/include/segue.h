/*
 * segue.h — the C API of Segue (libsegue.so): GPU view transitions and effects on RGBA8 frames.
 *
 *   cc app.c $(pkg-config --cflags --libs segue)
 *
 * Pixels: RGBA8, straight (unassociated) alpha, 4 bytes a pixel, rows top to bottom, `stride`
 * bytes from the start of one row to the start of the next (stride >= width * 4). Segue renders
 * with premultiplied alpha inside and converts at this boundary exactly as `segue frame` does
 * with PNG files (premultiply rounding to nearest on the way in, unpremultiply on the way out):
 * opaque pixels pass unchanged, semi-transparent ones keep the precision premultiplication keeps.
 *
 * Sizes: 1 to SEGUE_MAX_SIDE pixels a side and at most SEGUE_MAX_PIXELS pixels a frame.
 *
 * Errors: every function that can fail takes `segue_error **error` as its last argument and
 * returns -1 (or NULL). On failure, when `error` is not NULL, `*error` receives a new error whose
 * message (segue_error_message) says what was wrong and whose code (segue_error_code) says what
 * kind of failure it is, for hosts that act on it; the caller frees it with segue_error_free.
 * On success `*error` is left as it was. Pass NULL to get no message. Nothing in this library
 * prints, exits, installs signal handlers, changes SIGPIPE, the environment or the current
 * directory; no Swift error or trap crosses this boundary for bad input. (The Vulkan driver may
 * print its own warnings: Mesa, for one, when it cannot write its shader cache under $HOME.)
 *
 * Threads: a context may be used from several threads at once (GPU submissions are serialised
 * inside). Each transition or effect must be used by one thread at a time; a call that finds its
 * handle busy in another thread fails with an error instead of racing. The getters that cannot
 * fail (segue_transition_duration, segue_transition_progress_at, segue_effect_duration) may be
 * called from any thread, even while another renders or sets the timing: they read a consistent
 * value and do not wait for a frame. Different transitions of one context may render in parallel.
 *
 * fork(): GPU objects do not survive fork() (the device and the driver's threads stay in the
 * parent). In a child, every call on a context, transition or effect created before the fork
 * fails at once with an error whose message names fork() — it never waits on GPU work no thread
 * of the child will do — and destroying such a handle only forgets it. Create a new context (and
 * transitions) in the child: it renders the same pixels. The parent's handles keep working. Some
 * drivers (NVIDIA's) open no device in a child forked while its parent holds a context: there
 * segue_context_create fails in the child with SEGUE_ERROR_FORKED saying so. Create contexts
 * only after forking, or start children with exec (posix_spawn).
 *
 * A lost GPU: when the device is lost (a driver reset, a shader that runs too long) or a frame
 * does not finish within the context's limit (60 s; the environment variable SEGUE_GPU_TIMEOUT,
 * in seconds, read when the context is created: at most a day, 86400 s, which a longer value
 * means; a value that is not a positive finite number leaves 60 s), the render fails with a
 * message naming the effect, and every later render on that context fails at once. Destroy it
 * and its transitions and create a new context. Destroying a transition waits for its frames
 * (at most 60 s, or the context's limit if longer); destroying the last handle of a context whose
 * work failed so waits at most a second more: a thread of the library frees the device when the
 * GPU lets it go (a shader that never ends holds it until the process exits).
 *
 * Versions: libsegue.so.0 (its SONAME) keeps this API and ABI for every 0.x release; symbols
 * carry the version node SEGUE_0. SEGUE_VERSION_* say which header a program was built with,
 * segue_version() which library it runs with.
 *
 * Ownership: a transition or effect keeps its context alive; handles may be destroyed in any
 * order. Strings returned as `const char *` belong to the library (lifetimes given per function);
 * never free them.
 *
 * Text: every string given and returned is NUL-terminated UTF-8. A string given that is not
 * UTF-8 (a file name in Latin-1, say) fails with SEGUE_ERROR_INVALID_ARGUMENT, its bytes shown
 * as \xHH in the message; it is never looked up with the bytes replaced.
 */
#ifndef SEGUE_H
#define SEGUE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The version of this header: the library's it came with (segue_version() at run time). */
#define SEGUE_VERSION_MAJOR 0
#define SEGUE_VERSION_MINOR 2
#define SEGUE_VERSION_PATCH 0
/** Whether this header is at least version major.minor.patch (same major: an API this header has). */
#define SEGUE_CHECK_VERSION(major, minor, patch)                                              \
    (SEGUE_VERSION_MAJOR == (major) &&                                                         \
     (SEGUE_VERSION_MINOR > (minor) || (SEGUE_VERSION_MINOR == (minor) && SEGUE_VERSION_PATCH >= (patch))))

/** The largest width or height accepted, in pixels. */
#define SEGUE_MAX_SIDE 16384
/** The largest number of pixels in one frame (64 Mi: 256 MiB of RGBA8). */
#define SEGUE_MAX_PIXELS (64u * 1024u * 1024u)

/** A GPU device opened for rendering. */
typedef struct segue_context segue_context;
/** A transition between two frames (a shader or a mesh transition), with its parameter values. */
typedef struct segue_transition segue_transition;
/** An effect on one frame (a shader or a mesh applied to one image), with its parameter values. */
typedef struct segue_effect segue_effect;
/** A description of an effect: kind, duration and parameters; needs no GPU. */
typedef struct segue_info segue_info;
/** A failure's message. */
typedef struct segue_error segue_error;

/* MARK: - Errors and version */

/** The library's version, e.g. "0.2.0". Static storage; never NULL. Thread-safe. */
const char *segue_version(void);

/** The message of `error` (UTF-8, no "error:" prefix; a shader compiler's log may add lines);
 *  "" for NULL. Valid until the error is freed. */
const char *segue_error_message(const segue_error *error);

/** Frees an error; NULL is ignored. */
void segue_error_free(segue_error *error);

/** What kind of failure an error is. Values are stable within a major version; a later minor
 *  version may add codes (treat unknown ones as SEGUE_ERROR_INTERNAL). */
typedef enum segue_code {
    SEGUE_OK = 0,                     /**< no error (the code of NULL) */
    SEGUE_ERROR_INVALID_ARGUMENT = 1, /**< NULL, a size, number or value out of range, an unknown parameter */
    SEGUE_ERROR_UNKNOWN_EFFECT = 2,   /**< no built-in effect has that name */
    SEGUE_ERROR_BAD_EFFECT_FILE = 3,  /**< a .glsl or .metal file missing, unreadable or malformed */
    SEGUE_ERROR_COMPILE = 4,          /**< a shader that does not compile (the message has its log) */
    SEGUE_ERROR_UNSUPPORTED = 5,      /**< an effect used as what it is not, or a device that cannot run it */
    SEGUE_ERROR_OUT_OF_MEMORY = 6,    /**< the GPU or the host ran out of memory */
    SEGUE_ERROR_DEVICE_LOST = 7,      /**< the GPU was lost or did not finish in time: make a new context */
    SEGUE_ERROR_NO_DEVICE = 8,        /**< no Vulkan driver, or no device matches the selector */
    SEGUE_ERROR_IO = 9,               /**< a file (an image parameter, the shader cache) cannot be read or written */
    SEGUE_ERROR_BUSY = 10,            /**< the handle is in use by another thread */
    SEGUE_ERROR_FORKED = 11,          /**< the handle was made before fork(), in the parent; or the
                                           driver opens no device in a child forked while its
                                           parent held a context (NVIDIA's) */
    SEGUE_ERROR_INTERNAL = 12         /**< anything else (a bug: please report it with the message) */
} segue_code;

/** The kind of `error` (its message unchanged); SEGUE_OK for NULL. Thread-safe. */
segue_code segue_error_code(const segue_error *error);

/* MARK: - Context */

/**
 * Opens a GPU device. `device`: NULL or "" for the preferred one (discrete GPU, integrated, virtual,
 * then CPU such as lavapipe), all digits for a device index, anything else a case-insensitive
 * substring of its name (as `segue devices` lists them). Compiled shaders are not cached on disk
 * (see segue_context_create_cached). Returns NULL on failure (no Vulkan driver, no such device,
 * a device without Vulkan 1.3). Thread-safe. Destroy with segue_context_destroy.
 */
segue_context *segue_context_create(const char *device, segue_error **error);

/**
 * As segue_context_create, caching compiled shaders (SPIR-V) in the directory `shader_cache_dir`
 * between processes (NULL: no cache; created when missing; failures to use it are not errors).
 * Segue's CLI uses $SEGUE_CACHE_DIR, else $XDG_CACHE_HOME/segue/spirv or ~/.cache/segue/spirv.
 */
segue_context *segue_context_create_cached(const char *device, const char *shader_cache_dir,
                                          segue_error **error);

/**
 * As segue_context_create_cached, with the device and the shader cache Segue's CLI would use in
 * this process's environment: $SEGUE_DEVICE (as `device`; unset or empty: the preferred device),
 * and $SEGUE_CACHE_DIR, else $XDG_CACHE_HOME/segue/spirv, else $HOME/.cache/segue/spirv (none
 * of them set: no cache); $SEGUE_GPU_TIMEOUT as every context reads it. The GTK stack, the frei0r plugins and the Python
 * package open their contexts with it, so a host's environment chooses for all of them alike.
 */
segue_context *segue_context_create_default(segue_error **error);

/** The device's name (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"), valid until the context is
 *  destroyed; "" for NULL. */
const char *segue_context_device_name(const segue_context *context);

/** Releases the caller's reference; the device closes when the last transition or effect made
 *  from it is destroyed too. NULL is ignored. */
void segue_context_destroy(segue_context *context);

/* MARK: - Transitions */

/**
 * A transition by name: a built-in (`fade`, `doom-melt`, `wipe`, `cube`, `page-curl`, …) or an
 * ffmpeg xfade name (`wipeleft`, `circleopen`, …), a path to a `.glsl` file in the gl-transitions
 * format (a name containing '/' or ending in ".glsl"), or `FILE.metal:FUNCTION` (a SwiftUI
 * stitchable function run as the insertion transition with Segue's default configuration; plain
 * `FILE.metal` when the file has one function). Mesh transitions (cube, page-curl, …) render
 * through the same calls. Parameters start at their defaults; the duration at the effect's own.
 * Returns NULL for an unknown effect, an unreadable or invalid file, or an effect that works on one
 * image only (use segue_effect_create). Files are read and parsed here, once; a shader that
 * parses but does not compile is reported by the first render. Thread-safe.
 */
segue_transition *segue_transition_create(segue_context *context, const char *effect, segue_error **error);

/**
 * Sets a parameter, with `value` written as on the command line (`segue frame --param`):
 * "0.5", "1,0" (vectors: components separated by commas; one number fills every component),
 * "true"/"false", integers for int types. A `sampler2D` parameter takes the path of a PNG or JPEG
 * file, read here; "" unsets it again (renders then fail naming it until one is set). Applies from the next render. Returns 0, or -1 for an unknown parameter or a
 * value of the wrong type (NaN and infinities included); the old value is kept then.
 *
 * Array and data arguments of a stitchable function (SwiftUI's floatArray, colorArray, data: the
 * parameter named after the pointer; its int count is filled in) take a list: a `float[]`
 * ("device const float *values, int count") numbers separated by commas, "0.1,0.5,0.9", at most
 * 1024; a `color[]` ("device const half4 *colors, int count") colours "#ff0000,#00ff0080"
 * (#rgb, #rrggbb or #rrggbbaa, straight alpha, premultiplied here) or four numbers r,g,b,a per
 * colour as the shader reads them, at most 512; `bytes` ("device const void *bytes, int size")
 * "@PATH" (the file's bytes, read here), "0x" and hex digits, or numbers 0-255 separated by
 * commas, at most 4096. "" is empty (count 0, the default). A longer value is refused (-1, the
 * message names the argument and the limit) before anything is allocated by its length. Reads
 * past the value in the shader give 0.
 */
int segue_transition_set_param(segue_transition *t, const char *name, const char *value, segue_error **error);

/** The effect's duration in seconds: its own default until set (e.g. fade 1, doom-melt 2, cube
 *  0.5), or a spring's settling time when segue_transition_set_timing gave a spring and no
 *  duration was set. Shaders read it as the `duration` uniform; hosts use it to turn progress into
 *  time. NaN for NULL. */
double segue_transition_duration(const segue_transition *t);

/** Sets the `duration` the shader sees, in seconds (finite, > 0). Returns 0 or -1. */
int segue_transition_set_duration(segue_transition *t, double seconds, segue_error **error);

/**
 * Sets how the transition's progress follows time (segue_transition_progress_at): "linear",
 * "ease-in", "ease-out", "ease-in-out", "default", "cubic-bezier(x1,y1,x2,y2)", or a spring,
 * "spring(response=R,damping-fraction=F)" or "spring(mass=M,stiffness=K,damping=C)"; NULL or ""
 * restores the effect's own (ios-push's is UIKit's push spring, most others' linear). A curve is
 * stretched over the duration; a spring runs in seconds and, when no duration was set, lasts its
 * settling time (segue_transition_duration then says how long). Returns 0, or -1 with
 * SEGUE_ERROR_INVALID_ARGUMENT for text that is no timing (the old timing is kept). Since 0.2.
 */
int segue_transition_set_timing(segue_transition *t, const char *timing, segue_error **error);

/**
 * The progress to render `seconds` into the transition, by its timing and duration: 0 at 0 and
 * before, exactly 1 from segue_transition_duration(t) on; a spring may pass 1 on its way. NaN
 * for NULL or a NaN time. Since 0.2.
 */
double segue_transition_progress_at(const segue_transition *t, double seconds);

/**
 * Renders the frame at `progress` (0 shows `from` exactly, 1 shows `to`; values outside 0…1, as a
 * spring overshoots, are passed to the effect) and `time` seconds since the transition began
 * (time-based effects such as doom-melt move with it; a host with a duration D and progress p
 * passes p * D). `from`, `to` and `out` are width × height RGBA8 straight-alpha frames with rows
 * `stride` bytes apart; `out` may be the same memory as `from` or `to`. A size different from the
 * previous call's works: GPU resources are made per size, those of the 4 most recent sizes kept.
 * Returns 0, or -1 for: a NULL pointer, a zero or too large size, a stride smaller than a row or
 * one whose frame does not fit in memory, NaN or infinite progress or time, a negative time, a
 * sampler2D parameter never set, a GPU failure. Blocks until the frame is in `out`.
 */
int segue_transition_render(segue_transition *t, const uint8_t *from, const uint8_t *to,
                            uint32_t width, uint32_t height, size_t stride,
                            double progress, double time, uint8_t *out, segue_error **error);

/** Frees a transition and its GPU resources. NULL is ignored. Not while it renders. */
void segue_transition_destroy(segue_transition *t);

/* MARK: - Effects on one image */

/**
 * An effect on one frame: a single-image mesh (`curtain`, `bulge`, `jelly`, `ripple`, `ellipse`,
 * `skew`, `flat`), a `FILE.metal:FUNCTION` stitchable function applied as SwiftUI's colorEffect,
 * distortionEffect or layerEffect (its `size`, `bounds` and `time` arguments filled in), a `.glsl`
 * file or a built-in shader transition applied to one image (getFromColor and getToColor both read
 * it). Returns NULL for an unknown effect or a mesh transition (use segue_transition_create).
 */
segue_effect *segue_effect_create(segue_context *context, const char *effect, segue_error **error);

/** As segue_transition_set_param. */
int segue_effect_set_param(segue_effect *e, const char *name, const char *value, segue_error **error);

/** The effect's duration in seconds (its own default until set): a shader effect's `progress` is
 *  time / duration, clamped to 0…1. NaN for NULL. */
double segue_effect_duration(const segue_effect *e);

/** Sets the duration in seconds (finite, > 0). Returns 0 or -1. */
int segue_effect_set_duration(segue_effect *e, double seconds, segue_error **error);

/**
 * Renders `in` through the effect at `time` seconds (finite, >= 0; meshes ignore it) into `out`;
 * both width × height RGBA8 straight alpha with rows `stride` bytes apart (`out` may be `in`).
 * A fill (a stitchable `half4 f(float2 position, …)`: SwiftUI's Shader as a ShapeStyle) draws
 * without an image: `in` may then be NULL (transparent pixels), and when given the fill is drawn
 * over it. A `float time` or `iTime` argument follows `time`.
 * Returns 0 or -1, with the checks of segue_transition_render.
 */
int segue_effect_render(segue_effect *e, const uint8_t *in, uint32_t width, uint32_t height, size_t stride,
                        double time, uint8_t *out, segue_error **error);

/** Frees an effect and its GPU resources. NULL is ignored. Not while it renders. */
void segue_effect_destroy(segue_effect *e);

/* MARK: - Listing and describing effects (no GPU needed; thread-safe) */

/** The number of built-in effects (transitions, mesh transitions and single-image meshes). */
size_t segue_builtin_count(void);

/** The name of built-in `index` (0 ≤ index < segue_builtin_count()), in `segue list` order;
 *  NULL when out of range. Static storage. */
const char *segue_builtin_name(size_t index);

/** What an effect is, as segue_info_kind reports it. */
typedef enum segue_kind {
    /** A shader transition (segue_transition_*); it also applies to one image (segue_effect_*). */
    SEGUE_KIND_TRANSITION = 0,
    /** A mesh transition such as cube or page-curl (segue_transition_*). */
    SEGUE_KIND_MESH_TRANSITION = 1,
    /** An effect on one image only (segue_effect_*): a mesh such as curtain, or a stitchable
     *  function without a float argument to animate. */
    SEGUE_KIND_SINGLE_IMAGE = 2
} segue_kind;

/**
 * Describes the effect `effect` (any name segue_transition_create or segue_effect_create takes):
 * its parameters as segue_transition_create sees them for transitions, as segue_effect_create
 * sees them for single-image effects. Returns NULL with a message for an unknown effect or a bad
 * file. Destroy with segue_info_destroy. All strings returned by segue_info_* functions stay valid
 * until then.
 */
segue_info *segue_info_create(const char *effect, segue_error **error);

/** Frees a description. NULL is ignored. */
void segue_info_destroy(segue_info *info);

/** The effect's name (a file's base name for files); "" for NULL. */
const char *segue_info_name(const segue_info *info);

/** One line saying what it looks like ("" when the source has none, and for NULL). */
const char *segue_info_summary(const segue_info *info);

/** The effect a navigation pop plays instead of playing this one backwards: "ios-pop" for
 *  "ios-push" (and back), a file's `// Reverse:` header; "" when a pop plays this effect
 *  backwards (from the lower screen to the upper at progress 1 - p), and for NULL. Since 0.2. */
const char *segue_info_reverse(const segue_info *info);

/** A segue_kind: SEGUE_KIND_TRANSITION, SEGUE_KIND_MESH_TRANSITION or SEGUE_KIND_SINGLE_IMAGE
 *  (an int, for plain C and ctypes alike); -1 for NULL. */
int segue_info_kind(const segue_info *info);

/** The effect's own timing, as segue_transition_set_timing takes it: "linear" for most,
 *  "spring(mass=3,stiffness=1000,damping=500)" for ios-push and ios-pop, a file's `// Timing:`
 *  header; "" for NULL. A host completing an interaction with the effect's timing passes it to
 *  segue_interaction_complete. Since 0.2. */
const char *segue_info_timing(const segue_info *info);

/** The default duration in seconds (e.g. doom-melt 2); NaN for NULL. */
double segue_info_duration(const segue_info *info);

/** The number of parameters (0 for NULL). */
size_t segue_info_param_count(const segue_info *info);

/** Parameter `index`'s name; NULL when out of range. */
const char *segue_info_param_name(const segue_info *info, size_t index);

/** Parameter `index`'s type as GLSL spells it: "float", "int", "bool", "vec2", "vec3", "vec4",
 *  "ivec2"…"ivec4", "bvec2"…"bvec4", "mat2", "mat3", "mat4" or "sampler2D" (a texture: its value
 *  is an image path); for a stitchable function's array and data arguments "float[]", "color[]"
 *  or "bytes" (values as segue_transition_set_param describes; the default has 0 components).
 *  NULL when out of range. */
const char *segue_info_param_type(const segue_info *info, size_t index);

/** What parameter `index` does ("" when undocumented); NULL when out of range. */
const char *segue_info_param_summary(const segue_info *info, size_t index);

/**
 * Parameter `index`'s default value: its components (1 for scalars, 2–4 for vectors, 4/9/16 for
 * matrices in column-major order; bools as 0 or 1) are written to `values` (at most `capacity` of
 * them). Returns the number of components (0 for a sampler2D), or -1 when out of range.
 */
int segue_info_param_default(const segue_info *info, size_t index, double *values, size_t capacity);

/**
 * The range of parameter `index`'s components, when the effect states one (every built-in does;
 * a .glsl file with `// = DEFAULT in MIN...MAX`): the values it is meant for, a slider's ends.
 * Values outside are still taken (any finite value, as without a range). Returns 1 and sets
 * `*min` and `*max` (either pointer may be NULL); 0 when none is stated; -1 when out of range.
 * Bools report 0…1.
 */
int segue_info_param_range(const segue_info *info, size_t index, double *min, double *max);

/* MARK: - Interactive transitions */

/** A percent-driven transition (segue_interaction_create). */
typedef struct segue_interaction segue_interaction;

/**
 * A transition that a gesture drives, as UIKit's percent-driven interactive transition: it rests
 * at progress 0 until segue_interaction_update moves it; on release it finishes or cancels by the
 * rules `segue navigate`'s edge-drag pop follows. `duration` is the whole transition's, in
 * seconds (finite, > 0): a completion by a curve takes the remaining share of it. It renders
 * nothing: the host renders its transition at segue_interaction_progress. Every call takes the
 * host's clock, `now` in seconds (a frame clock, CLOCK_MONOTONIC; times that go back are taken as
 * the latest). Use one from one thread at a time. Returns NULL for a bad duration. Since 0.2.
 */
segue_interaction *segue_interaction_create(double duration, segue_error **error);

/** The gesture sets the progress (clamped to 0…1; NaN ignored) at `now`, pausing a completion
 *  that runs (a finger that lands again catches it). The updates of the last 100 ms before a
 *  release give its velocity. NULL is ignored. */
void segue_interaction_update(segue_interaction *interaction, double progress, double now);

/**
 * The gesture lets go at `now`: a flick (at least one whole transition per second, from the
 * updates of the last 100 ms) goes the way it points; a slower release finishes past half way and
 * cancels otherwise. It runs on with a critically damped spring (response 0.3 s) that starts at the
 * gesture's speed. Returns 1 when it heads for the end, 0 for the start, -1 for NULL.
 */
int segue_interaction_release(segue_interaction *interaction, double now);

/**
 * Runs on from where it is at `now` to the end (`finish` nonzero) or back to the start, with
 * `timing` as segue_transition_set_timing takes it (NULL or "": "ease-in-out"): a curve over the
 * remaining share of the duration, a spring in its own time. Returns 0, or -1 for a bad timing.
 */
int segue_interaction_complete(segue_interaction *interaction, int finish, const char *timing, double now,
                               segue_error **error);

/** The progress at `now` (a spring may pass 0 or 1 on its way); NaN for NULL. */
double segue_interaction_progress(segue_interaction *interaction, double now);

/** -1 while following the gesture or running on; 0 once it rests at the start (cancelled), 1 at
 *  the end (finished); -1 for NULL. */
int segue_interaction_result(segue_interaction *interaction, double now);

/** Frees an interaction. NULL is ignored. */
void segue_interaction_destroy(segue_interaction *interaction);

#ifdef __cplusplus
}
#endif

#endif /* SEGUE_H */
