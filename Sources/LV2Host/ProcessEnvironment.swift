import Foundation

/// The process's environment, one variable at a time: `ProcessInfo.processInfo.environment`
/// copies every variable into a new dictionary on each call, and the search paths and the cache
/// folder made five such calls on every `auhost` start (0.8 ms of `auhost info`, perf).
public enum ProcessEnvironment {
    /// The value of `name`, or nil when it is unset. Thread: any (as getenv).
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
