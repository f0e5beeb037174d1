import AudioTypes
#if canImport(Glibc)
import Glibc
#endif

// Two helpers render code of every module uses. Inlinable, so that a real-time function in any
// file or module may call them under the checks (debug builds compile file by file).

/// The mBuffers array of a list.
///
/// Thread: any.
@inlinable @inline(__always) @_noAllocation @_noLocks
public func audioBuffers(_ list: UnsafeMutablePointer<AudioBufferList>) -> UnsafeMutablePointer<AudioBuffer> {
    UnsafeMutableRawPointer(list)
        .advanced(by: (MemoryLayout<UInt32>.size + MemoryLayout<AudioBuffer>.alignment - 1) & ~(MemoryLayout<AudioBuffer>.alignment - 1))
        .assumingMemoryBound(to: AudioBuffer.self)
}

/// A monotonic clock in seconds (vDSO clock_gettime: no syscall, no lock).
///
/// Thread: any.
@inlinable @inline(__always)
public func monotonicSeconds() -> Double {
    var ts = timespec()
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &ts) }
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
