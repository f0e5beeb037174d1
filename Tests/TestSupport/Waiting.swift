import Foundation

/// Polls `condition` every `poll` microseconds until it holds or `timeout` seconds pass; true when
/// it held. Tests wait with it instead of a bare loop or a fixed sleep, so that what never happens
/// fails the test (the caller says what did not happen) instead of hanging it or racing it.
///
/// Thread: any (the caller's; `condition` runs on it).
public func waitUntil(timeout: Double = 30, poll: UInt32 = 1_000, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while !condition() {
        if ContinuousClock.now >= deadline { return condition() }
        usleep(poll)
    }
    return true
}
