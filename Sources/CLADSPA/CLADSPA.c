// CLADSPA is header-only (see include/CLADSPA.h); SwiftPM needs one source file in a C target.
#include "CLADSPA.h"
