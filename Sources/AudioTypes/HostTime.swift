import Foundation

// Host time (HostTime.h): CLOCK_MONOTONIC nanoseconds, the clock of AudioTimeStamp.mHostTime and
// MIDITimeStamp here (Apple's is mach_absolute_time). Thread: any (render threads too).

/// Now, in host ticks (nanoseconds of CLOCK_MONOTONIC).
@_cdecl("AudioGetCurrentHostTime")
public func _AudioGetCurrentHostTime() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Host ticks per second.
@_cdecl("AudioGetHostClockFrequency")
public func _AudioGetHostClockFrequency() -> Float64 { 1e9 }

/// The clock's resolution in ticks.
@_cdecl("AudioGetHostClockMinimumTimeDelta")
public func _AudioGetHostClockMinimumTimeDelta() -> UInt32 {
    var resolution = timespec()
    clock_getres(CLOCK_MONOTONIC, &resolution)
    return UInt32(clamping: Int(resolution.tv_sec) * 1_000_000_000 + Int(resolution.tv_nsec))
}

/// Host ticks to nanoseconds (the identity here).
@_cdecl("AudioConvertHostTimeToNanos")
public func _AudioConvertHostTimeToNanos(_ hostTime: UInt64) -> UInt64 { hostTime }

/// Nanoseconds to host ticks (the identity here).
@_cdecl("AudioConvertNanosToHostTime")
public func _AudioConvertNanosToHostTime(_ nanos: UInt64) -> UInt64 { nanos }
