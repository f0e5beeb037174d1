/* A plug-in that needs a function no image defines: dlopen (RTLD_NOW) refuses it. */
#include <AudioToolbox/AudioToolbox.h>

extern AudioComponentPlugInInterface *auhost_fixture_function_nobody_defines(void);

AudioComponentPlugInInterface *UndefinedFactory(const AudioComponentDescription *inDesc) {
    (void)inDesc;
    return auhost_fixture_function_nobody_defines();
}
