import AudioToolbox
import AudioTypes
import Foundation

/// One SystemSoundID: its samples, its two properties and its completion routine.
final class SystemSound: @unchecked Sendable {
    let id: SystemSoundID
    let samples: SoundSamples
    private let lock = NSLock()
    // Under `lock`.
    private var completion:
        (routine: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?, runLoop: RunLoopCallbacks)?
    private(set) var properties: [AudioServicesPropertyID: UInt32] = [
        kAudioServicesPropertyIsUISound: 1, kAudioServicesPropertyCompletePlaybackIfAppDies: 0,
    ]

    /// Thread: setup.
    init(id: SystemSoundID, samples: SoundSamples) {
        self.id = id
        self.samples = samples
    }

    /// Registers the routine called on `runLoop` after each play (one at a time, as on Apple).
    ///
    /// Thread: setup.
    func addCompletion(_ routine: AudioServicesSystemSoundCompletionProc, clientData: UnsafeMutableRawPointer?, runLoop: RunLoopCallbacks)
        throws
    {
        try lock.withLock {
            guard completion == nil else {
                runLoop.cancel()
                throw AudioError(
                    kAudioServicesSystemSoundUnspecifiedError,
                    "System sound \(id) already has a completion routine (AudioServicesRemoveSystemSoundCompletion first).")
            }
            completion = (routine, clientData, runLoop)
        }
    }

    /// Unregisters the routine; calls waiting for its run loop are dropped.
    ///
    /// Thread: setup (the run loop's thread too, from inside the routine).
    func removeCompletion() {
        let removed = lock.withLock {
            defer { completion = nil }
            return completion
        }
        removed?.runLoop.cancel()
    }

    /// A play ended: the registered routine is posted to its run loop.
    ///
    /// Thread: the system-sound thread (or the caller, when nothing played).
    func playEnded() {
        guard let completion = lock.withLock({ completion }) else { return }
        let id = id
        completion.runLoop.post { completion.routine(id, completion.clientData) }
    }

    /// Thread: setup.
    func property(_ id: AudioServicesPropertyID) -> UInt32? { lock.withLock { properties[id] } }

    /// Thread: setup.
    func setProperty(_ id: AudioServicesPropertyID, _ value: UInt32) { lock.withLock { properties[id] = value } }
}

/// The live system sounds by ID.
enum SystemSounds {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var sounds: [SystemSoundID: SystemSound] = [:]
    /// Above Apple's reserved IDs (kSystemSoundID_… and the built-in sounds' numbers).
    nonisolated(unsafe) private static var nextID: SystemSoundID = 0x0001_0000

    /// Thread: setup.
    static func add(_ samples: SoundSamples) -> SystemSound {
        lock.withLock {
            nextID += 1
            let sound = SystemSound(id: nextID, samples: samples)
            sounds[nextID] = sound
            return sound
        }
    }

    /// Thread: setup.
    static func sound(_ id: SystemSoundID) throws -> SystemSound {
        guard let sound = lock.withLock({ sounds[id] }) else {
            throw AudioError(kAudioServicesSystemSoundUnspecifiedError, "No system sound has ID \(id) (never created, or disposed).")
        }
        return sound
    }

    /// Thread: setup.
    static func remove(_ id: SystemSoundID) throws -> SystemSound {
        guard let sound = lock.withLock({ sounds.removeValue(forKey: id) }) else {
            throw AudioError(kAudioServicesSystemSoundUnspecifiedError, "No system sound has ID \(id) (never created, or disposed).")
        }
        return sound
    }
}
