/* The system libraries behind files, devices, codecs and DSP (alsa-lib, libsndfile, libjack, soxr,
   SoundTouch, mpg123, FLAC, Ogg, Vorbis, Opus) are opened on first use, not as the program starts:
   `auhost info` and `list`, and every C host that links libauhost, then load none of them. Each
   library's functions keep their own names (LazyLibrary.h), so this target has no API of its own;
   Swift code calls the libraries through their usual modules (CALSA, CSndFile, CJACK, …).
   AUHOST_SIMULATE_MISSING_LIBRARIES="libjack.so.0,…" makes those libraries count as absent, for
   tests of what a machine without one sees. */
#ifndef AUHOST_LAZY_LIBRARIES_H
#define AUHOST_LAZY_LIBRARIES_H
#endif
