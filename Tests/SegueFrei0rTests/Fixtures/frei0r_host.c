/*
 * A minimal frei0r host, built by SegueFrei0rTests with the system compiler (cc frei0r_host.c
 * -ldl -lpthread), to drive a plugin the way MLT and GStreamer do but with every call visible:
 *
 *   frei0r_host info PLUGIN
 *       Prints the plugin info ("name NAME", "type mixer2|filter", "model rgba8888", "params N"),
 *       one line per parameter ("param INDEX NAME TYPE") and "libsegue loaded|not-loaded": whether
 *       anything named libsegue/libSegueC is mapped into the process after listing.
 *   frei0r_host run [--parallel] [--update2] PLUGIN JOB...
 *       JOB is W;H;FROM;TO;OUT;PROGRESS;TIME[;NAME=VALUE]... with FROM, TO and OUT tightly packed
 *       straight RGBA8 files (TO unused by a filter). Each job constructs an instance of W×H,
 *       sets `progress` (mixers) and the NAME=VALUE parameters (double: a number; bool: 0/1;
 *       color: r,g,b; string: text), renders once and writes OUT. Jobs run one after another in one
 *       process, or with --parallel all at once, each on its own thread. --update2 renders a
 *       filter with f0r_update2 (as GStreamer does when a plugin has it). A construction that
 *       fails prints "job N: construct failed" and the exit status is 3.
 *   frei0r_host construct PLUGIN W H COUNT
 *       Constructs COUNT instances one after another, printing "instance" or "null" for each; each
 *       instance renders an opaque pattern twice (a mixer at progress 1 to a transparent second
 *       input), printing "copied" for a frame that is its first input unchanged, else "rendered".
 *   frei0r_host sequence PLUGIN W H STEP...
 *       One instance of W×H and, in order, each STEP: NAME=VALUE sets a parameter (as for run),
 *       "render" renders the pattern of construct (a mixer to a transparent second input) and
 *       prints "rendered" or "copied" — what a host's timeline does to one instance over frames.
 *
 * Exits 0 on success, 2 for usage or I/O problems.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <frei0r.h>

typedef struct {
    int (*init)(void);
    void (*get_plugin_info)(f0r_plugin_info_t *);
    void (*get_param_info)(f0r_param_info_t *, int);
    f0r_instance_t (*construct)(unsigned, unsigned);
    void (*destruct)(f0r_instance_t);
    void (*set_param_value)(f0r_instance_t, f0r_param_t, int);
    void (*get_param_value)(f0r_instance_t, f0r_param_t, int);
    void (*update)(f0r_instance_t, double, const uint32_t *, uint32_t *);
    void (*update2)(f0r_instance_t, double, const uint32_t *, const uint32_t *, const uint32_t *, uint32_t *);
} plugin;

static plugin p;
static f0r_plugin_info_t info;
static int always_update2;

static int load(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "dlopen %s: %s\n", path, dlerror()); return -1; }
#define SYM(field, name) *(void **)(&p.field) = dlsym(h, name)
    SYM(init, "f0r_init");
    SYM(get_plugin_info, "f0r_get_plugin_info");
    SYM(get_param_info, "f0r_get_param_info");
    SYM(construct, "f0r_construct");
    SYM(destruct, "f0r_destruct");
    SYM(set_param_value, "f0r_set_param_value");
    SYM(get_param_value, "f0r_get_param_value");
    SYM(update, "f0r_update");
    SYM(update2, "f0r_update2");
#undef SYM
    if (!p.init || !p.get_plugin_info || !p.construct || !p.update2 || !p.update) { fprintf(stderr, "missing symbols\n"); return -1; }
    if (!p.init()) { fprintf(stderr, "f0r_init returned 0\n"); return -1; }
    p.get_plugin_info(&info);
    return 0;
}

static int libsegue_mapped(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (maps && fgets(line, sizeof line, maps))
        if (strstr(line, "libsegue") || strstr(line, "libSegueC")) found = 1;
    if (maps) fclose(maps);
    return found;
}

static const char *type_name(int type) {
    switch (type) {
    case F0R_PARAM_BOOL: return "bool";
    case F0R_PARAM_DOUBLE: return "double";
    case F0R_PARAM_COLOR: return "color";
    case F0R_PARAM_POSITION: return "position";
    case F0R_PARAM_STRING: return "string";
    default: return "?";
    }
}

static int info_mode(const char *path) {
    if (load(path) != 0) return 2;
    printf("name %s\n", info.name);
    printf("type %s\n", info.plugin_type == F0R_PLUGIN_TYPE_MIXER2 ? "mixer2" : info.plugin_type == F0R_PLUGIN_TYPE_FILTER ? "filter" : "other");
    printf("model %s\n", info.color_model == F0R_COLOR_MODEL_RGBA8888 ? "rgba8888" : "other");
    printf("params %d\n", info.num_params);
    for (int i = 0; i < info.num_params; i++) {
        f0r_param_info_t pi;
        p.get_param_info(&pi, i);
        printf("param %d %s %s\n", i, pi.name, type_name(pi.type));
    }
    printf("libsegue %s\n", libsegue_mapped() ? "loaded" : "not-loaded");
    return 0;
}

/* MARK: - Jobs */

