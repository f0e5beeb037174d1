/* soxr (sample-rate conversion) and SoundTouch (time-stretch), opened with their first user. */

#include "AUHostLazyLibraries.h"
#include "LazyLibrary.h"

#include <soxr.h>
#include <SoundTouchDLL.h>

#define SOXR_FUNCTIONS(F, V) \
    F(soxr_t, soxr_create, \
      (double input_rate, double output_rate, unsigned int num_channels, soxr_error_t *a3, \
       const soxr_io_spec_t *a4, const soxr_quality_spec_t *a5, const soxr_runtime_spec_t *a6), \
      (input_rate, output_rate, num_channels, a3, a4, a5, a6)) \
    F(double, soxr_delay, (soxr_t a0), (a0)) \
    V(soxr_delete, (soxr_t a0), (a0)) \
    F(soxr_io_spec_t, soxr_io_spec, (soxr_datatype_t itype, soxr_datatype_t otype), (itype, otype)) \
    F(soxr_error_t, soxr_oneshot, \
      (double input_rate, double output_rate, unsigned int num_channels, soxr_in_t in, size_t ilen, \
       size_t *idone, soxr_out_t out, size_t olen, size_t *odone, const soxr_io_spec_t *a9, \
       const soxr_quality_spec_t *a10, const soxr_runtime_spec_t *a11), \
      (input_rate, output_rate, num_channels, in, ilen, idone, out, olen, odone, a9, a10, a11)) \
    F(soxr_error_t, soxr_process, \
      (soxr_t resampler, soxr_in_t in, size_t ilen, size_t *idone, soxr_out_t out, size_t olen, \
       size_t *odone), \
      (resampler, in, ilen, idone, out, olen, odone)) \
    F(soxr_quality_spec_t, soxr_quality_spec, (unsigned long recipe, unsigned long flags), (recipe, flags)) \
    F(soxr_runtime_spec_t, soxr_runtime_spec, (unsigned int num_threads), (num_threads))

#define LAZY_CURRENT soxr_library
LAZY_LIBRARY("libsoxr.so.0", LAZY_NONE, SOXR_FUNCTIONS)
#undef LAZY_CURRENT

#define SOUNDTOUCH_FUNCTIONS(F, V) \
    V(soundtouch_clear, (HANDLE h), (h)) \
    F(HANDLE, soundtouch_createInstance, (void), ()) \
    V(soundtouch_destroyInstance, (HANDLE h), (h)) \
    F(int, soundtouch_getSetting, (HANDLE h, int settingId), (h, settingId)) \
    F(unsigned int, soundtouch_numSamples, (HANDLE h), (h)) \
    F(unsigned int, soundtouch_numUnprocessedSamples, (HANDLE h), (h)) \
    F(int, soundtouch_putSamples, \
      (HANDLE h, const float *samples, unsigned int numSamples), \
      (h, samples, numSamples)) \
    F(unsigned int, soundtouch_receiveSamples, \
      (HANDLE h, float *outBuffer, unsigned int maxSamples), \
      (h, outBuffer, maxSamples)) \
    F(int, soundtouch_setChannels, (HANDLE h, unsigned int numChannels), (h, numChannels)) \
    F(int, soundtouch_setSampleRate, (HANDLE h, unsigned int srate), (h, srate)) \
    F(int, soundtouch_setSetting, (HANDLE h, int settingId, int value), (h, settingId, value)) \
    V(soundtouch_setTempo, (HANDLE h, float newTempo), (h, newTempo))

#define LAZY_CURRENT soundtouch_library
LAZY_LIBRARY("libSoundTouchDll.so.1", LAZY_NONE, SOUNDTOUCH_FUNCTIONS)
#undef LAZY_CURRENT

const char *auhost_soxr_unavailable(void) { return lazy_library_unavailable(&soxr_library); }
const char *auhost_soundtouch_unavailable(void) { return lazy_library_unavailable(&soundtouch_library); }
