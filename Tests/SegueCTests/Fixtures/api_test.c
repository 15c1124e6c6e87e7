/*
 * A C host of libsegue, built by SegueCTests against the INSTALLED header and pkg-config file,
 * from this file and one file a group of modes (api_test_*.c; api_test.h has what they share):
 *
 *   cc api_test*.c $(pkg-config --cflags --libs segue) -lpthread -lm -o api_test
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
 *   api_test default
 *       segue_context_create_default: prints "device: NAME" after rendering a fade, or "no
 *       context: CODE MESSAGE" (the environment chooses the device and the shader cache).
 *   api_test arrays ARRAYS_METAL
 *       A float array argument (Tests/Fixtures/stitchable/Arrays.metal:spectrum) set as text:
 *       frames against a computation here, count 0, a list past the limit refused.
 *
 * Exits 0 when every check passed; otherwise prints each failed check to stderr and exits 1.
 */
#include "api_test.h"

int failures = 0;
pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

int open_fade_and_bulge(segue_context **context, segue_transition **t, segue_effect **fx) {
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

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "render") == 0) return render_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "errors") == 0) return errors_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "info") == 0) return info_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "fork") == 0) return fork_mode();
    if (argc >= 2 && strcmp(argv[1], "codes") == 0) return codes_mode(argc, argv);
    if (argc >= 2 && strcmp(argv[1], "lost") == 0) return lost_mode();
    if (argc >= 2 && strcmp(argv[1], "timing") == 0) return timing_mode();
    if (argc >= 2 && strcmp(argv[1], "default") == 0) return default_mode();
    if (argc >= 2 && strcmp(argv[1], "arrays") == 0) return arrays_mode(argc, argv);
    fprintf(stderr, "usage: api_test render|errors|info|fork|codes|lost|timing|arrays …\n");
    return 2;
}
