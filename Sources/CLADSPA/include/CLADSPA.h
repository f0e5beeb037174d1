// The LADSPA plug-in interface as ladspa-sdk installs it (/usr/include/ladspa.h), for Swift.
// ladspa.h's port and hint tests are function-like macros, which Swift does not import; the
// flags themselves (LADSPA_PORT_*, LADSPA_HINT_*) are plain constants and are used directly.
#ifndef CLADSPA_H
#define CLADSPA_H

#include <ladspa.h>

/// The name every LADSPA library exports its descriptor function under. Thread: any.
static inline const char *auhost_ladspa_descriptor_symbol(void) { return "ladspa_descriptor"; }

#endif
