/* A shared library opened on its first use, all of its functions resolved at once (so no later
   call, on a render thread either, takes the loader's lock), and stubs with the library's own
   function names that call through. The stubs are hidden: they serve this image only, and a
   plug-in linking the same library still binds to the library itself.
   A library is declared with X-macros listing its functions, F for one returning a value and V
   for one returning void:
       #define JACK_FUNCTIONS(F, V) F(int, jack_activate, (jack_client_t *c), (c)) V(jack_free, (void *p), (p))
   LAZY_LIBRARY (below) defines the library and the stubs, which stop the program with a message
   naming the library when it cannot be loaded, as the dynamic loader did at start-up. ENTRIES are the
   functions a use of the library begins with (sf_open, snd_pcm_open), whose stubs fail as
   documented instead. A stub's definition must match the header's declaration, so the compiler
   checks every signature. */
#ifndef AUHOST_LAZY_LIBRARY_H
#define AUHOST_LAZY_LIBRARY_H

#include <stddef.h>

typedef struct LazyLibrary {
    const char *soname;
    const char *const *names;
    void **symbols;
    size_t count;
    int state; /* 0 not tried, 1 loaded, -1 failed: written once, under the loader's lock */
    char error[480];
} LazyLibrary;

/* Opens the library and resolves every function the first time; after that one atomic load.
   Returns 1 when every function is there. Thread class: any (the first call: setup). */
int lazy_library_load(LazyLibrary *library);

/* NULL when the library is loaded (opening it on the first call); otherwise why it cannot be.
   Thread class: any (the first call: setup). */
const char *lazy_library_unavailable(LazyLibrary *library);

/* Function `index` of a library that must be there (stops the program when it cannot be loaded). */
void *lazy_library_function(LazyLibrary *library, size_t index);

#define LAZY_ENUM_F(ret, name, params, args) lazy_index_##name,
#define LAZY_ENUM_V(name, params, args) lazy_index_##name,
#define LAZY_NAME_F(ret, name, params, args) #name,
#define LAZY_NAME_V(name, params, args) #name,
#define LAZY_ENUM_E(ret, name, params, args, failure) lazy_index_##name,
#define LAZY_NAME_E(ret, name, params, args, failure) #name,
#define LAZY_FUNCTION(library, name) ((__typeof__(&name))lazy_library_function(&library, lazy_index_##name))

/* The table of the library LAZY_CURRENT names, and its FUNCTIONS' stubs. ENTRIES(E) lists the
   functions a use of the library begins with, each with what it answers when the library is
   absent, E(ret, name, params, args, failure); their stubs come from ENTRIES(LAZY_STUB_E), unless
   written by hand. LAZY_NONE: no entries. Each library is written
       #define LAZY_CURRENT jack_library
       LAZY_LIBRARY("libjack.so.0", JACK_ENTRIES, JACK_FUNCTIONS)
       #undef LAZY_CURRENT */
#define LAZY_NONE(E)
#define LAZY_LIBRARY(soname, ENTRIES, FUNCTIONS) \
    LAZY_NAMED_TABLE(LAZY_CURRENT, soname, ENTRIES, FUNCTIONS) FUNCTIONS(LAZY_STUB_F, LAZY_STUB_V)
/* (An argument is expanded before it is pasted only through a macro that does not paste it.) */
#define LAZY_NAMED_TABLE(library, soname, ENTRIES, FUNCTIONS) LAZY_TABLE(library, soname, ENTRIES, FUNCTIONS)
#define LAZY_TABLE(library, soname, ENTRIES, FUNCTIONS) \
    enum { ENTRIES(LAZY_ENUM_E) FUNCTIONS(LAZY_ENUM_F, LAZY_ENUM_V) lazy_##library##_count }; \
    static const char *const lazy_##library##_names[] = { \
        ENTRIES(LAZY_NAME_E) FUNCTIONS(LAZY_NAME_F, LAZY_NAME_V)}; \
    static void *lazy_##library##_symbols[lazy_##library##_count]; \
    static LazyLibrary library = { \
        soname, lazy_##library##_names, lazy_##library##_symbols, lazy_##library##_count, 0, {0}};

/* Stubs: call through, or (entries) answer `failure` when the library cannot be loaded. */
#define LAZY_STUB_F(ret, name, params, args) \
    __attribute__((visibility("hidden"))) ret name params { return LAZY_FUNCTION(LAZY_CURRENT, name) args; }
#define LAZY_STUB_V(name, params, args) \
    __attribute__((visibility("hidden"))) void name params { LAZY_FUNCTION(LAZY_CURRENT, name) args; }
#define LAZY_STUB_E(ret, name, params, args, failure) \
    __attribute__((visibility("hidden"))) ret name params { \
        if (!lazy_library_load(&LAZY_CURRENT)) return failure; \
        return LAZY_FUNCTION(LAZY_CURRENT, name) args; \
    }

#endif
