/*
 * segue_frei0r.c — the one frei0r 1.2 plugin behind every Segue effect in MLT (Shotcut, Kdenlive)
 * and GStreamer (frei0r-mixer-segue-…, frei0r-filter-segue-…, frei0r-src-segue-… for fills).
 *
 * This file is compiled ONCE into a template (scripts/install.sh):
 *
 *   cc -std=c99 -O2 -fPIC -shared -fvisibility=hidden -Wl,-z,defs -I Sources/SegueC/include \
 *      plugins/frei0r/segue_frei0r.c -o segue-frei0r.so -ldl
 *
 * and `segue frei0r install` copies the template once per effect, writing the effect's
 * configuration into the reserved block below (between its BEGIN and END markers, same size,
 * so nothing else in the file moves). A plugin file therefore links only libc (and libdl) and
 * answers f0r_get_plugin_info / f0r_get_param_info from that block alone: hosts open every
 * plugin at start-up just to list it, and listing loads nothing else.
 *
 * libsegue is loaded when an instance first needs the effect: from the absolute path written at
 * install time, then $SEGUE_LIBRARY, then the dynamic linker's search path ("libsegue.so.0", the SONAME); a
 * $SEGUE_LIBRARY that does not load ends the search, and a library of another major version is refused. It is
 * never unloaded, and once it is loaded the plugin pins itself (RTLD_NODELETE) so that a host's
 * dlclose cannot drop the one GPU context all instances of the plugin share (created once,
 * thread-safe by the C API; each instance renders with its own segue_transition/segue_effect,
 * so MLT's one-instance-per-thread rendering runs in parallel).
 *
 * Hosts construct instances of every plugin just to list them (MLT reads each one's defaults at
 * 720×576 for its metadata, which Kdenlive and Shotcut ask for at start-up; GStreamer constructs
 * each twice at 640×480 whenever it loads its frei0r module, and aborts if the second returns
 * NULL). So constructing only records the size and the parameters, after two cheap checks that
 * need no library: the size, and that an effect file is still there. The effect is created (and
 * its shader compiled) at the instance's first update. `segue frei0r install` compiles every
 * effect file before writing its plugin, so a shader that does not compile is refused then.
 *
 * Pixels are RGBA8888 with straight alpha in and out, as segue_transition_render takes them.
 * Parameters: `progress` (mixers only; a double, 0…1 passed as is), then the effect's own,
 * mapped by the installer (see Docs/Frei0r.md): a double in frei0r's 0…1 maps linearly to the
 * parameter's range min…max (values outside 0…1 extrapolate); a bool is true from 0.5; a colour
 * fills three components; a string is a texture's image path, or an array or data argument's
 * value as segue_effect_set_param takes it ("0.1,0.5", "#ff0000,#00ff00", "@file.bin"). Values the host never changes
 * stay the effect's exact defaults.
 *
 * Errors name the plugin in one line on stderr. A size out of range fails construction (NULL). A
 * missing effect file fails it too — GStreamer then leaves the element out, so a pipeline naming it
 * fails to start — except in MLT, which renders a NULL instance as uninitialised memory (and
 * constructs again every frame), where the instance shows its first input instead. An effect that
 * cannot be made at the first update (libsegue not found, a file edited into a shader that does
 * not compile) is reported once, and the instance shows its first input. A failed render (a value
 * the effect refuses, such as a radius of 0, or a texture not set yet) shows the first input too,
 * until the host changes a parameter: the next frame then tries again; a failure is reported once
 * until a frame renders. Nothing is fatal to the host.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma GCC visibility push(default)
#include <frei0r.h>
#pragma GCC visibility pop

#include "segue.h"

/* MARK: - The configuration block (patched by `segue frei0r install`) */

/* Sizes and markers: the installer (Frei0rTemplate.swift) checks both markers and the size. */
#define CONFIG_MARKER_BYTES 32
#define CONFIG_BODY_BYTES 32768

struct config_block {
    char begin[CONFIG_MARKER_BYTES];
    char body[CONFIG_BODY_BYTES];
    char end[CONFIG_MARKER_BYTES];
};

