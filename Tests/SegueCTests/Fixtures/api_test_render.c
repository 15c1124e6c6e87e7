/* api_test render: frames from two threads on one context, compared by the Swift tests. */
#include "api_test.h"

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

int render_mode(int argc, char **argv) {
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
