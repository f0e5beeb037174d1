/* SoundTouch's C interface (libsoundtouch-dev, LGPL-2.1): time-stretch and pitch-shift for the
   audio queue's PlayRate and Pitch parameters. */
#include <SoundTouchDLL.h>
