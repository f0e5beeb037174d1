/* The system libraries behind files, devices, codecs and DSP (alsa-lib, libsndfile, libjack, soxr,
   SoundTouch, mpg123, FLAC, Ogg, Vorbis, Opus) are opened on first use, not as the program starts:
   `auhost info` and `list`, and every C host that links libauhost, then load none of them. Each
   library's functions keep their own names (LazyLibrary.h): Swift code calls the libraries through
   their usual modules (CALSA, CSndFile, CJACK, …).
   AUHOST_SIMULATE_MISSING_LIBRARIES="libjack.so.0,…" makes those libraries count as absent, for
   tests of what a machine without one sees. */
#ifndef AUHOST_LAZY_LIBRARIES_H
#define AUHOST_LAZY_LIBRARIES_H

/* A call into a library that cannot be loaded stops the program, naming the library, as the
   dynamic loader did when these were linked. The codec and DSP libraries have no function that
   could fail as documented instead (libsndfile's sf_open, alsa-lib's snd_pcm_open, libjack's
   jack_client_open can, and do). Their users ask first: each function below answers NULL when
   its library is loaded (opening it on the first call), otherwise why it cannot be loaded, and
   the user fails with that reason and its own documented status.
   Thread class: any (the first call: setup). */
const char *auhost_soxr_unavailable(void);
const char *auhost_soundtouch_unavailable(void);
const char *auhost_mpg123_unavailable(void);
const char *auhost_flac_unavailable(void);
const char *auhost_ogg_unavailable(void);
const char *auhost_vorbis_unavailable(void);
const char *auhost_opus_unavailable(void);

#endif