__attribute__((used)) static const struct config_block config_block = {
    "SEGUE-FREI0R-CONFIG-BEGIN-V1", "", "SEGUE-FREI0R-CONFIG-END-V1"};

/* MARK: - The parsed configuration */

#define MAX_PARAMS 256
#define MAX_TARGETS 128
#define MAX_COMPONENTS 16

enum param_kind { KIND_DOUBLE, KIND_BOOL, KIND_COLOR, KIND_STRING };
enum scalar_kind { SCALAR_FLOAT, SCALAR_INT, SCALAR_BOOL, SCALAR_TEXTURE, SCALAR_TEXT };

/* One parameter of the effect (what segue_*_set_param names). */
typedef struct {
    const char *name;
    enum scalar_kind scalar;
    int count;                         /* components (0 for a texture) */
    double defaults[MAX_COMPONENTS];
} target;

/* One frei0r parameter: `progress`, or one or more components of a target. */
typedef struct {
    const char *name, *explanation;
    enum param_kind kind;
    int target;                        /* -1: progress */
    int component;                     /* the first component it sets */
    double min, max;                   /* effect units of frei0r's 0 and 1 (doubles) */
    double defaults[3];                /* frei0r units: 1 value, or r, g, b */
} param;

static struct {
    int valid;
    const char *name, *effect, *explanation, *library;
    int filter;                        /* one effect (F0R_PLUGIN_TYPE_FILTER or SOURCE), else MIXER2 */
    int source;                        /* F0R_PLUGIN_TYPE_SOURCE: a fill, no input frame */
    int param_count, target_count;
    param params[MAX_PARAMS];
    target targets[MAX_TARGETS];
    char *text;                        /* the block's copy the strings point into */
} config;

static pthread_once_t config_once = PTHREAD_ONCE_INIT;

/* Splits `line` at tabs into at most `max` fields; returns their number. */
static int split_fields(char *line, char **fields, int max) {
    int n = 0;
    fields[n++] = line;
    for (char *p = line; *p && n < max; p++) {
        if (*p == '\t') {
            *p = 0;
            fields[n++] = p + 1;
        }
    }
    return n;
}

