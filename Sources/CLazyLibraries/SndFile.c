/* libsndfile, opened with the first audio file. */

#include "LazyLibrary.h"

#include <sndfile.h>

#define SNDFILE_ENTRIES(F, V) \
    F(int, sf_error, (SNDFILE *sndfile), (sndfile)) \
    F(const char *, sf_error_number, (int errnum), (errnum)) \
    F(int, sf_format_check, (const SF_INFO *info), (info)) \
    F(SNDFILE *, sf_open, (const char *path, int mode, SF_INFO *sfinfo), (path, mode, sfinfo)) \
    F(const char *, sf_strerror, (SNDFILE *sndfile), (sndfile))

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

LAZY_LIBRARY(sndfile_library, "libsndfile.so.1", SNDFILE_ENTRIES, SNDFILE_FUNCTIONS)
#define STUB_F(ret, name, params, args) LAZY_STUB_F(sndfile_library, ret, name, params, args)
#define STUB_V(name, params, args) LAZY_STUB_V(sndfile_library, name, params, args)
SNDFILE_FUNCTIONS(STUB_F, STUB_V)
#undef STUB_F
#undef STUB_V

/* Without libsndfile no file opens, no format checks, and the error text names the library. */
__attribute__((visibility("hidden"))) SNDFILE *sf_open(const char *path, int mode, SF_INFO *sfinfo) {
    if (!lazy_library_load(&sndfile_library)) return NULL;
    return LAZY_FUNCTION(sndfile_library, sf_open)(path, mode, sfinfo);
}

__attribute__((visibility("hidden"))) int sf_format_check(const SF_INFO *info) {
    if (!lazy_library_load(&sndfile_library)) return 0;
    return LAZY_FUNCTION(sndfile_library, sf_format_check)(info);
}

__attribute__((visibility("hidden"))) int sf_error(SNDFILE *sndfile) {
    if (!lazy_library_load(&sndfile_library)) return SF_ERR_SYSTEM;
    return LAZY_FUNCTION(sndfile_library, sf_error)(sndfile);
}

__attribute__((visibility("hidden"))) const char *sf_strerror(SNDFILE *sndfile) {
    if (!lazy_library_load(&sndfile_library)) return sndfile_library.error;
    return LAZY_FUNCTION(sndfile_library, sf_strerror)(sndfile);
}

__attribute__((visibility("hidden"))) const char *sf_error_number(int errnum) {
    if (!lazy_library_load(&sndfile_library)) return sndfile_library.error;
    return LAZY_FUNCTION(sndfile_library, sf_error_number)(errnum);
}
