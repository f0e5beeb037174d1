/* OpenAL/alc.h — OpenAL Soft's alc.h under the Mac include path (see OpenAL/al.h). */
#include <AL/alc.h>
