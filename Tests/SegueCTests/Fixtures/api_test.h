/* What the files of the C API test program share: the checks and their count, and one function a
 * mode per file. See api_test.c for the program and its modes. */
#ifndef SEGUE_API_TEST_H
#define SEGUE_API_TEST_H

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <segue.h>

#ifndef __FILE_NAME__
#define __FILE_NAME__ __FILE__
#endif

/* Failed checks so far, counted under `report_lock` (checks run on several threads). */
extern int failures;
extern pthread_mutex_t report_lock;

/* Counts and reports a failed check with its file and line. */
#define CHECK(condition, ...)                                                      \
    do {                                                                           \
        if (!(condition)) {                                                        \
            pthread_mutex_lock(&report_lock);                                      \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE_NAME__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                   \
            failures++;                                                            \
            pthread_mutex_unlock(&report_lock);                                    \
        }                                                                          \
    } while (0)

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

/* A context on the preferred device with the fade transition and the bulge effect; 0 when all
 * three were made. */
int open_fade_and_bulge(segue_context **context, segue_transition **t, segue_effect **fx);

/* The modes: each returns the exit status (0 when every check passed). */
int render_mode(int argc, char **argv);
int errors_mode(int argc, char **argv);
int info_mode(int argc, char **argv);
int codes_mode(int argc, char **argv);
int lost_mode(void);
int fork_mode(void);
int timing_mode(void);
int default_mode(void);
int arrays_mode(int argc, char **argv);

#endif
