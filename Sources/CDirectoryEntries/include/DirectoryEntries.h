/*
 * DirectoryEntries.h — a folder's entries straight from the kernel (getdents64), for the LV2
 * catalog's fingerprint walk: opendir/readdir on a descriptor costs three more system calls a
 * folder (fstat, two fcntl) and a heap block, and the walk opens every bundle on every start.
 * Thread class: setup (a system call).
 */
#ifndef AUHOST_DIRECTORY_ENTRIES_H
#define AUHOST_DIRECTORY_ENTRIES_H

#include <stddef.h>
#include <stdint.h>

/* One entry as the kernel lays it out (struct linux_dirent64). */
typedef struct {
    uint64_t inode;
    int64_t offset;
    uint16_t length; /* of the whole record, name and padding included */
    uint8_t type;    /* DT_DIR, DT_REG, DT_LNK, DT_UNKNOWN… */
    char name[];     /* NUL-terminated */
} auhost_directory_entry;

/* The entry's name (Swift does not see the flexible array member). */
static inline const char *_Nonnull auhost_directory_entry_name(const auhost_directory_entry *_Nonnull entry) {
    return entry->name;
}

/* Fills buffer with the next entries of the open folder fd: the bytes filled, 0 at the end, or
 * -1 with errno set. Walk the records by their length. */
long auhost_read_directory_entries(int fd, void *_Nonnull buffer, size_t size);

#endif
