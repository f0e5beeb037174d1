import AUHostCore
import LV2Host

// Units throw AudioError; the LV2 layer under them throws LV2HostError with the same documented
// status and sentence. This is the one place one becomes the other.

extension AudioError {
    /// An LV2 layer failure as a unit's error: the same status and sentence. Thread: any.
    init(_ error: LV2HostError) {
        self.init(error.status, error.message)
    }
}

extension LV2WorldAccess {
    /// `withWorld` for unit code: an LV2HostError thrown by `body` comes out as the AudioError
    /// with its status and sentence. Thread: setup.
    func withWorldThrowingAudioErrors<T>(_ body: (LV2World) throws -> T) throws -> T {
        try withWorld { world in
            do { return try body(world) } catch let error as LV2HostError { throw AudioError(error) }
        }
    }
}
