/*
 * ImagePath.h — the file this code was loaded from (the auhost executable, or libauhost.so for a
 * program that links the installed library), so that helper programs installed beside it
 * (PREFIX/libexec/auhost) are found wherever the program itself lives. dladdr needs _GNU_SOURCE,
 * which Swift's Glibc module does not define.
 * Thread class: any.
 */
#ifndef AUHOST_IMAGE_PATH_H
#define AUHOST_IMAGE_PATH_H

/* The path of the image holding this function, or NULL when the loader cannot say. */
const char *auhost_image_path(void);

#endif