typedef struct {
    int index;
    unsigned w, h;
    char *from, *to, *out;
    double progress, time;
    char *params[32];
    int param_count;
    int failed;
} job;

static uint8_t *read_rgba(const char *path, size_t bytes) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *data = malloc(bytes);
    size_t n = data ? fread(data, 1, bytes, f) : 0;
    fclose(f);
    if (n != bytes) { free(data); return NULL; }
    return data;
}

static int find_param(const char *name, f0r_param_info_t *out) {
    for (int i = 0; i < info.num_params; i++) {
        p.get_param_info(out, i);
        if (!strcmp(out->name, name)) return i;
    }
    return -1;
}

static void set_param(f0r_instance_t inst, const char *assignment) {
    char name[256];
    const char *eq = strchr(assignment, '=');
    if (!eq || (size_t)(eq - assignment) >= sizeof name) return;
    memcpy(name, assignment, (size_t)(eq - assignment));
    name[eq - assignment] = 0;
    f0r_param_info_t pi;
    int index = find_param(name, &pi);
    if (index < 0) { fprintf(stderr, "no parameter %s\n", name); return; }
    const char *value = eq + 1;
    if (pi.type == F0R_PARAM_COLOR) {
        f0r_param_color_t c = {0, 0, 0};
        sscanf(value, "%f,%f,%f", &c.r, &c.g, &c.b);
        p.set_param_value(inst, &c, index);
    } else if (pi.type == F0R_PARAM_STRING) {
        p.set_param_value(inst, &value, index);
    } else {
        double d = strtod(value, NULL);
        p.set_param_value(inst, &d, index);
    }
}

static void *run_job(void *arg) {
    job *j = arg;
    size_t bytes = (size_t)j->w * j->h * 4;
    uint8_t *from = read_rgba(j->from, bytes), *to = info.plugin_type == F0R_PLUGIN_TYPE_MIXER2 ? read_rgba(j->to, bytes) : NULL;
    uint8_t *out = malloc(bytes > 0 ? bytes : 1);
    if ((!from && bytes > 0) || (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2 && !to && bytes > 0)) {
        fprintf(stderr, "job %d: cannot read the inputs\n", j->index);
        j->failed = 2;
        free(from); free(to); free(out);
        return NULL;
    }
    f0r_instance_t inst = p.construct(j->w, j->h);
    if (!inst) {
        printf("job %d: construct failed\n", j->index);
        j->failed = 3;
        free(from); free(to); free(out);
        return NULL;
    }
    if (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2) {
        char assignment[64];
        snprintf(assignment, sizeof assignment, "progress=%.17g", j->progress);
        set_param(inst, assignment);
    }
    for (int i = 0; i < j->param_count; i++) set_param(inst, j->params[i]);
    if (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2) p.update2(inst, j->time, (uint32_t *)from, (uint32_t *)to, NULL, (uint32_t *)out);
    else if (always_update2) p.update2(inst, j->time, (uint32_t *)from, NULL, NULL, (uint32_t *)out);
    else p.update(inst, j->time, (uint32_t *)from, (uint32_t *)out);
    p.destruct(inst);
    FILE *f = fopen(j->out, "wb");
    if (!f || fwrite(out, 1, bytes, f) != bytes) { fprintf(stderr, "job %d: cannot write %s\n", j->index, j->out); j->failed = 2; }
    if (f) fclose(f);
    free(from); free(to); free(out);
    return NULL;
}

static int parse_job(char *text, job *j) {
    char *fields[40];
    int n = 0;
    for (char *save = NULL, *f = strtok_r(text, ";", &save); f && n < 40; f = strtok_r(NULL, ";", &save)) fields[n++] = f;
    if (n < 7) return -1;
    j->w = (unsigned)strtoul(fields[0], NULL, 10);
    j->h = (unsigned)strtoul(fields[1], NULL, 10);
    j->from = fields[2];
    j->to = fields[3];
    j->out = fields[4];
    j->progress = strtod(fields[5], NULL);
    j->time = strtod(fields[6], NULL);
    for (int i = 7; i < n && j->param_count < 32; i++) j->params[j->param_count++] = fields[i];
    return 0;
}

