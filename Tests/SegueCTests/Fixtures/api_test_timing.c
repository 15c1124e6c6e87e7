/* api_test timing: timing curves, reverse effects and interactive transitions against closed forms. */
#include "api_test.h"

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

/* The getters read a transition's timing and duration while another thread sets them. */
struct timing_race {
    segue_transition *transition;
    atomic_int done;
};

static void *set_timings(void *argument) {
    struct timing_race *race = argument;
    for (int k = 0; k < 20000; k++) {
        segue_transition_set_timing(race->transition, k % 2 ? "linear" : "spring(response=0.3,damping-fraction=0.5)", NULL);
        segue_transition_set_duration(race->transition, k % 3 ? 1.0 : 2.0, NULL);
    }
    atomic_store(&race->done, 1);
    return NULL;
}

/* segue_transition_progress_at and _duration from one thread while another sets the timing and the
 * duration: each read is a value of one of the four states, never a torn one (they read a torn
 * timing, NaN among others, before the getters and setters shared a lock). */
static void timing_getters_from_another_thread(segue_context *context) {
    struct timing_race race = {segue_transition_create(context, "fade", NULL), 0};
    double expected[4];
    const char *timings[2] = {"linear", "spring(response=0.3,damping-fraction=0.5)"};
    for (int i = 0; i < 4; i++) {
        segue_transition_set_timing(race.transition, timings[i / 2], NULL);
        segue_transition_set_duration(race.transition, i % 2 ? 2.0 : 1.0, NULL);
        expected[i] = segue_transition_progress_at(race.transition, 0.25);
    }
    CHECK(NEAR(expected[0], 0.25, 1e-12) && NEAR(expected[1], 0.125, 1e-12) && expected[2] == expected[3] && expected[2] > 0.25,
          "the four states: %g %g %g %g", expected[0], expected[1], expected[2], expected[3]);
    pthread_t setter;
    pthread_create(&setter, NULL, set_timings, &race);
    long reads = 0, torn = 0;
    double example = 0;
    while (!atomic_load(&race.done)) {
        double p = segue_transition_progress_at(race.transition, 0.25), d = segue_transition_duration(race.transition);
        int known = p == expected[0] || p == expected[1] || p == expected[2];
        if (!known || !(d == 1.0 || d == 2.0)) torn++, example = known ? d : p;
        reads++;
    }
    pthread_join(setter, NULL);
    CHECK(torn == 0, "%ld of %ld reads torn (e.g. %g)", torn, reads, example);
    segue_transition_destroy(race.transition);
}

/* timing: transitions' timing and reverse effects, and interactive transitions, against closed forms. */
int timing_mode(void) {
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

    /* A control point's y so far out that the curve's polynomial overflowed gave NaN progress. */
    segue_transition *far_y = segue_transition_create(context, "fade", NULL);
    EXPECT_CODE(segue_transition_set_timing(far_y, "cubic-bezier(0,1e308,1,1)", error), IS_MINUS1, SEGUE_ERROR_INVALID_ARGUMENT);
    CHECK(NEAR(segue_transition_progress_at(far_y, 0.25), 0.25, 1e-12), "the old timing is kept: %g", segue_transition_progress_at(far_y, 0.25));
    segue_transition_destroy(far_y);

    timing_getters_from_another_thread(context);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}

/* segue_context_create_default: the environment chooses the device and the shader cache, as for
 * the CLI. With $SEGUE_DEVICE naming no device it fails with SEGUE_ERROR_NO_DEVICE; otherwise a
 * fade renders (so its shader lands in $SEGUE_CACHE_DIR) and the device's name is printed. */
int default_mode(void) {
    segue_error *e = NULL;
    segue_context *context = segue_context_create_default(&e);
    if (!context) {
        printf("no context: %d %s\n", segue_error_code(e), segue_error_message(e));
        segue_error_free(e);
        return 0;
    }
    segue_transition *fade = segue_transition_create(context, "fade", NULL);
    uint8_t from[4 * 4 * 4], to[4 * 4 * 4], out[4 * 4 * 4];
    memset(from, 0, sizeof from);
    for (int i = 3; i < (int)sizeof from; i += 4) from[i] = 255;  /* opaque black */
    memset(to, 255, sizeof to);                                     /* opaque white */
    CHECK(fade && segue_transition_render(fade, from, to, 4, 4, 16, 0.5, 0.5, out, NULL) == 0, "fade renders");
    CHECK(out[0] >= 127 && out[0] <= 128 && out[3] == 255, "half way: %d %d", out[0], out[3]);
    printf("device: %s\n", segue_context_device_name(context));
    segue_transition_destroy(fade);
    segue_context_destroy(context);
    return failures ? 1 : 0;
}