/* Reads up to `max` comma-separated numbers. */
static int parse_numbers(const char *text, double *out, int max) {
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        char *end;
        double v = strtod(p, &end);
        if (end == p) return -1;
        out[n++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

static void parse_config(void) {
    /* The block is read through an opaque pointer: the compiler must not fold the template's
     * empty body into constants, since the installer rewrites it in the file. */
    const char *body = config_block.body;
    __asm__("" : "+r"(body));
    size_t length = strnlen(body, CONFIG_BODY_BYTES);
    if (length == 0 || length == CONFIG_BODY_BYTES) return;
    config.text = malloc(length + 1);
    if (!config.text) return;
    memcpy(config.text, body, length + 1);

    int header = 0;
    char *save = NULL;
    for (char *line = strtok_r(config.text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *f[10];
        int n = split_fields(line, f, 10);
        if (n == 2 && !strcmp(f[0], "segue-frei0r")) header = !strcmp(f[1], "1");
        else if (n == 2 && !strcmp(f[0], "name")) config.name = f[1];
        else if (n == 2 && !strcmp(f[0], "effect")) config.effect = f[1];
        else if (n == 2 && !strcmp(f[0], "explanation")) config.explanation = f[1];
        else if (n == 2 && !strcmp(f[0], "library")) config.library = f[1];
        else if (n == 2 && !strcmp(f[0], "type")) {
            config.source = !strcmp(f[1], "source");
            config.filter = config.source || !strcmp(f[1], "filter");
        }
        else if (n == 5 && !strcmp(f[0], "target") && config.target_count < MAX_TARGETS) {
            target *t = &config.targets[config.target_count];
            t->name = f[1];
            t->scalar = f[2][0] == 'i' ? SCALAR_INT : f[2][0] == 'b' ? SCALAR_BOOL : f[2][0] == 't' ? SCALAR_TEXTURE : f[2][0] == 's' ? SCALAR_TEXT : SCALAR_FLOAT;
            t->count = atoi(f[3]);
            if (t->count < 0 || t->count > MAX_COMPONENTS || parse_numbers(f[4], t->defaults, MAX_COMPONENTS) != t->count) return;
            config.target_count++;
        } else if (n == 9 && !strcmp(f[0], "param") && config.param_count < MAX_PARAMS) {
            param *p = &config.params[config.param_count];
            p->name = f[1];
            p->kind = !strcmp(f[2], "bool") ? KIND_BOOL : !strcmp(f[2], "color") ? KIND_COLOR : !strcmp(f[2], "string") ? KIND_STRING : KIND_DOUBLE;
            p->target = atoi(f[3]);
            p->component = atoi(f[4]);
            p->min = strtod(f[5], NULL);
            p->max = strtod(f[6], NULL);
            int wanted = p->kind == KIND_COLOR ? 3 : p->kind == KIND_STRING ? 0 : 1;
            if (parse_numbers(f[7], p->defaults, 3) != wanted) return;
            p->explanation = f[8];
            if (p->target >= config.target_count) return;
            if (p->target >= 0) {
                const target *t = &config.targets[p->target];
                int width = p->kind == KIND_COLOR ? 3 : 1;
                if (p->kind == KIND_STRING ? t->scalar != SCALAR_TEXTURE && t->scalar != SCALAR_TEXT
                                           : p->component < 0 || p->component + width > t->count) return;
            }
            config.param_count++;
        }
    }
    config.valid = header && config.name && config.effect && config.explanation;
}

static int configured(void) {
    pthread_once(&config_once, parse_config);
    return config.valid;
}

/* Whether `x` is neither NaN nor infinite (without libm). */
static int finite_number(double x) {
    return x == x && x - x == 0;
}

/* MARK: - Messages */

/* `in` into `out` (`size` bytes, cut to fit) in a host user's words: libsegue speaks to C callers
 * ("set it to an image path with segue_transition_set_param"), where a host's user sets the
 * plugin's parameter of the name the message gives. */
static void host_words(const char *in, char *out, size_t size) {
    static const char *const setters[] = {"segue_transition_set_param", "segue_effect_set_param"};
    static const char replacement[] = "the plugin's parameter of that name";
    size_t n = 0;
    while (*in && n + 1 < size) {
        size_t matched = 0;
        for (size_t k = 0; k < sizeof setters / sizeof setters[0] && !matched; k++)
            if (!strncmp(in, setters[k], strlen(setters[k]))) matched = strlen(setters[k]);
        if (!matched) {
            out[n++] = *in++;
            continue;
        }
        for (const char *r = replacement; *r && n + 1 < size; r++) out[n++] = *r;
        in += matched;
    }
    out[n] = 0;
}

/* One line on stderr, naming the plugin. */
static void say(const char *format, ...) {
    char text[8192], words[8192];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof text, format, args);
    va_end(args);
    host_words(text, words, sizeof words);
    fprintf(stderr, "%s (segue frei0r plugin): %s\n", config.name ? config.name : "segue", words);
}

/* MARK: - libsegue, loaded once and never unloaded */

typedef struct {
    __typeof__(segue_version) *version;
    __typeof__(segue_error_message) *error_message;
    __typeof__(segue_error_free) *error_free;
    __typeof__(segue_context_create_default) *context_create_default;
    __typeof__(segue_transition_create) *transition_create;
    __typeof__(segue_transition_set_param) *transition_set_param;
    __typeof__(segue_transition_render) *transition_render;
    __typeof__(segue_transition_destroy) *transition_destroy;
    __typeof__(segue_effect_create) *effect_create;
    __typeof__(segue_effect_set_param) *effect_set_param;
    __typeof__(segue_effect_render) *effect_render;
    __typeof__(segue_effect_destroy) *effect_destroy;
} segue_api;

static pthread_mutex_t runtime_lock = PTHREAD_MUTEX_INITIALIZER;
static segue_api api;
static segue_context *shared_context;  /* created once, shared by every instance */
static char runtime_failure[2048];    /* why loading failed, once it has */

/* Resolves every function from `handle`; 0 when one is missing (its name in `missing`). */
static int resolve_api(void *handle, segue_api *out, const char **missing) {
#define RESOLVE(field, symbol)                                  \
    do {                                                        \
        *(void **)(&out->field) = dlsym(handle, #symbol);       \
        if (!out->field) { *missing = #symbol; return 0; }      \
    } while (0)
    RESOLVE(version, segue_version);
    RESOLVE(error_message, segue_error_message);
    RESOLVE(error_free, segue_error_free);
    RESOLVE(context_create_default, segue_context_create_default);
    RESOLVE(transition_create, segue_transition_create);
    RESOLVE(transition_set_param, segue_transition_set_param);
    RESOLVE(transition_render, segue_transition_render);
    RESOLVE(transition_destroy, segue_transition_destroy);
    RESOLVE(effect_create, segue_effect_create);
    RESOLVE(effect_set_param, segue_effect_set_param);
    RESOLVE(effect_render, segue_effect_render);
    RESOLVE(effect_destroy, segue_effect_destroy);
#undef RESOLVE
    return 1;
}

/* Appends to `buffer` (always NUL-terminated). */
static void append(char *buffer, size_t size, const char *format, ...) {
    size_t used = strlen(buffer);
    if (used + 1 >= size) return;
    va_list args;
    va_start(args, format);
    vsnprintf(buffer + used, size - used, format, args);
    va_end(args);
}

/* The major version of a "MAJOR.MINOR.PATCH" text; -1 for anything else (as the Python package
 * reads segue_version(): digits first). */
static int major_version(const char *version) {
    if (!version || version[0] < '0' || version[0] > '9') return -1;
    char *end = NULL;
    long major = strtol(version, &end, 10);
    return (*end == '.' || *end == '\0') && major < 1000 ? (int)major : -1;
}

/* Loads libsegue and creates the shared context the first time; returns 0 with `why` filled
 * on failure (then and ever after). Thread-safe. */
static int load_runtime(char *why, size_t size) {
    pthread_mutex_lock(&runtime_lock);
    if (shared_context || runtime_failure[0]) {
        int ok = shared_context != NULL;
        if (!ok) snprintf(why, size, "%s", runtime_failure);
        pthread_mutex_unlock(&runtime_lock);
        return ok;
    }
    const char *candidates[3] = {config.library, getenv("SEGUE_LIBRARY"), "libsegue.so.0"};
    const char *labels[3] = {"the path written at install time", "SEGUE_LIBRARY", "the library search path"};
    char tried[1536] = "";
    void *handle = NULL;
    for (int i = 0; i < 3 && !handle; i++) {
        if (!candidates[i] || !*candidates[i]) continue;
        void *h = dlopen(candidates[i], RTLD_NOW | RTLD_LOCAL);
        const char *missing = NULL;
        segue_api found;
        if (!h) {
            const char *e = dlerror();
            append(tried, sizeof tried, "%s%s (%s): %s", tried[0] ? "; " : "", candidates[i], labels[i], e ? e : "not found");
        } else if (!resolve_api(h, &found, &missing)) {
            /* Not libsegue, or an older one: left loaded (nothing it started can be assumed safe to unload). */
            append(tried, sizeof tried, "%s%s (%s): not a libsegue this plugin can use (it lacks %s: another program's library, or an older Segue's)", tried[0] ? "; " : "", candidates[i], labels[i], missing);
        } else if (major_version(found.version()) != SEGUE_VERSION_MAJOR) {
            /* The C API holds within a major version only (as the Python package checks too). */
            append(tried, sizeof tried, "%s%s (%s): Segue %s, and this plugin needs Segue %d.x", tried[0] ? "; " : "", candidates[i], labels[i],
                   found.version(), SEGUE_VERSION_MAJOR);
        } else {
            handle = h;
            api = found;
        }
        /* A library the user named is the one to use: no quiet fallback to another (as in Python). */
        if (!handle && i == 1) break;
    }
    if (!handle) {
        snprintf(runtime_failure, sizeof runtime_failure,
                 "cannot load libsegue: %s; set SEGUE_LIBRARY to its path or run 'segue frei0r install' again", tried);
    } else {
        /* From here the plugin holds state that must outlive a host's dlclose: pin it. */
        Dl_info self;
        if (dladdr(&config_block, &self) && self.dli_fname)
            (void)dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        /* The device and shader cache of the environment, as the segue CLI chooses them. */
        segue_error *error = NULL;
        shared_context = api.context_create_default(&error);
        if (!shared_context)
            snprintf(runtime_failure, sizeof runtime_failure, "cannot open a GPU device: %s", api.error_message(error));
        api.error_free(error);
    }
    int ok = shared_context != NULL;
    if (!ok) snprintf(why, size, "%s", runtime_failure);
    pthread_mutex_unlock(&runtime_lock);
    return ok;
}

/* MARK: - Instances */

typedef struct {
    unsigned width, height;
    int ready;                         /* the effect exists */
    int failed;                        /* making it failed: the instance copies its first input */
    int stalled;                       /* a render failed: the first input shows until a parameter changes */
    char *reported;                    /* the last failure said (owned), so that one repeated is said once */
    double progress;
    double values[MAX_PARAMS][3];      /* frei0r values */
    char *strings[MAX_PARAMS];         /* string values (owned) */
    double components[MAX_TARGETS][MAX_COMPONENTS];
    unsigned char dirty[MAX_TARGETS];
    segue_transition *transition;
    segue_effect *effect;
} instance;

static int set_target(instance *inst, int t, const char *text, segue_error **error) {
    if (config.filter) return api.effect_set_param(inst->effect, config.targets[t].name, text, error);
    return api.transition_set_param(inst->transition, config.targets[t].name, text, error);
}

/* Sends the targets the host changed to the effect. */
static void apply_parameters(instance *inst) {
    for (int t = 0; t < config.target_count; t++) {
        if (!inst->dirty[t]) continue;
        inst->dirty[t] = 0;
        const target *tg = &config.targets[t];
        char text[4096] = "";
        if (tg->scalar == SCALAR_TEXT) {
            /* An array or data argument: the host's text as it is ("" empties it), any length. */
            const char *value = "";
            for (int p = 0; p < config.param_count; p++)
                if (config.params[p].target == t && inst->strings[p]) value = inst->strings[p];
            segue_error *error = NULL;
            if (set_target(inst, t, value, &error) != 0) say("parameter %s: %s", tg->name, api.error_message(error));
            api.error_free(error);
            continue;
        }
        if (tg->scalar == SCALAR_TEXTURE) {
            /* A path, or "" (a field the host cleared) which unsets the texture: the first input
             * shows, as before one was set, rather than the old image. */
            const char *path = "";
            for (int p = 0; p < config.param_count; p++)
                if (config.params[p].target == t && inst->strings[p]) path = inst->strings[p];
            snprintf(text, sizeof text, "%s", path);
        } else {
            for (int c = 0; c < tg->count; c++) {
                double v = inst->components[t][c];
                if (tg->scalar == SCALAR_BOOL) append(text, sizeof text, "%s%s", c ? "," : "", v != 0 ? "true" : "false");
                else if (tg->scalar == SCALAR_INT) append(text, sizeof text, "%s%.0f", c ? "," : "", v);
                else append(text, sizeof text, "%s%.17g", c ? "," : "", v);
            }
        }
        segue_error *error = NULL;
        if (set_target(inst, t, text, &error) != 0) say("parameter %s = %s: %s", tg->name, text, api.error_message(error));
        api.error_free(error);
    }
}

/* The effect's value of frei0r parameter `p` at frei0r value `v` (exact default when unchanged). */
static double effect_value(const param *p, double v, double exact_default) {
    if (v == p->defaults[0]) return exact_default;
    double x = p->min + v * (p->max - p->min);
    if (config.targets[p->target].scalar == SCALAR_INT) {
        if (!(x > -2147483648.0)) x = -2147483648.0;   /* NaN too */
        if (x > 2147483647.0) x = 2147483647.0;
        x = (double)(long long)(x + (x >= 0 ? 0.5 : -0.5));  /* no libm: the plugin links only libc */
    }
    return x;
}

static void store(instance *inst, int index, const double *values) {
    const param *p = &config.params[index];
    for (int k = 0; k < 3; k++) inst->values[index][k] = values[k];
    if (p->target < 0) { inst->progress = values[0]; return; }
    double *c = inst->components[p->target] + p->component;
    const double *d = config.targets[p->target].defaults + p->component;
    double before[3] = {c[0], 0, 0};
    switch (p->kind) {
    case KIND_DOUBLE:
        c[0] = effect_value(p, values[0], d[0]);
        break;
    case KIND_BOOL:
        c[0] = values[0] >= 0.5 ? 1 : 0;
        break;
    case KIND_COLOR:
        before[1] = c[1];
        before[2] = c[2];
        /* MLT's colours come as bytes / 255 in floats: an unchanged default stays exact. */
        for (int k = 0; k < 3; k++) c[k] = (float)values[k] == (float)p->defaults[k] ? d[k] : values[k];
        break;
    case KIND_STRING:
        break;
    }
    if (c[0] != before[0] || (p->kind == KIND_COLOR && (c[1] != before[1] || c[2] != before[2]))) inst->dirty[p->target] = 1;
}

/* Creates the effect on the shared context; returns 0 with `why` filled on failure. */
static int create_effect(instance *inst, char *why, size_t size) {
    segue_error *error = NULL;
    if (config.filter) inst->effect = api.effect_create(shared_context, config.effect, &error);
    else inst->transition = api.transition_create(shared_context, config.effect, &error);
    if (!inst->effect && !inst->transition) {
        snprintf(why, size, "%s", api.error_message(error));
        api.error_free(error);
        return 0;
    }
    return 1;
}

/* Loads libsegue and creates the effect unless done; 0 (reported once) when that fails. */
static int ensure_effect(instance *inst) {
    if (inst->failed) return 0;
    if (inst->ready) return 1;
    char why[8192] = "";
    if (load_runtime(why, sizeof why) && create_effect(inst, why, sizeof why)) {
        inst->ready = 1;
        return 1;
    }
    say("%s", why);
    inst->failed = 1;
    return 0;
}

/* Whether the effect file (for an effect that is a file) can be read; fills `why` when not. Opened
 * without blocking and required to be a regular file: a FIFO would block the host (GStreamer
 * constructs every plugin when it rescans its registry) until something wrote to it. */
static int effect_file_readable(char *why, size_t size) {
    if (!strchr(config.effect, '/')) return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s", config.effect);
    char *colon = strstr(path, ".metal:");
    if (colon) colon[6] = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
        struct stat st;
        int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
        close(fd);
        if (regular) return 1;
        snprintf(why, size, "cannot read the effect file '%s': it is not a regular file (a pipe or a device?); install it again with 'segue frei0r install FILE'", path);
        return 0;
    }
    snprintf(why, size, "cannot read the effect file '%s': %s; install it again with 'segue frei0r install FILE'", path,
             strerror(errno));
    return 0;
}

static void destroy(instance *inst) {
    if (!inst) return;
    if (inst->transition) api.transition_destroy(inst->transition);
    if (inst->effect) api.effect_destroy(inst->effect);
    for (int p = 0; p < config.param_count; p++) free(inst->strings[p]);
    free(inst->reported);
    free(inst);
}

/* Whether the process runs MLT (melt, Shotcut, Kdenlive), whose frei0r module has no use for a
 * NULL instance (see "Hosts construct" above). */
static int host_is_mlt(void) {
    if (dlsym(RTLD_DEFAULT, "mlt_factory_init")) return 1;
    const char *names[] = {"libmlt-7.so.7", "libmlt.so.7", "libmlt.so.6"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *h = dlopen(names[i], RTLD_LAZY | RTLD_NOLOAD);
        if (h) {
            dlclose(h);  /* only the reference RTLD_NOLOAD just added: libmlt stays loaded */
            return 1;
        }
    }
    return 0;
}

/* MARK: - frei0r entry points */

int f0r_init(void) {
    return configured();
}

void f0r_deinit(void) {
    /* Nothing: libsegue and the shared context stay for the life of the process. */
}

void f0r_get_plugin_info(f0r_plugin_info_t *info) {
    int ok = configured();
    info->name = ok ? config.name : "segue_frei0r_template";
    info->author = "Segue";
    info->plugin_type = !ok ? F0R_PLUGIN_TYPE_FILTER
                      : config.source ? F0R_PLUGIN_TYPE_SOURCE : config.filter ? F0R_PLUGIN_TYPE_FILTER : F0R_PLUGIN_TYPE_MIXER2;
    info->color_model = F0R_COLOR_MODEL_RGBA8888;
    info->frei0r_version = FREI0R_MAJOR_VERSION;
    info->major_version = 0;
    info->minor_version = 1;
    info->num_params = ok ? config.param_count : 0;
    info->explanation = ok ? config.explanation : "the unconfigured Segue frei0r template (run 'segue frei0r install')";
}

void f0r_get_param_info(f0r_param_info_t *info, int index) {
    if (!configured() || index < 0 || index >= config.param_count) {
        info->name = "";
        info->type = F0R_PARAM_DOUBLE;
        info->explanation = "";
        return;
    }
    const param *p = &config.params[index];
    info->name = p->name;
    info->explanation = p->explanation;
    info->type = p->kind == KIND_BOOL ? F0R_PARAM_BOOL : p->kind == KIND_COLOR ? F0R_PARAM_COLOR
               : p->kind == KIND_STRING ? F0R_PARAM_STRING : F0R_PARAM_DOUBLE;
}

f0r_instance_t f0r_construct(unsigned int width, unsigned int height) {
    if (!configured()) {
        fprintf(stderr, "segue frei0r plugin: this is the unconfigured template; run 'segue frei0r install'\n");
        return NULL;
    }
    if (width == 0 || height == 0 || width > SEGUE_MAX_SIDE || height > SEGUE_MAX_SIDE
        || (uint64_t)width * height > SEGUE_MAX_PIXELS) {
        say("a %ux%u frame cannot be rendered: each side must be 1 to %u pixels, at most %u pixels in all",
            width, height, (unsigned)SEGUE_MAX_SIDE, (unsigned)SEGUE_MAX_PIXELS);
        return NULL;
    }
    instance *inst = calloc(1, sizeof *inst);
    if (!inst) {
        say("out of memory");
        return NULL;
    }
    inst->width = width;
    inst->height = height;
    for (int t = 0; t < config.target_count; t++)
        memcpy(inst->components[t], config.targets[t].defaults, sizeof(double) * (size_t)config.targets[t].count);
    for (int p = 0; p < config.param_count; p++) {
        memcpy(inst->values[p], config.params[p].defaults, sizeof inst->values[p]);
        if (config.params[p].target < 0) inst->progress = config.params[p].defaults[0];
    }
    char why[8192] = "";
    if (effect_file_readable(why, sizeof why)) return inst;
    say("%s", why);
    if (host_is_mlt()) {
        inst->failed = 1;
        return inst;
    }
    free(inst);
    return NULL;
}

void f0r_destruct(f0r_instance_t instance_pointer) {
    destroy(instance_pointer);
}

void f0r_set_param_value(f0r_instance_t instance_pointer, f0r_param_t value, int index) {
    instance *inst = instance_pointer;
    if (!inst || !value || index < 0 || index >= config.param_count) return;
    const param *p = &config.params[index];
    double v[3] = {0, 0, 0};
    switch (p->kind) {
    case KIND_DOUBLE:
    case KIND_BOOL:
        v[0] = *(const double *)value;
        if (!finite_number(v[0])) return;
        break;
    case KIND_COLOR: {
        const f0r_param_color_t *c = value;
        v[0] = c->r;
        v[1] = c->g;
        v[2] = c->b;
        if (!finite_number(v[0]) || !finite_number(v[1]) || !finite_number(v[2])) return;
        break;
    }
    case KIND_STRING: {
        /* A pointer to the char*, as frei0r.h says (MLT 7.12 and GStreamer 1.22 both pass one). */
        const char *s = *(const char *const *)value;
        char *copy = s ? strdup(s) : NULL;
        if (s && !copy) return;
        int changed = (copy ? copy : "")[0] != 0 || (inst->strings[index] && inst->strings[index][0]);
        if (changed && copy && inst->strings[index]) changed = strcmp(copy, inst->strings[index]) != 0;
        free(inst->strings[index]);
        inst->strings[index] = copy;
        if (changed) inst->dirty[p->target] = 1;
        return;
    }
    }
    store(inst, index, v);
}

void f0r_get_param_value(f0r_instance_t instance_pointer, f0r_param_t value, int index) {
    instance *inst = instance_pointer;
    if (!inst || !value || index < 0 || index >= config.param_count) return;
    switch (config.params[index].kind) {
    case KIND_DOUBLE:
    case KIND_BOOL:
        *(double *)value = inst->values[index][0];
        break;
    case KIND_COLOR: {
        f0r_param_color_t *c = value;
        c->r = (float)inst->values[index][0];
        c->g = (float)inst->values[index][1];
        c->b = (float)inst->values[index][2];
        break;
    }
    case KIND_STRING:
        *(const char **)value = inst->strings[index] ? inst->strings[index] : "";
        break;
    }
}

/* Whether the host changed a parameter since the effect last had them. */
static int parameters_changed(const instance *inst) {
    for (int t = 0; t < config.target_count; t++)
        if (inst->dirty[t]) return 1;
    return 0;
}

/* Notes the outcome of a render: a failure stalls the instance until a parameter changes, and is
 * said unless it is the one said last; a success forgets it, so that the next is said again. */
static void rendered(instance *inst, int ok, segue_error *error) {
    inst->stalled = !ok;
    if (ok) {
        free(inst->reported);
        inst->reported = NULL;
        return;
    }
    const char *message = api.error_message(error);
    if (inst->reported && !strcmp(inst->reported, message)) return;
    say("%s", message);
    free(inst->reported);
    inst->reported = strdup(message);
}

/* A render failed (or the effect could not be created): the first input shows unchanged (a
 * source, which has none, shows transparent pixels). */
static void pass_through(instance *inst, const uint32_t *input, uint32_t *output) {
    if (!input && output) memset(output, 0, (size_t)inst->width * inst->height * 4);
    else if (input && output && input != output) memcpy(output, input, (size_t)inst->width * inst->height * 4);
}

/* Seconds as the C API takes them: finite and ≥ 0. */
static double host_time(double time) {
    return finite_number(time) && time > 0 ? time : 0;
}

void f0r_update(f0r_instance_t instance_pointer, double time, const uint32_t *inframe, uint32_t *outframe) {
    instance *inst = instance_pointer;
    if (!inst || (!inframe && !config.source) || !outframe) return;
    if (!config.filter || !ensure_effect(inst) || (inst->stalled && !parameters_changed(inst))) {
        pass_through(inst, inframe, outframe);
        return;
    }
    apply_parameters(inst);
    segue_error *error = NULL;
    /* A source's fill draws alone: the C API takes a NULL input for it. */
    int ok = api.effect_render(inst->effect, config.source ? NULL : (const uint8_t *)inframe, inst->width, inst->height,
                               (size_t)inst->width * 4, host_time(time), (uint8_t *)outframe, &error) == 0;
    rendered(inst, ok, error);
    if (!ok) pass_through(inst, inframe, outframe);
    api.error_free(error);
}

void f0r_update2(f0r_instance_t instance_pointer, double time, const uint32_t *inframe1, const uint32_t *inframe2,
                 const uint32_t *inframe3, uint32_t *outframe) {
    (void)inframe3;
    instance *inst = instance_pointer;
    if (config.source) {
        /* GStreamer's frei0r-src calls update2 with no inputs when a plugin has it. */
        f0r_update(instance_pointer, time, NULL, outframe);
        return;
    }
    if (!inst || !inframe1 || !outframe) return;
    if (config.filter) {
        /* GStreamer calls update2 on filters too when a plugin has it. */
        f0r_update(instance_pointer, time, inframe1, outframe);
        return;
    }
    if (!inframe2 || !ensure_effect(inst) || (inst->stalled && !parameters_changed(inst))) {
        pass_through(inst, inframe1, outframe);
        return;
    }
    apply_parameters(inst);
    segue_error *error = NULL;
    int ok = api.transition_render(inst->transition, (const uint8_t *)inframe1, (const uint8_t *)inframe2, inst->width,
                                   inst->height, (size_t)inst->width * 4, inst->progress, host_time(time), (uint8_t *)outframe,
                                   &error) == 0;
    rendered(inst, ok, error);
    if (!ok) pass_through(inst, inframe1, outframe);
    api.error_free(error);
}

