#define _GNU_SOURCE
#include "ImagePath.h"

#include <dlfcn.h>
#include <stddef.h>

const char *auhost_image_path(void) {
    Dl_info info;
    return dladdr((void *)auhost_image_path, &info) && info.dli_fname ? info.dli_fname : NULL;
}
