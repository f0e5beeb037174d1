/* gain_unit.h — the C gain unit of gain_unit.c: a minimal unit written to the documented plug-in
   interface that answers only the properties it needs (no ElementCount, no ShouldAllocateBuffer,
   no InPlaceProcessing). Identity 'aufx' 'cgan' 'AUHt'; output = input × parameter 0 (0.5). */
#ifndef AUHOST_TESTS_GAIN_UNIT_H
#define AUHOST_TESTS_GAIN_UNIT_H
#include <AudioToolbox/AudioToolbox.h>

/* [setup] The factory to pass to AudioComponentRegister. */
AU_ASSUME_NONNULL_BEGIN
AudioComponentPlugInInterface *_Nullable GainUnitFactory(const AudioComponentDescription *desc);
AU_ASSUME_NONNULL_END

#endif
