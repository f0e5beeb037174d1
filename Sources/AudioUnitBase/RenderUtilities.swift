import AudioTypes
#if canImport(Glibc)
import Glibc
#endif

// A helper render code of every module uses (audioBuffers, the other, is in AudioTypes). Inlinable,
// so that a real-time function in any file or module may call it under the checks (debug builds
// compile file by file).

/// A monotonic clock in seconds (vDSO clock_gettime: no syscall, no lock).
///
/// Thread: any.
@inlinable @inline(__always)
public func monotonicSeconds() -> Double {
    var ts = timespec()
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &ts) }
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}
