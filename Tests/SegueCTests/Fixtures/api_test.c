/*
 * A C host of libsegue, built by SegueCTests against the INSTALLED header and pkg-config file:
 *
 *   cc api_test.c $(pkg-config --cflags --libs segue) -lpthread -o api_test
 *
 *   api_test render IN_DIR OUT_DIR GLSL METAL_TRANSITION METAL_EFFECT
 *       Reads IN_DIR/from-WxH.rgba and IN_DIR/to-WxH.rgba (tightly packed straight RGBA8) for
 *       64x40 and 37x23, renders a list of jobs from TWO threads on ONE context (rows padded to
 *       odd strides, sizes changing on one transition, out aliasing an input), writes each frame
 *       tightly packed to OUT_DIR/NAME.rgba and one line per frame to OUT_DIR/manifest.txt:
 *       NAME<TAB>KIND<TAB>EFFECT<TAB>W<TAB>H<TAB>PROGRESS<TAB>TIME<TAB>DURATION<TAB>PARAMS
 *       (KIND transition|effect; PARAMS name=value joined by ';', or '-'). Checks that the
 *       dispositions of SIGINT, SIGTERM and SIGPIPE are unchanged by the library. The context
 *       caches compiled shaders in OUT_DIR/spirv.
 *   api_test errors LUMA_GLSL
 *       Every bad input returns -1 or NULL with a non-empty message (and works with error NULL);
 *       LUMA_GLSL is a transition with a sampler2D parameter `luma`.
 *   api_test info GLSL METAL_TRANSITION
 *       Listing and describing effects.
 *   api_test arrays ARRAYS_METAL
 *       A float array argument (Tests/Fixtures/stitchable/Arrays.metal:spectrum) set as text:
 *       frames against a computation here, count 0, a list past the limit refused.
 *
 * Exits 0 when every check passed; otherwise prints each failed check to stderr and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <segue.h>

static int failures = 0;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(condition, ...)                                                      \
    do {                                                                           \
        if (!(condition)) {                                                        \
            pthread_mutex_lock(&report_lock);                                      \
            fprintf(stderr, "api_test.c:%d: check failed: %s: ", __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            failures++;                                                            \
            pthread_mutex_unlock(&report_lock);                                    \
        }                                                                          \
    } while (0)

/* MARK: - Frames */

typedef struct {
    uint32_t width, height;
    size_t stride;
    uint8_t *from, *to; /* strided copies of the inputs */
} inputs;

static uint8_t *read_file(const char *path, size_t expected) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(expected);
    size_t n = data ? fread(data, 1, expected, f) : 0;
    fclose(f);
    if (n != expected) { free(data); return NULL; }
    return data;
}

/* The tightly packed file laid out with rows `stride` bytes apart (padding bytes set to 0xA5). */
static uint8_t *strided(const uint8_t *packed, uint32_t w, uint32_t h, size_t stride) {
    uint8_t *out = malloc(stride * h);
    memset(out, 0xA5, stride * h);
    for (uint32_t y = 0; y < h; y++) memcpy(out + y * stride, packed + (size_t)y * w * 4, (size_t)w * 4);
    return out;
}

static int load_inputs(const char *dir, uint32_t w, uint32_t h, size_t stride, inputs *in) {
    char path[4096];
    size_t bytes = (size_t)w * h * 4;
    snprintf(path, sizeof path, "%s/from-%ux%u.rgba", dir, w, h);
    uint8_t *a = read_file(path, bytes);
    snprintf(path, sizeof path, "%s/to-%ux%u.rgba", dir, w, h);
    uint8_t *b = read_file(path, bytes);
    if (!a || !b) { fprintf(stderr, "cannot read the inputs of %ux%u in %s\n", w, h, dir); free(a); free(b); return -1; }
    in->width = w; in->height = h; in->stride = stride;
    in->from = strided(a, w, h, stride);
    in->to = strided(b, w, h, stride);
    free(a); free(b);
    return 0;
}

static void free_inputs(inputs *in) { free(in->from); free(in->to); }

/* MARK: - Output */

static const char *out_dir;
static FILE *manifest;

/* Writes `frame` (rows `stride` apart) tightly packed to OUT_DIR/NAME.rgba and a manifest line;
 * checks that the padding between rows was left alone. */
static void save(const char *name, const char *kind, const char *effect, const char *params,
                 const inputs *in, const uint8_t *frame, double progress, double time, double duration) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.rgba", out_dir, name);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f) return;
    for (uint32_t y = 0; y < in->height; y++) {
        fwrite(frame + y * in->stride, 1, (size_t)in->width * 4, f);
        for (size_t x = (size_t)in->width * 4; x < in->stride; x++)
            CHECK(frame[y * in->stride + x] == 0xA5, "%s: padding byte %zu of row %u was overwritten", name, x, y);
    }
    fclose(f);
    pthread_mutex_lock(&report_lock);
    fprintf(manifest, "%s\t%s\t%s\t%u\t%u\t%.17g\t%.17g\t%.17g\t%s\n", name, kind, effect, in->width, in->height,
            progress, time, duration, params && *params ? params : "-");
    pthread_mutex_unlock(&report_lock);
}

/* MARK: - Jobs */

typedef struct {
    segue_context *context;
    const char *in_dir, *glsl, *metal_transition, *metal_effect;
    int thread;
} job_args;

static void set_params(segue_transition *t, const char *name, const char *params) {
    /* params: "a=1;b=0,1" */
    char copy[512];
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save_ptr = NULL, *item = strtok_r(copy, ";", &save_ptr); item; item = strtok_r(NULL, ";", &save_ptr)) {
        char *eq = strchr(item, '=');
        if (!eq) continue;
        *eq = 0;
        segue_error *e = NULL;
        int rc = segue_transition_set_param(t, item, eq + 1, &e);
        CHECK(rc == 0, "%s: set %s=%s: %s", name, item, eq + 1, segue_error_message(e));
        segue_error_free(e);
    }
}

/* Renders `effect` at each (size, progress) in turn on ONE transition; time = progress × duration,
 * as `segue frame --progress` passes it. `alias` renders into the from buffer itself. */
