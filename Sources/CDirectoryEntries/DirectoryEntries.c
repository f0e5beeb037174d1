#define _GNU_SOURCE
#include "DirectoryEntries.h"

#include <dirent.h>

long auhost_read_directory_entries(int fd, void *buffer, size_t size) {
    return (long)getdents64(fd, buffer, size);
}
