/* alsa-lib, opened with the first PCM. */

#include "LazyLibrary.h"

#include <errno.h>
#include <alsa/asoundlib.h>

/* Without alsa-lib no PCM opens, snd_strerror names the library whatever the code, and its
   configuration cache has nothing to free. */
#define ALSA_ENTRIES(E) \
    E(int, snd_pcm_open, (snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode), \
      (pcm, name, stream, mode), -ENOENT) \
    E(const char *, snd_strerror, (int errnum), (errnum), alsa_library.error) \
    E(int, snd_config_update_free_global, (void), (), 0)

#define ALSA_FUNCTIONS(F, V) \
    F(int, snd_pcm_close, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_drop, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_hw_free, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_hw_params, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params)) \
    F(int, snd_pcm_hw_params_any, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params)) \
    F(int, snd_pcm_hw_params_current, (snd_pcm_t *pcm, snd_pcm_hw_params_t *params), (pcm, params)) \
    V(snd_pcm_hw_params_free, (snd_pcm_hw_params_t *obj), (obj)) \
    F(int, snd_pcm_hw_params_get_buffer_size, \
      (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *val), \
      (params, val)) \
    F(int, snd_pcm_hw_params_get_channels, \
      (const snd_pcm_hw_params_t *params, unsigned int *val), \
      (params, val)) \
    F(int, snd_pcm_hw_params_get_period_size, \
      (const snd_pcm_hw_params_t *params, snd_pcm_uframes_t *frames, int *dir), \
      (params, frames, dir)) \
    F(int, snd_pcm_hw_params_get_periods, \
      (const snd_pcm_hw_params_t *params, unsigned int *val, int *dir), \
      (params, val, dir)) \
    F(int, snd_pcm_hw_params_get_rate, \
      (const snd_pcm_hw_params_t *params, unsigned int *val, int *dir), \
      (params, val, dir)) \
    F(int, snd_pcm_hw_params_malloc, (snd_pcm_hw_params_t **ptr), (ptr)) \
    F(int, snd_pcm_hw_params_set_access, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_access_t _access), \
      (pcm, params, _access)) \
    F(int, snd_pcm_hw_params_set_channels_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val), \
      (pcm, params, val)) \
    F(int, snd_pcm_hw_params_set_format, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_format_t val), \
      (pcm, params, val)) \
    F(int, snd_pcm_hw_params_set_period_size_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_uframes_t *val, int *dir), \
      (pcm, params, val, dir)) \
    F(int, snd_pcm_hw_params_set_periods_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val, int *dir), \
      (pcm, params, val, dir)) \
    F(int, snd_pcm_hw_params_set_rate_near, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, unsigned int *val, int *dir), \
      (pcm, params, val, dir)) \
    F(int, snd_pcm_hw_params_test_format, \
      (snd_pcm_t *pcm, snd_pcm_hw_params_t *params, snd_pcm_format_t val), \
      (pcm, params, val)) \
    F(int, snd_pcm_link, (snd_pcm_t *pcm1, snd_pcm_t *pcm2), (pcm1, pcm2)) \
    F(int, snd_pcm_nonblock, (snd_pcm_t *pcm, int nonblock), (pcm, nonblock)) \
    F(int, snd_pcm_prepare, (snd_pcm_t *pcm), (pcm)) \
    F(snd_pcm_sframes_t, snd_pcm_readi, \
      (snd_pcm_t *pcm, void *buffer, snd_pcm_uframes_t size), \
      (pcm, buffer, size)) \
    F(snd_pcm_sframes_t, snd_pcm_readn, \
      (snd_pcm_t *pcm, void **bufs, snd_pcm_uframes_t size), \
      (pcm, bufs, size)) \
    F(int, snd_pcm_recover, (snd_pcm_t *pcm, int err, int silent), (pcm, err, silent)) \
    F(int, snd_pcm_start, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_sw_params, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params), (pcm, params)) \
    F(int, snd_pcm_sw_params_current, (snd_pcm_t *pcm, snd_pcm_sw_params_t *params), (pcm, params)) \
    V(snd_pcm_sw_params_free, (snd_pcm_sw_params_t *obj), (obj)) \
    F(int, snd_pcm_sw_params_get_avail_min, \
      (const snd_pcm_sw_params_t *params, snd_pcm_uframes_t *val), \
      (params, val)) \
    F(int, snd_pcm_sw_params_get_boundary, \
      (const snd_pcm_sw_params_t *params, snd_pcm_uframes_t *val), \
      (params, val)) \
    F(int, snd_pcm_sw_params_get_start_threshold, \
      (const snd_pcm_sw_params_t *paramsm, snd_pcm_uframes_t *val), \
      (paramsm, val)) \
    F(int, snd_pcm_sw_params_malloc, (snd_pcm_sw_params_t **ptr), (ptr)) \
    F(int, snd_pcm_sw_params_set_avail_min, \
      (snd_pcm_t *pcm, snd_pcm_sw_params_t *params, snd_pcm_uframes_t val), \
      (pcm, params, val)) \
    F(int, snd_pcm_sw_params_set_start_threshold, \
      (snd_pcm_t *pcm, snd_pcm_sw_params_t *params, snd_pcm_uframes_t val), \
      (pcm, params, val)) \
    F(int, snd_pcm_unlink, (snd_pcm_t *pcm), (pcm)) \
    F(int, snd_pcm_wait, (snd_pcm_t *pcm, int timeout), (pcm, timeout)) \
    F(snd_pcm_sframes_t, snd_pcm_writei, \
      (snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size), \
      (pcm, buffer, size)) \
    F(snd_pcm_sframes_t, snd_pcm_writen, \
      (snd_pcm_t *pcm, void **bufs, snd_pcm_uframes_t size), \
      (pcm, bufs, size))

#define LAZY_CURRENT alsa_library
LAZY_LIBRARY("libasound.so.2", ALSA_ENTRIES, ALSA_FUNCTIONS)
ALSA_ENTRIES(LAZY_STUB_E)
#undef LAZY_CURRENT
