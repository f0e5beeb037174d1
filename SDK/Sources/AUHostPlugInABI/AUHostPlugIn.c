/* Layout checks: the table is read across images built by different compilers. */
#include "AUHostPlugIn.h"

_Static_assert(sizeof(AUHostPlugInHostFunctions) == 16, "AUHostPlugInHostFunctions is 16 bytes on LP64");