static void transition_job(job_args *a, const char *name, const char *effect, const char *params,
                           int count, const uint32_t sizes[][2], const double progresses[], size_t pad, int alias) {
    segue_error *e = NULL;
    segue_transition *t = segue_transition_create(a->context, effect, &e);
    CHECK(t != NULL, "create %s: %s", effect, segue_error_message(e));
    segue_error_free(e);
    if (!t) return;
    if (params) set_params(t, name, params);
    double duration = segue_transition_duration(t);
    CHECK(duration > 0, "%s: duration %g", name, duration);
    for (int i = 0; i < count; i++) {
        inputs in;
        if (load_inputs(a->in_dir, sizes[i][0], sizes[i][1], (size_t)sizes[i][0] * 4 + pad, &in) != 0) { failures++; break; }
        uint8_t *out = alias ? in.from : malloc(in.stride * in.height);
        if (!alias) memset(out, 0xA5, in.stride * in.height);
        double progress = progresses[i], time = progress * duration;
        e = NULL;
        int rc = segue_transition_render(t, in.from, in.to, in.width, in.height, in.stride, progress, time, out, &e);
        CHECK(rc == 0, "%s render %d: %s", name, i, segue_error_message(e));
        segue_error_free(e);
        char frame_name[256];
        snprintf(frame_name, sizeof frame_name, "%s-%d", name, i);
        if (rc == 0) save(frame_name, "transition", effect, params, &in, out, progress, time, duration);
        if (!alias) free(out);
        free_inputs(&in);
    }
    segue_transition_destroy(t);
}

/* Renders `effect` on the from image of a size at `time`. */
static void effect_job(job_args *a, const char *name, const char *effect, const char *params, uint32_t w, uint32_t h,
                       double time, size_t pad) {
    segue_error *e = NULL;
    segue_effect *fx = segue_effect_create(a->context, effect, &e);
    CHECK(fx != NULL, "create effect %s: %s", effect, segue_error_message(e));
    segue_error_free(e);
    if (!fx) return;
    if (params) {
        char copy[512];
        snprintf(copy, sizeof copy, "%s", params);
        for (char *sp = NULL, *item = strtok_r(copy, ";", &sp); item; item = strtok_r(NULL, ";", &sp)) {
            char *eq = strchr(item, '=');
            if (!eq) continue;
            *eq = 0;
            e = NULL;
            CHECK(segue_effect_set_param(fx, item, eq + 1, &e) == 0, "%s: %s", name, segue_error_message(e));
            segue_error_free(e);
        }
    }
    inputs in;
    if (load_inputs(a->in_dir, w, h, (size_t)w * 4 + pad, &in) != 0) { failures++; segue_effect_destroy(fx); return; }
    uint8_t *out = malloc(in.stride * h);
    memset(out, 0xA5, in.stride * h);
    e = NULL;
    int rc = segue_effect_render(fx, in.from, w, h, in.stride, time, out, &e);
    CHECK(rc == 0, "%s: %s", name, segue_error_message(e));
    segue_error_free(e);
    if (rc == 0) save(name, "effect", effect, params, &in, out, 0, time, segue_effect_duration(fx));
    free(out);
    free_inputs(&in);
    segue_effect_destroy(fx);
}

static const uint32_t big[][2] = {{64, 40}, {37, 23}, {64, 40}};
static const uint32_t big1[][2] = {{64, 40}, {64, 40}};
static const uint32_t small1[][2] = {{37, 23}};
static const uint32_t mixed[][2] = {{64, 40}, {37, 23}};

static void *thread_a(void *p) {
    job_args *a = p;
    /* Sizes change on one transition (64x40 → 37x23 → 64x40 again), rows 3 bytes longer than pixels. */
    transition_job(a, "fade", "fade", NULL, 3, big, (const double[]){0.3, 0.7, 0.5}, 3, 0);
    transition_job(a, "wipe", "wipe", "direction=0,1;smoothness=0.2", 1, big1, (const double[]){0.45}, 3, 0);
    transition_job(a, "cube", "cube", NULL, 2, mixed, (const double[]){0.4, 0.6}, 3, 0);
    effect_job(a, "bulge", "bulge", "radius=30", 64, 40, 0, 3);
    return NULL;
}

static void *thread_b(void *p) {
    job_args *a = p;
    char metal_effect[4200];
    snprintf(metal_effect, sizeof metal_effect, "%s", a->metal_effect);
    /* doom-melt moves with time (progress × its 2 s); out is the from buffer itself. */
    transition_job(a, "doom-melt", "doom-melt", NULL, 2, big1, (const double[]){0.5, 0.8}, 16, 1);
    transition_job(a, "glsl", a->glsl, "tint=0,0,1,1", 1, small1, (const double[]){0.25}, 16, 0);
    transition_job(a, "metal", a->metal_transition, "windSize=0.3", 1, big1, (const double[]){0.5}, 16, 0);
    effect_job(a, "ripple", metal_effect, "amplitude=3", 64, 40, 0.4, 16);
    return NULL;
}

/* MARK: - Signals */

static void noted(int sig) { (void)sig; }

static int same_action(int sig, const struct sigaction *before) {
    struct sigaction now;
    sigaction(sig, NULL, &now);
    return now.sa_handler == before->sa_handler && now.sa_flags == before->sa_flags;
}

