/* SoundTouch's C interface (libsoundtouch-dev, LGPL-2.1): time-stretch for the time-pitch unit and
   the audio queue's PlayRate and Pitch. */
#include <SoundTouchDLL.h>

/* Setting IDs for soundtouch_setSetting/getSetting: SoundTouch.h defines them, but it is C++. */
#define SETTING_USE_AA_FILTER 0
#define SETTING_OVERLAP_MS 5
#define SETTING_NOMINAL_INPUT_SEQUENCE 6
#define SETTING_INITIAL_LATENCY 8
