/* api_test info: listing and describing effects. */
#include "api_test.h"

/* MARK: - Info */

static int has_builtin(const char *name) {
    for (size_t i = 0; i < segue_builtin_count(); i++)
        if (strcmp(segue_builtin_name(i), name) == 0) return 1;
    return 0;
}

int info_mode(int argc, char **argv) {
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
    double lo = -1, hi = -1;
    CHECK(segue_info_param_range(melt, 0, &lo, &hi) == 1 && lo == 0 && hi == 10, "startSpeed range %g…%g", lo, hi);
    CHECK(segue_info_param_range(melt, 0, NULL, NULL) == 1, "a range with NULL pointers");
    CHECK(segue_info_param_name(melt, 3) == NULL && segue_info_param_type(melt, 3) == NULL
          && segue_info_param_default(melt, 3, v, 4) == -1 && segue_info_param_range(melt, 3, NULL, NULL) == -1,
          "index past the end");
    segue_info_destroy(melt);

    segue_info *cube = segue_info_create("cube", NULL);
    CHECK(cube && segue_info_kind(cube) == SEGUE_KIND_MESH_TRANSITION, "cube is a mesh transition");
    if (cube) {
        lo = hi = -1;
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
        lo = hi = 0;
        CHECK(segue_info_param_range(wipe, 0, &lo, &hi) == 1 && lo == -1 && hi == 1, "direction range %g…%g", lo, hi);
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
        CHECK(segue_info_param_range(glsl, 0, NULL, NULL) == 0, "a file's parameter without a stated range has none");
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
