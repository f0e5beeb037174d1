#include "AUHostAtomics.h"
