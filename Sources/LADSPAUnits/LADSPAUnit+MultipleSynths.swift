import AUHostCore
import Foundation
import LADSPAHost

/// A DSSI synth with run_multiple_synths alone (fluidsynth-dssi) must get every active instance
/// of its plug-in in each call; AUHost's units render one at a time, so only one instance of such
/// a plug-in may be initialized in the process at once (fluidsynth-dssi also writes into every
/// instance's output ports in each call: a second instance's buffers would be written by another
/// unit's render). That instance is kept when its unit lets it go and handed to the next unit:
/// fluidsynth-dssi deletes its FluidSynth engine when its last instance is cleaned up but keeps
/// the pointer, so an instance made after that crashes (observed: SIGSEGV in pthread_mutex_lock
/// on the second unit's configure). Its sample rate, like FluidSynth's, is the first instance's.
extension LADSPAUnit {
    nonisolated(unsafe) private static var multipleSynthsInUse: Set<String> = []
    nonisolated(unsafe) private static var multipleSynthsKept: [String: LADSPAInstance] = [:]
    private static let multipleSynthsLock = NSLock()

    private var multipleSynthsKey: String { plugin.library + "\u{0}" + plugin.label }

    /// Whether the plug-in has run_multiple_synths and no run_synth. Thread: setup.
    private var hasMultipleSynthsAlone: Bool {
        guard plugin.isDSSISynth, let library = try? LADSPALibrary.open(plugin.library),
            let dssi = library.dssiDescriptor(at: plugin.index),
            dssi.pointee.LADSPA_Plugin?.pointee.Label.map({ String(cString: $0) }) == plugin.label
        else { return false }
        return dssi.pointee.run_synth == nil && dssi.pointee.run_multiple_synths != nil
    }

    /// For a plug-in with run_multiple_synths alone: claims it, and returns the instance a unit
    /// let go earlier (nil: make one); throws when another unit holds it, or when the kept
    /// instance runs at another rate. Other plug-ins: nil. Thread: setup.
    func claimMultipleSynths(sampleRate rate: Double) throws -> LADSPAInstance? {
        guard !holdsMultipleSynths, hasMultipleSynthsAlone else { return nil }
        let key = multipleSynthsKey
        let kept: LADSPAInstance? = try Self.multipleSynthsLock.withLock {
            guard !Self.multipleSynthsInUse.contains(key) else {
                throw AudioError(
                    kAudioUnitErr_FailedInitialization,
                    "DSSI plug-in \(plugin.label) has only run_multiple_synths, which must run all its instances at once; "
                        + "another unit in this process already runs one (uninitialize it first).")
            }
            if let kept = Self.multipleSynthsKept[key], kept.sampleRate != rate {
                throw AudioError(
                    kAudioUnitErr_FormatNotSupported,
                    "DSSI plug-in \(plugin.label) runs at \(kept.sampleRate) Hz in this process, the rate of its first instance; "
                        + "this unit asks for \(rate) Hz.")
            }
            Self.multipleSynthsInUse.insert(key)
            return Self.multipleSynthsKept.removeValue(forKey: key)
        }
        holdsMultipleSynths = true
        return kept
    }

    /// Gives the claim back, keeping `instance` (deactivated) for the next unit. Thread: setup.
    func releaseMultipleSynths(keeping instance: LADSPAInstance?) {
        guard holdsMultipleSynths else { return }
        holdsMultipleSynths = false
        instance?.deactivate()
        let key = multipleSynthsKey
        Self.multipleSynthsLock.withLock {
            Self.multipleSynthsInUse.remove(key)
            if let instance { Self.multipleSynthsKept[key] = instance }
        }
    }
}
