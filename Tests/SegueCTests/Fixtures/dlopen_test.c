/*
 * Opens libsegue the way plugin hosts do (MLT, GStreamer, frei0r loaders): dlopen with every
 * symbol bound at once, nothing but the path given.
 *
 *   cc dlopen_test.c -ldl -o dlopen_test && ./dlopen_test PATH/TO/libsegue.so
 *
 * Prints "VERSION BUILTINS" and exits 0, or prints dlerror() and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: dlopen_test LIBRARY\n"); return 2; }
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    const char *(*version)(void) = (const char *(*)(void))dlsym(library, "segue_version");
    size_t (*count)(void) = (size_t (*)(void))dlsym(library, "segue_builtin_count");
    if (!version || !count) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    printf("%s %zu\n", version(), count());
    return 0;
}
