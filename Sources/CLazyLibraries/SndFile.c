/* libsndfile, opened with the first audio file. */

#include "LazyLibrary.h"

#include <sndfile.h>

/* Without libsndfile no file opens, no format checks, and the error text names the library. */
#define SNDFILE_ENTRIES(E) \
    E(SNDFILE *, sf_open, (const char *path, int mode, SF_INFO *sfinfo), (path, mode, sfinfo), NULL) \
    E(int, sf_format_check, (const SF_INFO *info), (info), 0) \
    E(int, sf_error, (SNDFILE *sndfile), (sndfile), SF_ERR_SYSTEM) \
    E(const char *, sf_strerror, (SNDFILE *sndfile), (sndfile), sndfile_library.error) \
    E(const char *, sf_error_number, (int errnum), (errnum), sndfile_library.error)

#define SNDFILE_FUNCTIONS(F, V) \
    F(int, sf_close, (SNDFILE *sndfile), (sndfile)) \
    F(int, sf_command, \
      (SNDFILE *sndfile, int command, void *data, int datasize), \
      (sndfile, command, data, datasize)) \
    F(sf_count_t, sf_read_raw, (SNDFILE *sndfile, void *ptr, sf_count_t bytes), (sndfile, ptr, bytes)) \
    F(sf_count_t, sf_readf_float, (SNDFILE *sndfile, float *ptr, sf_count_t frames), (sndfile, ptr, frames)) \
    F(sf_count_t, sf_readf_int, (SNDFILE *sndfile, int *ptr, sf_count_t frames), (sndfile, ptr, frames)) \
    F(sf_count_t, sf_seek, (SNDFILE *sndfile, sf_count_t frames, int whence), (sndfile, frames, whence)) \
    F(sf_count_t, sf_write_raw, \
      (SNDFILE *sndfile, const void *ptr, sf_count_t bytes), \
      (sndfile, ptr, bytes)) \
    F(sf_count_t, sf_writef_float, \
      (SNDFILE *sndfile, const float *ptr, sf_count_t frames), \
      (sndfile, ptr, frames)) \
    F(sf_count_t, sf_writef_int, \
      (SNDFILE *sndfile, const int *ptr, sf_count_t frames), \
      (sndfile, ptr, frames)) \
    F(sf_count_t, sf_writef_short, \
      (SNDFILE *sndfile, const short *ptr, sf_count_t frames), \
      (sndfile, ptr, frames))

#define LAZY_CURRENT sndfile_library
LAZY_LIBRARY("libsndfile.so.1", SNDFILE_ENTRIES, SNDFILE_FUNCTIONS)
SNDFILE_ENTRIES(LAZY_STUB_E)
#undef LAZY_CURRENT