static int run_mode(int argc, char **argv) {
    int first = 2, parallel = 0;
    for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
        if (!strcmp(argv[first], "--parallel")) parallel = 1;
        else if (!strcmp(argv[first], "--update2")) always_update2 = 1;
        else { fprintf(stderr, "unknown option %s\n", argv[first]); return 2; }
    }
    if (argc < first + 2 || load(argv[first]) != 0) return 2;
    int count = argc - first - 1;
    job *jobs = calloc((size_t)count, sizeof *jobs);
    for (int i = 0; i < count; i++) {
        jobs[i].index = i;
        if (parse_job(argv[first + 1 + i], &jobs[i]) != 0) { fprintf(stderr, "bad job %s\n", argv[first + 1 + i]); return 2; }
    }
    if (parallel) {
        pthread_t *threads = calloc((size_t)count, sizeof *threads);
        for (int i = 0; i < count; i++) pthread_create(&threads[i], NULL, run_job, &jobs[i]);
        for (int i = 0; i < count; i++) pthread_join(threads[i], NULL);
        free(threads);
    } else {
        for (int i = 0; i < count; i++) run_job(&jobs[i]);
    }
    int status = 0;
    for (int i = 0; i < count; i++) if (jobs[i].failed > status) status = jobs[i].failed;
    free(jobs);
    return status;
}

static int construct_mode(int argc, char **argv) {
    if (argc != 6 || load(argv[2]) != 0) return 2;
    unsigned w = (unsigned)strtoul(argv[3], NULL, 10), h = (unsigned)strtoul(argv[4], NULL, 10);
    int count = atoi(argv[5]);
    size_t bytes = (size_t)w * h * 4;
    for (int i = 0; i < count; i++) {
        f0r_instance_t inst = p.construct(w, h);
        printf("%s\n", inst ? "instance" : "null");
        fflush(stdout);
        if (!inst || bytes == 0) { if (inst) p.destruct(inst); continue; }
        uint8_t *a = malloc(bytes), *b = calloc(1, bytes), *out = calloc(1, bytes);
        for (size_t k = 0; k < bytes; k++) a[k] = (uint8_t)(k * 7 + 3) | 1;
        for (size_t k = 3; k < bytes; k += 4) a[k] = 255;
        if (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2) set_param(inst, "progress=1");
        for (int frame = 0; frame < 2; frame++) {
            memset(out, 0, bytes);
            if (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2) p.update2(inst, frame * 0.04, (uint32_t *)a, (uint32_t *)b, NULL, (uint32_t *)out);
            else p.update(inst, frame * 0.04, (uint32_t *)a, (uint32_t *)out);
            printf("%s\n", memcmp(a, out, bytes) != 0 ? "rendered" : "copied");
        }
        p.destruct(inst);
        free(a); free(b); free(out);
    }
    return 0;
}

static int sequence_mode(int argc, char **argv) {
    if (argc < 6 || load(argv[2]) != 0) return 2;
    unsigned w = (unsigned)strtoul(argv[3], NULL, 10), h = (unsigned)strtoul(argv[4], NULL, 10);
    size_t bytes = (size_t)w * h * 4;
    f0r_instance_t inst = p.construct(w, h);
    if (!inst || bytes == 0) { printf("null\n"); return 0; }
    uint8_t *a = malloc(bytes), *b = calloc(1, bytes), *out = calloc(1, bytes);
    for (size_t k = 0; k < bytes; k++) a[k] = (uint8_t)(k * 7 + 3) | 1;
    for (size_t k = 3; k < bytes; k += 4) a[k] = 255;
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "render") != 0) { set_param(inst, argv[i]); continue; }
        memset(out, 0, bytes);
        if (info.plugin_type == F0R_PLUGIN_TYPE_MIXER2) p.update2(inst, 0, (uint32_t *)a, (uint32_t *)b, NULL, (uint32_t *)out);
        else p.update(inst, 0, (uint32_t *)a, (uint32_t *)out);
        printf("%s\n", memcmp(a, out, bytes) != 0 ? "rendered" : "copied");
        fflush(stdout);
    }
    p.destruct(inst);
    free(a); free(b); free(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 3 && !strcmp(argv[1], "info")) return info_mode(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "run")) return run_mode(argc, argv);
    if (argc >= 3 && !strcmp(argv[1], "construct")) return construct_mode(argc, argv);
    if (argc >= 3 && !strcmp(argv[1], "sequence")) return sequence_mode(argc, argv);
    fprintf(stderr, "usage: frei0r_host info PLUGIN | run [--parallel] PLUGIN JOB... | construct PLUGIN W H COUNT | sequence PLUGIN W H STEP...\n");
    return 2;
}
