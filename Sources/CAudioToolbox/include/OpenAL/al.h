/*
 * OpenAL/al.h — where Mac code includes OpenAL from (OpenAL.framework). On Linux OpenAL is OpenAL
 * Soft (Debian: libopenal-dev, headers in <AL/…>, link -lopenal): this header brings its al.h, so
 * ported code builds unchanged. AUHost does not implement OpenAL; docs/PORTING.md says what differs.
 */
#include <AL/al.h>