static int render_mode(int argc, char **argv) {
    if (argc != 7) { fprintf(stderr, "usage: api_test render IN_DIR OUT_DIR GLSL METAL_TRANSITION METAL_EFFECT\n"); return 2; }
    out_dir = argv[3];
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.txt", out_dir);
    manifest = fopen(path, "w");
    if (!manifest) { fprintf(stderr, "cannot write %s\n", path); return 2; }

    /* Our own handlers: the library must leave every one of them as it is. */
    int signals[] = {SIGINT, SIGTERM, SIGPIPE};
    struct sigaction before[3];
    for (int i = 0; i < 3; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = noted;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
        sigaction(signals[i], NULL, &before[i]);
    }

    /* Compiled shaders are cached in OUT_DIR/spirv (created by the library). */
    segue_error *e = NULL;
    snprintf(path, sizeof path, "%s/spirv", out_dir);
    segue_context *context = segue_context_create_cached(NULL, path, &e);
    CHECK(context != NULL, "context: %s", segue_error_message(e));
    segue_error_free(e);
    if (!context) return 1;
    for (int i = 0; i < 3; i++) CHECK(same_action(signals[i], &before[i]), "signal %d changed by segue_context_create", signals[i]);

    job_args a = {context, argv[2], argv[4], argv[5], argv[6], 0}, b = a;
    b.thread = 1;
    pthread_t ta, tb;
    pthread_create(&ta, NULL, thread_a, &a);
    pthread_create(&tb, NULL, thread_b, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    for (int i = 0; i < 3; i++) CHECK(same_action(signals[i], &before[i]), "signal %d changed by rendering", signals[i]);
    segue_context_destroy(context);
    for (int i = 0; i < 3; i++) CHECK(same_action(signals[i], &before[i]), "signal %d changed by segue_context_destroy", signals[i]);
    fclose(manifest);
    return failures ? 1 : 0;
}

/* MARK: - Errors */

/* `rc` is a failure with a non-empty message containing `part` (NULL: any); frees the error. */
#define EXPECT_FAIL(call, failed, part)                                                        \
    do {                                                                                       \
        segue_error *err_ = NULL;                                                              \
        segue_error **error = &err_;                                                           \
        int failed_ = failed(call);                                                          \
        const char *m_ = segue_error_message(err_);                                            \
        CHECK(failed_, "%s did not fail", #call);                                              \
        CHECK(err_ != NULL && m_ && *m_, "%s: no message", #call);                            \
        if ((part) && m_) CHECK(strstr(m_, (part)) != NULL, "%s: message '%s' lacks '%s'", #call, m_, (const char *)(part)); \
        segue_error_free(err_);                                                                \
        error = NULL; /* and again with no error to fill */                                    \
        CHECK(failed(call), "%s with error NULL did not fail", #call);                       \
    } while (0)

#define IS_MINUS1(x) ((x) == -1)
#define IS_NULL(x) ((x) == NULL)

/* A context on the preferred device with the fade transition and the bulge effect; 0 when all
 * three were made. */
static int open_fade_and_bulge(segue_context **context, segue_transition **t, segue_effect **fx) {
    segue_error *e = NULL;
    *context = segue_context_create(NULL, &e);
    CHECK(*context != NULL, "context: %s", segue_error_message(e));
    segue_error_free(e);
    if (!*context) return 1;
    *t = segue_transition_create(*context, "fade", NULL);
    *fx = segue_effect_create(*context, "bulge", NULL);
    CHECK(*t && *fx, "fade and bulge");
    return *t && *fx ? 0 : 1;
}

static int errors_mode(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: api_test errors LUMA_GLSL\n"); return 2; }
    const char *luma_glsl = argv[2];
    segue_context *context = NULL;
    segue_transition *t = NULL;
    segue_effect *fx = NULL;
    if (open_fade_and_bulge(&context, &t, &fx) != 0) return 1;
    segue_error *e = NULL;
    uint8_t a[16 * 4 * 4], b[16 * 4 * 4], out[16 * 4 * 4];
    memset(a, 0, sizeof a); memset(b, 255, sizeof b);
    for (size_t i = 3; i < sizeof a; i += 4) a[i] = 255; /* opaque black and white */

    CHECK(strlen(segue_version()) > 0, "version");
    CHECK(strlen(segue_context_device_name(context)) > 0 && strcmp(segue_context_device_name(NULL), "") == 0, "device name");
    CHECK(strcmp(segue_error_message(NULL), "") == 0, "message of NULL");
    segue_error_free(NULL);

    /* Contexts and lookups. */
    EXPECT_FAIL(segue_context_create("no-such-device-xyz", error), IS_NULL, "no-such-device-xyz");
    EXPECT_FAIL(segue_transition_create(NULL, "fade", error), IS_NULL, "context");
    EXPECT_FAIL(segue_transition_create(context, NULL, error), IS_NULL, "effect");
    EXPECT_FAIL(segue_transition_create(context, "no-such-effect", error), IS_NULL, "no-such-effect");
    EXPECT_FAIL(segue_transition_create(context, "/no/such/file.glsl", error), IS_NULL, "/no/such/file.glsl");
    EXPECT_FAIL(segue_transition_create(context, "curtain", error), IS_NULL, "segue_effect_create");
    EXPECT_FAIL(segue_effect_create(context, "cube", error), IS_NULL, "segue_transition_create");
    EXPECT_FAIL(segue_effect_create(NULL, "bulge", error), IS_NULL, "context");
    EXPECT_FAIL(segue_effect_create(context, "no-such-effect", error), IS_NULL, "no-such-effect");
    EXPECT_FAIL(segue_info_create("no-such-effect", error), IS_NULL, "no-such-effect");
    EXPECT_FAIL(segue_info_create(NULL, error), IS_NULL, "effect");

    /* Parameters. */
    EXPECT_FAIL(segue_transition_set_param(NULL, "x", "1", error), IS_MINUS1, "transition");
    EXPECT_FAIL(segue_transition_set_param(t, NULL, "1", error), IS_MINUS1, "name");
    EXPECT_FAIL(segue_transition_set_param(t, "x", NULL, error), IS_MINUS1, "value");
    EXPECT_FAIL(segue_transition_set_param(t, "nope", "1", error), IS_MINUS1, "nope");
    segue_transition *wipe = segue_transition_create(context, "wipe", NULL);
    CHECK(wipe != NULL, "wipe");
    EXPECT_FAIL(segue_transition_set_param(wipe, "smoothness", "abc", error), IS_MINUS1, "smoothness");
    EXPECT_FAIL(segue_transition_set_param(wipe, "smoothness", "nan", error), IS_MINUS1, "finite");
    EXPECT_FAIL(segue_transition_set_param(wipe, "smoothness", "inf", error), IS_MINUS1, "finite");
    EXPECT_FAIL(segue_transition_set_param(wipe, "direction", "1,2,3", error), IS_MINUS1, "direction");
    EXPECT_FAIL(segue_effect_set_param(fx, "nope", "1", error), IS_MINUS1, "nope");
    EXPECT_FAIL(segue_effect_set_param(NULL, "radius", "1", error), IS_MINUS1, "effect");
    EXPECT_FAIL(segue_transition_set_duration(t, 0, error), IS_MINUS1, "duration");
    EXPECT_FAIL(segue_transition_set_duration(t, -1, error), IS_MINUS1, "duration");
    EXPECT_FAIL(segue_transition_set_duration(t, NAN, error), IS_MINUS1, "duration");
    EXPECT_FAIL(segue_transition_set_duration(t, INFINITY, error), IS_MINUS1, "duration");
    EXPECT_FAIL(segue_effect_set_duration(fx, NAN, error), IS_MINUS1, "duration");
    CHECK(segue_transition_duration(t) == 1.0, "fade's duration kept: %g", segue_transition_duration(t));

    /* Frames: pointers, sizes, strides, numbers. Nothing here may read the 16x4 buffers beyond their end. */
    EXPECT_FAIL(segue_transition_render(NULL, a, b, 16, 4, 64, 0.5, 0, out, error), IS_MINUS1, "transition");
    EXPECT_FAIL(segue_transition_render(t, NULL, b, 16, 4, 64, 0.5, 0, out, error), IS_MINUS1, "from");
    EXPECT_FAIL(segue_transition_render(t, a, NULL, 16, 4, 64, 0.5, 0, out, error), IS_MINUS1, "to");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, 0.5, 0, NULL, error), IS_MINUS1, "out");
    EXPECT_FAIL(segue_transition_render(t, a, b, 0, 4, 64, 0.5, 0, out, error), IS_MINUS1, "empty");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 0, 64, 0.5, 0, out, error), IS_MINUS1, "empty");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16385, 4, 16385 * 4, 0.5, 0, out, error), IS_MINUS1, "16384");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 16385, 64, 0.5, 0, out, error), IS_MINUS1, "16384");
    EXPECT_FAIL(segue_transition_render(t, a, b, 0xFFFFFFFFu, 0xFFFFFFFFu, 64, 0.5, 0, out, error), IS_MINUS1, "16384");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16384, 16384, 16384 * 4, 0.5, 0, out, error), IS_MINUS1, "pixels");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 63, 0.5, 0, out, error), IS_MINUS1, "stride");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 0, 0.5, 0, out, error), IS_MINUS1, "stride");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, SIZE_MAX, 0.5, 0, out, error), IS_MINUS1, "stride");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, SIZE_MAX / 2, 0.5, 0, out, error), IS_MINUS1, "stride");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, NAN, 0, out, error), IS_MINUS1, "progress");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, INFINITY, 0, out, error), IS_MINUS1, "progress");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, -INFINITY, 0, out, error), IS_MINUS1, "progress");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, 0.5, NAN, out, error), IS_MINUS1, "time");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, 0.5, INFINITY, out, error), IS_MINUS1, "time");
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 4, 64, 0.5, -1, out, error), IS_MINUS1, "time");
    EXPECT_FAIL(segue_effect_render(NULL, a, 16, 4, 64, 0, out, error), IS_MINUS1, "effect");
    EXPECT_FAIL(segue_effect_render(fx, NULL, 16, 4, 64, 0, out, error), IS_MINUS1, "in");
    EXPECT_FAIL(segue_effect_render(fx, a, 16, 4, 64, 0, NULL, error), IS_MINUS1, "out");
    EXPECT_FAIL(segue_effect_render(fx, a, 0, 4, 64, 0, out, error), IS_MINUS1, "empty");
    EXPECT_FAIL(segue_effect_render(fx, a, 16, 4, 8, 0, out, error), IS_MINUS1, "stride");
    EXPECT_FAIL(segue_effect_render(fx, a, 16, 4, 64, NAN, out, error), IS_MINUS1, "time");
    EXPECT_FAIL(segue_effect_render(fx, a, 16, 4, 64, -0.5, out, error), IS_MINUS1, "time");

    /* A texture parameter never set, then one that cannot be read. */
    segue_transition *luma = segue_transition_create(context, luma_glsl, &e);
    CHECK(luma != NULL, "%s: %s", luma_glsl, segue_error_message(e));
    segue_error_free(e);
    e = NULL;
    if (luma) {
        EXPECT_FAIL(segue_transition_render(luma, a, b, 16, 4, 64, 0.5, 0, out, error), IS_MINUS1, "luma");
        EXPECT_FAIL(segue_transition_set_param(luma, "luma", "/no/such/image.png", error), IS_MINUS1, "/no/such/image.png");
        segue_transition_destroy(luma);
    }

    /* After all that, the handles still work; a transition outlives its context's handle. */
    e = NULL;
    CHECK(segue_transition_render(t, a, b, 16, 4, 64, 0.5, 0.5, out, &e) == 0, "fade after errors: %s", segue_error_message(e));
    segue_error_free(e);
    CHECK(out[0] >= 127 && out[0] <= 128 && out[3] == 255, "fade 0.5 of black and white: %d %d", out[0], out[3]);
    segue_context_destroy(context);
    e = NULL;
    CHECK(segue_transition_render(t, a, b, 16, 4, 64, 1, 1, out, &e) == 0, "fade after the context handle is gone: %s", segue_error_message(e));
    segue_error_free(e);
    CHECK(out[0] == 255, "fade at 1 shows to: %d", out[0]);
    CHECK(segue_effect_render(fx, a, 16, 4, 64, 0, out, NULL) == 0, "bulge after the context handle is gone");
    segue_transition_destroy(t);
    segue_transition_destroy(wipe);
    segue_effect_destroy(fx);
    segue_transition_destroy(NULL);
    segue_effect_destroy(NULL);
    segue_context_destroy(NULL);
    segue_info_destroy(NULL);
    return failures ? 1 : 0;
}

