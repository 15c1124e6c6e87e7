/* api_test arrays: a float array argument set as text. */
#include "api_test.h"

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
    /* With rows wider than the frame (a stride of a row and 12 bytes): the same pixels, and the
     * bytes between rows untouched. */
    size_t stride = (size_t)w * 4 + 12;
    uint8_t *wide = malloc(stride * h);
    uint8_t *packed = calloc((size_t)w * h * 4, 1);
    memset(wide, 0xAB, stride * h);
    rc = segue_effect_render(fx, NULL, w, h, (size_t)w * 4, 0, packed, &e) == 0 && segue_effect_render(fx, NULL, w, h, stride, 0, wide, &e) == 0;
    CHECK(rc, "%s: strided render: %s", label, segue_error_message(e));
    segue_error_free(e);
    for (uint32_t y = 0; y < h && rc; y++) {
        CHECK(memcmp(wide + y * stride, packed + (size_t)y * w * 4, (size_t)w * 4) == 0, "%s: strided row %u differs", label, y);
        for (size_t k = (size_t)w * 4; k < stride && y + 1 < h; k++)
            if (wide[y * stride + k] != 0xAB) { CHECK(0, "%s: byte %zu after row %u was written", label, k, y); break; }
    }
    free(wide);
    free(packed);
}

/* A float array argument through segue_effect_set_param: 16 values, a shorter list, "" (count
 * 0), and a list past the limit refused naming the argument and the limit (the old value kept). */
int arrays_mode(int argc, char **argv) {
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
