import AudioToolbox
import Foundation

extension Notification.Name {
    /// Posted (object: the engine) when the output device stopped by itself — unplugged, its
    /// sound server gone, ALSA reporting an error — after the engine stopped (isRunning false).
    /// Apple posts it when the hardware's format changes and the engine stops; in both, start the
    /// engine again when the device is back. Posted from a background thread.
    public static let AVAudioEngineConfigurationChange = Notification.Name("AVAudioEngineConfigurationChangeNotification")
}

/// The engine an I/O unit's IsRunning listener reports to (weak: the unit may outlive it).
final class EngineDeviceWatch: @unchecked Sendable {
    weak var engine: AVAudioEngine?
    /// The unit the listener is installed on.
    var unit: AudioUnit?
}

extension AVAudioEngine {
    /// Listens to the output device's IsRunning (once per unit), so that a device that stops by
    /// itself stops the engine and posts AVAudioEngineConfigurationChange.
    ///
    /// Thread: setup, under `lock`.
    func watchOutputDevice() {
        guard manualMode == nil, let output = outputNode_, output.isDevice, deviceWatch.unit != output.unit else { return }
        deviceWatch.engine = self
        if let old = deviceWatch.unit {
            AudioUnitRemovePropertyListenerWithUserData(
                old, kAudioOutputUnitProperty_IsRunning, engineDeviceListener, Unmanaged.passUnretained(deviceWatch).toOpaque())
        }
        AudioUnitAddPropertyListener(
            output.unit, kAudioOutputUnitProperty_IsRunning, engineDeviceListener, Unmanaged.passUnretained(deviceWatch).toOpaque())
        deviceWatch.unit = output.unit
    }

    /// The device's IsRunning changed: if the engine still runs on it and the unit has stopped,
    /// the device failed (the engine's own stop sets isRunning first).
    ///
    /// Thread: a background thread.
    func outputDeviceChanged() {
        lock.lock()
        guard isRunning, manualMode == nil, let unit = outputNode_?.unit, unit == deviceWatch.unit,
            uint32Property(unit, kAudioOutputUnitProperty_IsRunning) == 0
        else {
            lock.unlock()
            return
        }
        pause()
        lock.unlock()
        NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self)
    }
}

/// The I/O unit's IsRunning listener (on the unit's listener thread): hands the change to another
/// thread, which may take the engine's lock.
let engineDeviceListener: AudioUnitPropertyListenerProc = { refCon, _, _, _, _ in
    let watch = Unmanaged<EngineDeviceWatch>.fromOpaque(refCon).takeUnretainedValue()
    DispatchQueue.global().async { watch.engine?.outputDeviceChanged() }
}