/* MARK: - Info */

static int has_builtin(const char *name) {
    for (size_t i = 0; i < segue_builtin_count(); i++)
        if (strcmp(segue_builtin_name(i), name) == 0) return 1;
    return 0;
}

static int info_mode(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: api_test info GLSL METAL_TRANSITION\n"); return 2; }
    size_t n = segue_builtin_count();
    CHECK(n > 60, "%zu built-ins", n);
    CHECK(segue_builtin_name(n) == NULL, "name past the end");
    CHECK(has_builtin("fade") && has_builtin("doom-melt") && has_builtin("cube") && has_builtin("curtain") && has_builtin("wipeleft"),
          "built-in names");

    segue_error *e = NULL;
    segue_info *melt = segue_info_create("doom-melt", &e);
    CHECK(melt != NULL, "doom-melt: %s", segue_error_message(e));
    segue_error_free(e);
    if (!melt) return 1;
    CHECK(strcmp(segue_info_name(melt), "doom-melt") == 0, "name");
    CHECK(strlen(segue_info_summary(melt)) > 0, "summary");
    CHECK(segue_info_kind(melt) == SEGUE_KIND_TRANSITION, "kind %d", segue_info_kind(melt));
    CHECK(segue_info_duration(melt) == 2.0, "duration %g", segue_info_duration(melt));
    CHECK(segue_info_param_count(melt) == 3, "%zu parameters", segue_info_param_count(melt));
    CHECK(strcmp(segue_info_param_name(melt, 0), "startSpeed") == 0, "first parameter %s", segue_info_param_name(melt, 0));
    CHECK(strcmp(segue_info_param_type(melt, 0), "float") == 0, "type");
    CHECK(strlen(segue_info_param_summary(melt, 0)) > 0, "parameter summary");
    double v[4] = {0};
    CHECK(segue_info_param_default(melt, 0, v, 4) == 1 && v[0] == 2.7, "startSpeed default %g", v[0]);
    CHECK(segue_info_param_default(melt, 0, NULL, 0) == 1, "count without storage");
    CHECK(segue_info_param_range(melt, 0, NULL, NULL) == 0, "no range known for startSpeed");
    CHECK(segue_info_param_name(melt, 3) == NULL && segue_info_param_type(melt, 3) == NULL
          && segue_info_param_default(melt, 3, v, 4) == -1 && segue_info_param_range(melt, 3, NULL, NULL) == -1,
          "index past the end");
    segue_info_destroy(melt);

    segue_info *cube = segue_info_create("cube", NULL);
    CHECK(cube && segue_info_kind(cube) == SEGUE_KIND_MESH_TRANSITION, "cube is a mesh transition");
    if (cube) {
        double lo = -1, hi = -1;
        CHECK(strcmp(segue_info_param_type(cube, 0), "bool") == 0 && segue_info_param_range(cube, 0, &lo, &hi) == 1 && lo == 0 && hi == 1,
              "pop: bool 0…1");
        CHECK(segue_info_duration(cube) == 0.5, "cube duration %g", segue_info_duration(cube));
    }
    segue_info_destroy(cube);

    segue_info *curtain = segue_info_create("curtain", NULL);
    CHECK(curtain && segue_info_kind(curtain) == SEGUE_KIND_SINGLE_IMAGE, "curtain is a single-image effect");
    segue_info_destroy(curtain);

    segue_info *wipe = segue_info_create("wipe", NULL);
    CHECK(wipe && strcmp(segue_info_param_type(wipe, 0), "vec2") == 0, "wipe direction vec2");
    if (wipe) {
        CHECK(segue_info_param_default(wipe, 0, v, 1) == 2 && v[0] == 1 && v[1] == 0, "only capacity components written");
        CHECK(segue_info_param_default(wipe, 0, v, 4) == 2 && v[0] == 1 && v[1] == 0, "direction default %g,%g", v[0], v[1]);
    }
    segue_info_destroy(wipe);

    segue_info *glsl = segue_info_create(argv[2], &e);
    CHECK(glsl != NULL, "%s: %s", argv[2], segue_error_message(e));
    segue_error_free(e);
    e = NULL;
    if (glsl) {
        CHECK(strcmp(segue_info_name(glsl), "tint") == 0, "file name %s", segue_info_name(glsl));
        CHECK(strcmp(segue_info_param_type(glsl, 0), "vec4") == 0, "tint vec4");
        CHECK(segue_info_param_default(glsl, 0, v, 4) == 4 && v[0] == 1 && v[1] == 0.5 && v[2] == 0 && v[3] == 1, "tint default");
    }
    segue_info_destroy(glsl);

    segue_info *metal = segue_info_create(argv[3], &e);
    CHECK(metal != NULL, "%s: %s", argv[3], segue_error_message(e));
    segue_error_free(e);
    if (metal) {
        CHECK(segue_info_kind(metal) == SEGUE_KIND_TRANSITION, "stitchable transition");
        int found = 0;
        for (size_t i = 0; i < segue_info_param_count(metal); i++) {
            if (strcmp(segue_info_param_name(metal, i), "windSize") == 0) {
                found = 1;
                CHECK(segue_info_param_default(metal, i, v, 4) == 1 && fabs(v[0] - 0.2) < 1e-6, "windSize default %g", v[0]);
            }
        }
        CHECK(found, "windSize listed");
    }
    segue_info_destroy(metal);
    return failures ? 1 : 0;
}

