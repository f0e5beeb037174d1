#include "LazyLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "AUHostFloatMode.h"

/* Held only while a library is opened (once per library and process). */
static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/* AUHOST_SIMULATE_MISSING_LIBRARIES="libjack.so.0,…": those libraries are taken as absent, so
   that tests can show what a machine without one sees. */
static int simulated_missing(const char *soname) {
    size_t length = strlen(soname);
    const char *p = getenv("AUHOST_SIMULATE_MISSING_LIBRARIES");
    while (p != NULL && *p != '\0') {
        if (strncmp(p, soname, length) == 0 && (p[length] == ',' || p[length] == '\0')) return 1;
        p = strchr(p, ',');
        if (p != NULL) p++;
    }
    return 0;
}

static int open_library(LazyLibrary *library) {
    if (simulated_missing(library->soname)) {
        snprintf(library->error, sizeof library->error,
                 "%s: taken as missing (AUHOST_SIMULATE_MISSING_LIBRARIES)", library->soname);
        return -1;
    }
    /* A library built with -ffast-math sets flush-to-zero as it loads (libSoundTouchDll does):
       the loading thread keeps its own mode. Global, as linking the library made its symbols. */
    unsigned int float_mode = auhost_float_mode_save();
    void *handle = dlopen(library->soname, RTLD_NOW | RTLD_GLOBAL);
    auhost_float_mode_restore(float_mode);
    if (handle == NULL) {
        snprintf(library->error, sizeof library->error, "%s", dlerror());
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        library->symbols[i] = dlsym(handle, library->names[i]);
        if (library->symbols[i] == NULL) {
            snprintf(library->error, sizeof library->error,
                     "%s has no %s (a version AUHost was not built for)", library->soname, library->names[i]);
            dlclose(handle);
            return -1;
        }
    }
    return 1;
}

int lazy_library_load(LazyLibrary *library) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state != 0) return state > 0;
    pthread_mutex_lock(&loading);
    if (library->state == 0) {
        state = open_library(library);
        if (state < 0) fprintf(stderr, "AUHost: cannot load %s: %s\n", library->soname, library->error);
        __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&loading);
    return library->state > 0;
}

const char *lazy_library_unavailable(LazyLibrary *library) {
    return lazy_library_load(library) ? NULL : library->error;
}

void *lazy_library_function(LazyLibrary *library, size_t index) {
    if (__builtin_expect(!lazy_library_load(library), 0)) {
        fprintf(stderr, "AUHost: %s is needed here and cannot be loaded; install it (see README.md)\n",
                library->soname);
        abort();
    }
    return library->symbols[index];
}
