#include "AUHostWorkers.h"
