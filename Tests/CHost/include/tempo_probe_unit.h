/* tempo_probe_unit.h — the C instrument of tempo_probe_unit.c: in every render call it asks the
   host's callbacks (kAudioUnitProperty_HostCallbacks) for beat and tempo, the musical time
   location and the transport, and logs the answers. Identity 'aumu' 'tprb' 'AUHt'. */
#ifndef AUHOST_TESTS_TEMPO_PROBE_UNIT_H
#define AUHOST_TESTS_TEMPO_PROBE_UNIT_H
#include <AudioToolbox/AudioToolbox.h>

AU_ASSUME_NONNULL_BEGIN

#define TEMPO_PROBE_CAPACITY 8192

/* What one render call learnt. beatStatus: the beat-and-tempo callback's status. */
typedef struct TempoProbeEntry {
    UInt32 frames;
    OSStatus beatStatus;
    Float64 beat, tempo;
    UInt32 samplesToNextBeat;
    Float32 numerator;
    UInt32 denominator;
    Float64 downBeat;
    Boolean playing, changed;
    Float64 sampleInTimeLine;
} TempoProbeEntry;

/* [setup] The factory to pass to AudioComponentRegister. */
AudioComponentPlugInInterface *_Nullable TempoProbeFactory(const AudioComponentDescription *desc);
/* [setup] The log, shared by every instance: cleared, counted, read. */
void TempoProbeReset(void);
int TempoProbeCount(void);
TempoProbeEntry TempoProbeGet(int index);

AU_ASSUME_NONNULL_END
#endif
