/*
 * A program linking the installed library finds LADSPA plug-ins: describing a LADSPA library
 * means running it, which the library does in the child `make install` puts in
 * PREFIX/libexec/auhost. check-c runs this with an empty cache and the test LADSPA_PATH; it
 * succeeds when a unit whose name contains argv[1] is listed.
 */
#include "named_component.h"

#include <stdio.h>

int main(int argc, char **argv) {
    const char *wanted = argc > 1 ? argv[1] : "C* AmpVTS";
    char name[512];
    if (named_component(wanted, name, sizeof name)) {
        printf("LADSPA through the installed library: %s\n", name);
        return 0;
    }
    fprintf(stderr, "no unit named like \"%s\": the LADSPA libraries were not described\n", wanted);
    return 1;
}