/* MARK: - Error codes */

/* `call` fails with code `expected` (segue_error_code), and the code of NULL is SEGUE_OK. */
#define EXPECT_CODE(call, failed, expected)                                                     \
    do {                                                                                        \
        segue_error *err_ = NULL;                                                               \
        segue_error **error = &err_;                                                            \
        CHECK(failed(call), "%s did not fail", #call);                                          \
        CHECK(segue_error_code(err_) == (expected), "%s: code %d, expected %s (%d): %s", #call,  \
              (int)segue_error_code(err_), #expected, (int)(expected), segue_error_message(err_)); \
        segue_error_free(err_);                                                                 \
    } while (0)

typedef struct { segue_transition *t; uint8_t *a, *b, *out; uint32_t side; volatile int done; } busy_job;

static void *render_for_a_while(void *p) {
    busy_job *job = p;
    for (int i = 0; i < 40; i++)
        segue_transition_render(job->t, job->a, job->b, job->side, job->side, job->side * 4, 0.5, 0.5, job->out, NULL);
    job->done = 1;
    return NULL;
}

/* codes LUMA_GLSL SYNTAX_ERROR_GLSL: every code a bad call can produce, from that call (a lost device:
 * the `lost` mode). */
static int codes_mode(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: api_test codes LUMA_GLSL SYNTAX_ERROR_GLSL\n"); return 2; }
    segue_context *context = NULL;
    segue_transition *t = NULL;
    segue_effect *fx = NULL;
    if (open_fade_and_bulge(&context, &t, &fx) != 0) return 1;
    CHECK(segue_error_code(NULL) == SEGUE_OK, "the code of NULL");
    CHECK(SEGUE_CHECK_VERSION(0, 1, 0) && !SEGUE_CHECK_VERSION(0, SEGUE_VERSION_MINOR + 1, 0) && !SEGUE_CHECK_VERSION(1, 0, 0),
          "SEGUE_CHECK_VERSION");
    char version[64];
    snprintf(version, sizeof version, "%d.%d.%d", SEGUE_VERSION_MAJOR, SEGUE_VERSION_MINOR, SEGUE_VERSION_PATCH);
    CHECK(strcmp(version, segue_version()) == 0, "header %s, library %s", version, segue_version());
    EXPECT_CODE(segue_transition_set_duration(t, -1, error), IS_MINUS1, SEGUE_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(segue_transition_set_param(t, "no_such_param", "1", error), IS_MINUS1, SEGUE_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(segue_transition_create(NULL, "fade", error), IS_NULL, SEGUE_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(segue_transition_create(context, "no-such-effect", error), IS_NULL, SEGUE_ERROR_UNKNOWN_EFFECT);
    EXPECT_CODE(segue_transition_create(context, "/no/such/file.glsl", error), IS_NULL, SEGUE_ERROR_BAD_EFFECT_FILE);
    segue_transition *broken = segue_transition_create(context, argv[3], NULL);  /* compiled on first render */
    uint8_t px[4 * 4] = {0};
    CHECK(broken != NULL, "the syntax error's transition");
    if (broken) EXPECT_CODE(segue_transition_render(broken, px, px, 2, 2, 8, 0.5, 0.5, px, error), IS_MINUS1, SEGUE_ERROR_COMPILE);
    segue_transition_destroy(broken);
    EXPECT_CODE(segue_transition_create(context, "curtain", error), IS_NULL, SEGUE_ERROR_UNSUPPORTED);
    EXPECT_CODE(segue_effect_create(context, "cube", error), IS_NULL, SEGUE_ERROR_UNSUPPORTED);
    EXPECT_CODE(segue_context_create("no-such-device-xyz", error), IS_NULL, SEGUE_ERROR_NO_DEVICE);
    segue_transition *luma = segue_transition_create(context, argv[2], NULL);
    CHECK(luma != NULL, "luma transition");
    if (luma) EXPECT_CODE(segue_transition_set_param(luma, "luma", "/no/such/image.png", error), IS_MINUS1, SEGUE_ERROR_IO);
    segue_transition_destroy(luma);

    /* Busy: one thread renders large frames while this one changes the duration. */
    busy_job job = {segue_transition_create(context, "doom-melt", NULL), NULL, NULL, NULL, 768, 0};
    size_t bytes = (size_t)job.side * job.side * 4;
    job.a = calloc(bytes, 1); job.b = calloc(bytes, 1); job.out = malloc(bytes);
    pthread_t renderer;
    pthread_create(&renderer, NULL, render_for_a_while, &job);
    int busy = 0;
    while (!job.done && !busy) {
        segue_error *e = NULL;
        if (segue_transition_set_duration(job.t, 2, &e) == -1) busy = segue_error_code(e) == SEGUE_ERROR_BUSY;
        segue_error_free(e);
    }
    pthread_join(renderer, NULL);
    CHECK(busy, "no SEGUE_ERROR_BUSY while another thread rendered");
    segue_transition_destroy(job.t);

    free(job.a); free(job.b); free(job.out);
    segue_transition_destroy(t);
    segue_effect_destroy(fx);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}

/* lost: run with SEGUE_GPU_TIMEOUT=0.000000001 in the environment (the test gives it; the program
 * changes no environment): every wait for the GPU gives up at once, so a render fails with
 * SEGUE_ERROR_DEVICE_LOST, and the next one on that context fails at once, naming the effect. */
static int lost_mode(void) {
    segue_error *e = NULL;
    segue_context *hurried = segue_context_create(NULL, &e);
    CHECK(hurried != NULL, "context: %s", segue_error_message(e));
    segue_error_free(e);
    segue_transition *melt = hurried ? segue_transition_create(hurried, "doom-melt", NULL) : NULL;
    CHECK(melt != NULL, "doom-melt on the hurried context");
    enum { SIDE = 768 };
    uint8_t *a = calloc((size_t)SIDE * SIDE * 4, 1), *out = malloc((size_t)SIDE * SIDE * 4);
    if (melt && a && out) {
        EXPECT_CODE(segue_transition_render(melt, a, a, SIDE, SIDE, SIDE * 4, 0.5, 0.5, out, error), IS_MINUS1, SEGUE_ERROR_DEVICE_LOST);
        /* The context is broken: the next render fails at once, naming the effect. */
        e = NULL;
        CHECK(segue_transition_render(melt, a, a, 8, 8, 32, 0.5, 0.5, out, &e) == -1 && segue_error_code(e) == SEGUE_ERROR_DEVICE_LOST
              && strstr(segue_error_message(e), "doom-melt") != NULL, "a broken context: %s", segue_error_message(e));
        segue_error_free(e);
    }
    free(a); free(out);
    segue_transition_destroy(melt);
    segue_context_destroy(hurried);
    return failures ? 1 : 0;
}

/* fork: a context, transition and effect made and used in this process, then used by a child
 * made by fork(). The child's calls on the inherited handles must fail at once with a message
 * naming fork (never wait on GPU work no thread of the child will do); destroying them must
 * return; a context and transition made again in the child must render the parent's pixels. The
 * parent gives the child 60 s. */
static int fork_mode(void) {
    segue_context *context = NULL;
    segue_transition *t = NULL;
    segue_effect *fx = NULL;
    if (open_fade_and_bulge(&context, &t, &fx) != 0) return 1;
    enum { W = 16, H = 8 };
    uint8_t a[W * H * 4], b[W * H * 4], parent[W * H * 4], child[W * H * 4];
    for (size_t i = 0; i < sizeof a; i++) { a[i] = (uint8_t)(i * 7); b[i] = (uint8_t)(255 - i * 3); }
    for (size_t i = 3; i < sizeof a; i += 4) a[i] = b[i] = 255;
    CHECK(segue_transition_render(t, a, b, W, H, W * 4, 0.5, 0.5, parent, NULL) == 0, "render in the parent");
    fflush(stdout); fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        segue_error *error = NULL;
        int inherited = segue_transition_render(t, a, b, W, H, W * 4, 0.5, 0.5, child, &error);
        CHECK(inherited == -1 && strstr(segue_error_message(error), "fork()") != NULL && segue_error_code(error) == SEGUE_ERROR_FORKED,
              "an inherited transition names fork: %d '%s'", inherited, segue_error_message(error));
        segue_error_free(error);
        error = NULL;
        CHECK(segue_effect_render(fx, a, W, H, W * 4, 0, child, &error) == -1 && strstr(segue_error_message(error), "fork()") != NULL,
              "an inherited effect names fork: '%s'", segue_error_message(error));
        segue_error_free(error);
        error = NULL;
        CHECK(segue_transition_create(context, "fade", &error) == NULL && strstr(segue_error_message(error), "fork()") != NULL,
              "an inherited context names fork: '%s'", segue_error_message(error));
        segue_error_free(error);
        segue_transition_destroy(t);
        segue_effect_destroy(fx);
        segue_context_destroy(context);
        error = NULL;
        segue_context *own = segue_context_create(NULL, &error);
        CHECK(own != NULL, "a context in the child: %s", segue_error_message(error));
        segue_transition *again = own ? segue_transition_create(own, "fade", NULL) : NULL;
        CHECK(again && segue_transition_render(again, a, b, W, H, W * 4, 0.5, 0.5, child, NULL) == 0, "render in the child");
        CHECK(memcmp(parent, child, sizeof parent) == 0, "the child's pixels equal the parent's");
        segue_transition_destroy(again);
        segue_context_destroy(own);
        fflush(stdout); fflush(stderr);
        _exit(failures ? 1 : 0);
    }
    CHECK(pid > 0, "fork");
    int status = 0;
    for (int waited = 0; waited < 600; waited++) {
        if (waitpid(pid, &status, WNOHANG) == pid) break;
        if (waited == 599) { kill(pid, SIGKILL); waitpid(pid, &status, 0); CHECK(0, "the child hung (killed after 60 s)"); }
        nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 100 * 1000 * 1000}, NULL);
    }
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child failed (status %d)", status);
    CHECK(segue_transition_render(t, a, b, W, H, W * 4, 0.5, 0.5, child, NULL) == 0 && memcmp(parent, child, sizeof parent) == 0,
          "the parent renders on after the fork");
    segue_transition_destroy(t);
    segue_effect_destroy(fx);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}

/* MARK: - Timing and interaction */

/* An independent reference for a CSS cubic Bézier timing curve: solve x(s) = x by bisection. */
static double bezier(double x1, double y1, double x2, double y2, double x) {
    double lo = 0, hi = 1, s = x;
    for (int i = 0; i < 200; i++) {
        s = (lo + hi) / 2;
        double bx = 3 * (1 - s) * (1 - s) * s * x1 + 3 * (1 - s) * s * s * x2 + s * s * s;
        if (bx < x) lo = s; else hi = s;
    }
    return 3 * (1 - s) * (1 - s) * s * y1 + 3 * (1 - s) * s * s * y2 + s * s * s;
}

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define NEAR(a, b, tolerance) (fabs((a) - (b)) <= (tolerance))

/* timing: transitions' timing and reverse effects, and interactive transitions, against closed forms. */
static int timing_mode(void) {
    segue_context *context = segue_context_create(NULL, NULL);
    CHECK(context != NULL, "context");
    if (!context) return 1;

    /* Reverses. */
    segue_info *push = segue_info_create("ios-push", NULL), *pop = segue_info_create("ios-pop", NULL);
    segue_info *fade_info = segue_info_create("fade", NULL);
    CHECK(strcmp(segue_info_reverse(push), "ios-pop") == 0, "ios-push pops with %s", segue_info_reverse(push));
    CHECK(strcmp(segue_info_reverse(pop), "ios-push") == 0, "ios-pop's reverse %s", segue_info_reverse(pop));
    CHECK(strcmp(segue_info_reverse(fade_info), "") == 0 && strcmp(segue_info_reverse(NULL), "") == 0, "fade plays backwards");
    CHECK(strcmp(segue_info_timing(push), "spring(mass=3,stiffness=1000,damping=500)") == 0, "ios-push's timing %s", segue_info_timing(push));
    CHECK(strcmp(segue_info_timing(fade_info), "linear") == 0 && strcmp(segue_info_timing(NULL), "") == 0, "fade's timing");
    segue_info_destroy(push); segue_info_destroy(pop); segue_info_destroy(fade_info);

    /* A curve is stretched over the duration. */
    segue_transition *fade = segue_transition_create(context, "fade", NULL);
    CHECK(NEAR(segue_transition_progress_at(fade, 0.25), 0.25, 1e-12), "linear by default: %g", segue_transition_progress_at(fade, 0.25));
    CHECK(segue_transition_set_timing(fade, "ease-in-out", NULL) == 0, "ease-in-out");
    CHECK(segue_transition_set_duration(fade, 2, NULL) == 0, "duration 2");
    for (double t = 0; t <= 2.0; t += 0.125) {
        double expected = bezier(0.42, 0, 0.58, 1, t / 2);
        CHECK(NEAR(segue_transition_progress_at(fade, t), expected, 1e-6), "ease-in-out at %g: %g, expected %g", t,
              segue_transition_progress_at(fade, t), expected);
    }
    CHECK(segue_transition_progress_at(fade, 7) == 1 && segue_transition_progress_at(fade, -1) == 0, "clamped to the transition");
    CHECK(isnan(segue_transition_progress_at(fade, NAN)) && isnan(segue_transition_progress_at(NULL, 0)), "NaN in, NaN out");
    EXPECT_CODE(segue_transition_set_timing(fade, "wobble", error), IS_MINUS1, SEGUE_ERROR_INVALID_ARGUMENT);
    CHECK(NEAR(segue_transition_progress_at(fade, 0.5), bezier(0.42, 0, 0.58, 1, 0.25), 1e-6), "a bad timing keeps the old one");
    CHECK(segue_transition_set_timing(fade, "cubic-bezier(0.1,0.7,0.3,1)", NULL) == 0 &&
          NEAR(segue_transition_progress_at(fade, 0.6), bezier(0.1, 0.7, 0.3, 1, 0.3), 1e-6), "cubic-bezier");
    CHECK(segue_transition_set_timing(fade, NULL, NULL) == 0 && NEAR(segue_transition_progress_at(fade, 0.5), 0.25, 1e-12),
          "NULL restores the effect's own (linear), the duration stays 2");
    segue_transition_destroy(fade);

    /* A spring with no duration set lasts its settling time: critically damped, x(t) = 1 - (1 + w t) e^(-w t). */
    segue_transition *sprung = segue_transition_create(context, "fade", NULL);
    CHECK(segue_transition_set_timing(sprung, "spring(response=0.5,damping-fraction=1)", NULL) == 0, "spring");
    double settle = segue_transition_duration(sprung), w = 2 * M_PI / 0.5;
    CHECK(settle > 0.5 && settle < 5, "settling time %g", settle);
    for (double t = 0; t < settle; t += 0.05)
        CHECK(NEAR(segue_transition_progress_at(sprung, t), 1 - (1 + w * t) * exp(-w * t), 1e-9), "spring at %g: %g", t,
              segue_transition_progress_at(sprung, t));
    CHECK(segue_transition_progress_at(sprung, settle) == 1, "exactly 1 from the settling time on");
    segue_transition_destroy(sprung);

    /* ios-push: UIKit's push spring over its own 0.5 s. */
    segue_transition *ios = segue_transition_create(context, "ios-push", NULL);
    CHECK(segue_transition_duration(ios) == 0.5, "ios-push lasts %g", segue_transition_duration(ios));
    double mid = segue_transition_progress_at(ios, 0.1);
    CHECK(mid > 0.3 && mid < 1 && segue_transition_progress_at(ios, 0.5) == 1, "ios-push at 0.1 s: %g", mid);
    segue_transition_destroy(ios);

    /* Interactions: a flick finishes, a slow release short of half way cancels, past half way finishes. */
    segue_interaction *flick = segue_interaction_create(1, NULL);
    segue_interaction_update(flick, 0.1, 10.0);
    segue_interaction_update(flick, 0.2, 10.05);
    segue_interaction_update(flick, 0.3, 10.1);
    CHECK(segue_interaction_progress(flick, 10.1) == 0.3 && segue_interaction_result(flick, 10.1) == -1, "following");
    CHECK(segue_interaction_release(flick, 10.1) == 1, "a flick at 2 per second finishes");
    CHECK(segue_interaction_result(flick, 10.15) == -1, "running on");
    CHECK(segue_interaction_result(flick, 20) == 1 && segue_interaction_progress(flick, 20) == 1, "finished");
    segue_interaction_destroy(flick);

    segue_interaction *slow = segue_interaction_create(1, NULL);
    segue_interaction_update(slow, 0.3, 0);
    segue_interaction_update(slow, 0.3, 0.5);
    CHECK(segue_interaction_release(slow, 0.5) == 0, "at rest at 30 %% it cancels");
    double back = segue_interaction_progress(slow, 0.6);
    CHECK(back < 0.3 && back > 0, "springing back: %g", back);
    CHECK(segue_interaction_result(slow, 10) == 0 && segue_interaction_progress(slow, 10) == 0, "cancelled");
    segue_interaction_destroy(slow);

    segue_interaction *far = segue_interaction_create(1, NULL);
    segue_interaction_update(far, 0.8, 0);
    CHECK(segue_interaction_release(far, 1) == 1 && segue_interaction_result(far, 10) == 1, "at rest at 80 %% it finishes");
    segue_interaction_destroy(far);

    /* Completion by a curve over the remaining share: from 0.5 of 2 s, linear, 1 s to go. */
    segue_interaction *done = segue_interaction_create(2, NULL);
    segue_interaction_update(done, 0.5, 0);
    CHECK(segue_interaction_complete(done, 1, "linear", 0, NULL) == 0, "complete");
    CHECK(NEAR(segue_interaction_progress(done, 0.5), 0.75, 1e-12), "half way through the rest: %g", segue_interaction_progress(done, 0.5));
    CHECK(segue_interaction_result(done, 1.0) == 1, "finished after the remaining second");
    EXPECT_CODE(segue_interaction_complete(done, 0, "wobble", 2, error), IS_MINUS1, SEGUE_ERROR_INVALID_ARGUMENT);
    segue_interaction_destroy(done);

    segue_interaction *cancel = segue_interaction_create(1, NULL);
    segue_interaction_update(cancel, 0.4, 0);
    CHECK(segue_interaction_complete(cancel, 0, NULL, 0, NULL) == 0, "cancel with the default ease-in-out");
    CHECK(NEAR(segue_interaction_progress(cancel, 0.2), 0.4 - 0.4 * bezier(0.42, 0, 0.58, 1, 0.5), 1e-6), "ease-in-out back: %g",
          segue_interaction_progress(cancel, 0.2));
    CHECK(segue_interaction_result(cancel, 0.4) == 0, "back at the start");
    segue_interaction_destroy(cancel);

    EXPECT_CODE(segue_interaction_create(0, error), IS_NULL, SEGUE_ERROR_INVALID_ARGUMENT);
    EXPECT_CODE(segue_interaction_create(NAN, error), IS_NULL, SEGUE_ERROR_INVALID_ARGUMENT);
    CHECK(isnan(segue_interaction_progress(NULL, 0)) && segue_interaction_result(NULL, 0) == -1 &&
          segue_interaction_release(NULL, 0) == -1, "NULL handles");
    segue_interaction_update(NULL, 0.5, 0);
    segue_interaction_destroy(NULL);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}

/* MARK: - Array arguments */

/* The `spectrum` fill of Tests/Fixtures/stitchable/Arrays.metal computed here: bar i of n across
 * the width, lit where 1 - v <= values[i], straight RGBA (v, 1 - v, 0.25, 1) * 255; blue for n 0. */
static void expected_spectrum(const double *values, int n, uint32_t w, uint32_t h, uint32_t x, uint32_t y, double out[4]) {
    if (n == 0) { out[0] = 0; out[1] = 0; out[2] = 255; out[3] = 255; return; }
    double u = (x + 0.5) / w, v = (y + 0.5) / h;
    int i = (int)(u * n);
    if (i > n - 1) i = n - 1;
    int lit = 1 - v <= values[i];
    out[0] = lit ? values[i] * 255 : 0;
    out[1] = lit ? (1 - values[i]) * 255 : 0;
    out[2] = lit ? 63.75 : 0;
    out[3] = lit ? 255 : 0;
}

/* Renders the spectrum alone (in NULL) at w x h and compares every pixel within 1/255. */
static void check_spectrum(segue_effect *fx, const double *values, int n, uint32_t w, uint32_t h, const char *label) {
    uint8_t *out = calloc((size_t)w * h * 4, 1);
    segue_error *e = NULL;
    int rc = segue_effect_render(fx, NULL, w, h, (size_t)w * 4, 0, out, &e);
    CHECK(rc == 0, "%s: render: %s", label, segue_error_message(e));
    segue_error_free(e);
    int reported = 0;
    for (uint32_t y = 0; y < h && rc == 0; y++)
        for (uint32_t x = 0; x < w; x++) {
            double want[4];
            expected_spectrum(values, n, w, h, x, y, want);
            for (int c = 0; c < 4; c++) {
                double got = out[(y * w + x) * 4 + c];
                if (fabs(got - want[c]) > 1 && !reported) {
                    CHECK(0, "%s: pixel %u,%u channel %d is %g, expected %g", label, x, y, c, got, want[c]);
                    reported = 1;
                }
            }
        }
    free(out);
}

/* A float array argument through segue_effect_set_param: 16 values, a shorter list, "" (count
 * 0), and a list past the limit refused naming the argument and the limit (the old value kept). */
static int arrays_mode(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: api_test arrays ARRAYS_METAL\n"); return 2; }
    segue_error *e = NULL;
    segue_context *context = segue_context_create(NULL, &e);
    CHECK(context != NULL, "context: %s", segue_error_message(e));
    segue_error_free(e);
    if (!context) return 1;
    char spec[4096];
    snprintf(spec, sizeof spec, "%s:spectrum", argv[2]);
    segue_info *info = segue_info_create(spec, &e);
    CHECK(info != NULL && segue_info_param_count(info) == 1 && strcmp(segue_info_param_type(info, 0), "float[]") == 0
          && segue_info_param_default(info, 0, NULL, 0) == 0, "info: the values as one float[] parameter, empty by default");
    segue_info_destroy(info);
    segue_effect *fx = segue_effect_create(context, spec, &e);
    CHECK(fx != NULL, "create %s: %s", spec, segue_error_message(e));
    segue_error_free(e);
    if (!fx) return 1;

    check_spectrum(fx, NULL, 0, 8, 4, "count 0 (default)");
    double values[16];
    char text[1024] = "";
    size_t used = 0;
    for (int k = 0; k < 16; k++) {
        values[k] = ((k * 7) % 16 + 1) / 16.0;
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%.17g", k ? "," : "", values[k]);
    }
    CHECK(segue_effect_set_param(fx, "values", text, &e) == 0, "16 values: %s", segue_error_message(e));
    check_spectrum(fx, values, 16, 32, 16, "16 values");

    char *too_long = malloc(1025 * 2);   /* "1,1,…,1": 1025 ones */
    for (int k = 0; k < 1025; k++) { too_long[2 * k] = '1'; too_long[2 * k + 1] = ','; }
    too_long[2 * 1025 - 1] = 0;
    segue_error_free(e);
    e = NULL;
    CHECK(segue_effect_set_param(fx, "values", too_long, &e) == -1
          && strstr(segue_error_message(e), "argument 'values' takes at most 1024 floats; got 1025") != NULL,
          "1025 values: %s", segue_error_message(e));
    free(too_long);
    check_spectrum(fx, values, 16, 32, 16, "16 values kept after the refused list");

    const double three[3] = {0.125, 0.875, 0.5};
    CHECK(segue_effect_set_param(fx, "values", "0.125, 0.875, 0.5", &e) == 0, "3 values: %s", segue_error_message(e));
    check_spectrum(fx, three, 3, 20, 8, "3 values");
    CHECK(segue_effect_set_param(fx, "values", "", &e) == 0, "empty: %s", segue_error_message(e));
    check_spectrum(fx, NULL, 0, 8, 4, "count 0 (set empty)");
    segue_error_free(e);
    segue_effect_destroy(fx);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "render") == 0) return render_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "errors") == 0) return errors_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "info") == 0) return info_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "fork") == 0) return fork_mode();
    if (argc >= 2 && strcmp(argv[1], "codes") == 0) return codes_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "lost") == 0) return lost_mode();
    if (argc >= 2 && strcmp(argv[1], "timing") == 0) return timing_mode();
    if (argc >= 2 && strcmp(argv[1], "arrays") == 0) return arrays_mode(argc, argv);
    fprintf(stderr, "usage: api_test render|errors|info|fork|codes|lost|timing|arrays …\n");
    return 2;
}
