/* api_test errors, codes, lost and fork: bad input, error codes, a lost device, a forked child. */
#include "api_test.h"

/* MARK: - Errors */





int errors_mode(int argc, char **argv) {
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
    /* Text that is not UTF-8 (a Latin-1 file name): refused by its bytes, not looked up as U+FFFD. */
    EXPECT_FAIL(segue_transition_create(context, "caf\xe9.glsl", error), IS_NULL, "effect is not UTF-8 text: 'caf\\xE9.glsl'");
    EXPECT_FAIL(segue_info_create("\xff", error), IS_NULL, "effect is not UTF-8 text: '\\xFF'");

    /* Parameters. */
    EXPECT_FAIL(segue_transition_set_param(NULL, "x", "1", error), IS_MINUS1, "transition");
    EXPECT_FAIL(segue_transition_set_param(t, NULL, "1", error), IS_MINUS1, "name");
    EXPECT_FAIL(segue_transition_set_param(t, "x", NULL, error), IS_MINUS1, "value");
    EXPECT_FAIL(segue_transition_set_param(t, "x", "\xe2\x82", error), IS_MINUS1, "value is not UTF-8 text: '\\xE2\\x82'");
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
    /* A frame past any address space (2^62 bytes between two rows): refused, not read. */
    EXPECT_FAIL(segue_transition_render(t, a, b, 16, 2, (size_t)1 << 62, 0.5, 0, out, error), IS_MINUS1, "stride");
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

/* MARK: - Error codes */



typedef struct {
    segue_transition *t;
    uint8_t *a, *b, *out;
    uint32_t side;
    atomic_int done, stop;
} busy_job;

/* Renders 40 large frames, or until told to stop. A render refused as busy (the other thread held
 * the handle at that moment) does not count: under load those can be many, and 40 refusals in a
 * row would end the job before any render held the handle long enough to be seen. */
static void *render_for_a_while(void *p) {
    busy_job *job = p;
    for (int rendered = 0; rendered < 40 && !atomic_load(&job->stop);)
        if (segue_transition_render(job->t, job->a, job->b, job->side, job->side, job->side * 4, 0.5, 0.5, job->out, NULL) == 0)
            rendered++;
    atomic_store(&job->done, 1);
    return NULL;
}

/* codes LUMA_GLSL SYNTAX_ERROR_GLSL: every code a bad call can produce, from that call (a lost device:
 * the `lost` mode). */
int codes_mode(int argc, char **argv) {
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
    EXPECT_CODE(segue_transition_create(context, "caf\xe9.glsl", error), IS_NULL, SEGUE_ERROR_INVALID_ARGUMENT);
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
    busy_job job = {segue_transition_create(context, "doom-melt", NULL), NULL, NULL, NULL, 768, 0, 0};
    size_t bytes = (size_t)job.side * job.side * 4;
    job.a = calloc(bytes, 1); job.b = calloc(bytes, 1); job.out = malloc(bytes);
    pthread_t renderer;
    pthread_create(&renderer, NULL, render_for_a_while, &job);
    int busy = 0;
    while (!atomic_load(&job.done) && !busy) {
        segue_error *e = NULL;
        if (segue_transition_set_duration(job.t, 2, &e) == -1) busy = segue_error_code(e) == SEGUE_ERROR_BUSY;
        segue_error_free(e);
    }
    atomic_store(&job.stop, 1);
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
int lost_mode(void) {
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
        /* Another transition on it fails as well, naming the work that broke the context, not
         * its own (it said the GPU did not finish rendering 'fade'). */
        segue_transition *fade = segue_transition_create(hurried, "fade", NULL);
        e = NULL;
        CHECK(fade && segue_transition_render(fade, a, a, SIDE, SIDE, SIDE * 4, 0.5, 0.5, out, &e) == -1
              && segue_error_code(e) == SEGUE_ERROR_DEVICE_LOST && strstr(segue_error_message(e), "doom-melt") != NULL
              && strstr(segue_error_message(e), "fade") == NULL, "another transition on the broken context: %s", segue_error_message(e));
        segue_error_free(e);
        segue_transition_destroy(fade);
    }
    free(a); free(out);
    segue_transition_destroy(melt);
    segue_context_destroy(hurried);
    return failures ? 1 : 0;
}

/* fork: a context, transition and effect made and used in this process, then used by a child
 * made by fork(). The child's calls on the inherited handles must fail at once with a message
 * naming fork (never wait on GPU work no thread of the child will do); destroying them must
 * return; a context and transition made again in the child must render the parent's pixels. On
 * a driver that opens no device in a child forked from a process that holds one (NVIDIA's), the
 * new context must instead fail with SEGUE_ERROR_FORKED saying so; on lavapipe it must render.
 * The parent gives the child 60 s. */
int fork_mode(void) {
    segue_context *context = NULL;
    segue_transition *t = NULL;
    segue_effect *fx = NULL;
    if (open_fade_and_bulge(&context, &t, &fx) != 0) return 1;
    enum { W = 16, H = 8 };
    uint8_t a[W * H * 4], b[W * H * 4], parent[W * H * 4], child[W * H * 4];
    for (size_t i = 0; i < sizeof a; i++) { a[i] = (uint8_t)(i * 7); b[i] = (uint8_t)(255 - i * 3); }
    for (size_t i = 3; i < sizeof a; i += 4) a[i] = b[i] = 255;
    CHECK(segue_transition_render(t, a, b, W, H, W * 4, 0.5, 0.5, parent, NULL) == 0, "render in the parent");
    int lavapipe = strstr(segue_context_device_name(context), "llvmpipe") != NULL;
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
        if (own == NULL && !lavapipe) {
            CHECK(segue_error_code(error) == SEGUE_ERROR_FORKED && strstr(segue_error_message(error), "child made by fork()") != NULL,
                  "a refused context in the child names fork: %d '%s'", segue_error_code(error), segue_error_message(error));
            printf("fork: this driver opens no device in the child: %s\n", segue_error_message(error));
            segue_error_free(error);
            fflush(stdout); fflush(stderr);
            _exit(failures ? 1 : 0);
        }
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
