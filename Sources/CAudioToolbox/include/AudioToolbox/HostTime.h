/*
 * HostTime.h — the host clock (Apple: <CoreAudio/HostTime.h>). On Apple's platforms host time is
 * mach_absolute_time(); here it is CLOCK_MONOTONIC in nanoseconds, the clock the I/O units write
 * into AudioTimeStamp.mHostTime and Core MIDI uses for MIDITimeStamp. One host tick is one
 * nanosecond, so the conversions are the identity (call them anyway: ported code stays right).
 *
 * Thread class: any thread (no allocation, no lock; render threads too).
 */
#ifndef AUHOST_HOSTTIME_H
#define AUHOST_HOSTTIME_H

#include <AudioToolbox/MacTypes.h>

AUHOST_EXTERN_C_BEGIN

/* Now, in host ticks (CLOCK_MONOTONIC nanoseconds). */
UInt64 AudioGetCurrentHostTime(void);
/* Host ticks per second: 1e9. */
Float64 AudioGetHostClockFrequency(void);
/* The smallest interval the clock tells apart, in ticks (clock_getres). */
UInt32 AudioGetHostClockMinimumTimeDelta(void);
UInt64 AudioConvertHostTimeToNanos(UInt64 inHostTime);
UInt64 AudioConvertNanosToHostTime(UInt64 inNanos);

AUHOST_EXTERN_C_END

#endif
