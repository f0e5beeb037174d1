/* Layout checks: these structs are read across a host's image and the plug-in's. */
#include "CLV2Export.h"

_Static_assert(sizeof(LV2_Descriptor) == 8 * sizeof(void *), "LV2_Descriptor is eight pointers");
_Static_assert(sizeof(LV2_Atom_Event) == 16, "LV2_Atom_Event is a 64-bit time and an atom header");
_Static_assert(sizeof(AUHostLV2TurtleGenerator) == sizeof(void *), "the generator is one function pointer");
