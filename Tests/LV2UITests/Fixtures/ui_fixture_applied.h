/* The UI fixture plug-in's extension data (urn:auhost:fixture:ui-gain#applied): the gain its
   last run applied. A UI reaches it only through data-access and calls it with the handle from
   instance-access, so only a UI in the plug-in's own process can show it. */
#ifndef UI_FIXTURE_APPLIED_H
#define UI_FIXTURE_APPLIED_H

#include <lv2/core/lv2.h>

#define FIXTURE_APPLIED_URI "urn:auhost:fixture:ui-gain#applied"

typedef struct {
    float (*applied)(LV2_Handle instance);
} FixtureApplied;

#endif
