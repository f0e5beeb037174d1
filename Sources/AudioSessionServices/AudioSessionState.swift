import AudioToolbox
import AudioTypes
import Foundation

/// The process's one audio session (Apple's is per app too): what Initialize, SetActive and the
/// settable properties stored.
final class AudioSessionState: @unchecked Sendable {
    static let shared = AudioSessionState()

    private let lock = NSLock()
    // Under `lock`.
    private var initialized = false
    private(set) var active = false
    private var interruptionListener: AudioSessionInterruptionListener?
    private var interruptionClientData: UnsafeMutableRawPointer?
    private var category: UInt32 = kAudioSessionCategory_SoloAmbientSound
    private var preferredRate: Double?
    private var preferredPeriodSeconds: Double?
    private var listeners: [(id: AudioSessionPropertyID, proc: AudioSessionPropertyListener, clientData: UnsafeMutableRawPointer?)] = []
    /// Where listeners are called: the run loop and mode given to AudioSessionInitialize.
    private var callbacks: RunLoopCallbacks?
    private var watchingInput = false

    /// Thread: setup.
    func initialize(
        runLoop: CFRunLoop?, mode: CFString?, listener: AudioSessionInterruptionListener?, clientData: UnsafeMutableRawPointer?
    ) throws {
        try lock.withLock {
            guard !initialized else {
                throw AudioError(kAudioSessionAlreadyInitialized, "AudioSessionInitialize was already called in this process.")
            }
            initialized = true
            interruptionListener = listener
            interruptionClientData = clientData
            callbacks = RunLoopCallbacks(runLoop: runLoop ?? CFRunLoopGetMain()!, mode: mode ?? kCFRunLoopDefaultMode!)
        }
    }

    /// Thread: setup.
    private func requireInitialized() throws {
        guard lock.withLock({ initialized }) else {
            throw AudioError(kAudioSessionNotInitialized, "Call AudioSessionInitialize before using the audio session.")
        }
    }

    /// Thread: setup.
    func setActive(_ value: Bool) throws {
        try requireInitialized()
        lock.withLock { active = value }
    }

    /// A property's value as bytes.
    ///
    /// Thread: setup.
    func value(_ id: AudioSessionPropertyID) throws -> [UInt8] {
        try requireInitialized()
        let current: (category: UInt32, rate: Double?, period: Double?) = lock.withLock {
            (category, preferredRate, preferredPeriodSeconds)
        }
        let rate = current.rate, period = current.period
        func bytes<T>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
        switch id {
        case kAudioSessionProperty_AudioCategory: return bytes(current.category)
        case kAudioSessionProperty_PreferredHardwareSampleRate: return bytes(Float64(rate ?? 0))
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration: return bytes(Float32(period ?? 0))
        case kAudioSessionProperty_AudioInputAvailable:
            return bytes(UInt32(DefaultDevice.hasCapture() ? 1 : 0))
        case kAudioSessionProperty_CurrentHardwareInputNumberChannels:
            return bytes(DefaultDevice.offer(capture: true, preferredRate: rate, preferredPeriodSeconds: period)?.channels ?? 0)
        case kAudioSessionProperty_CurrentHardwareSampleRate, kAudioSessionProperty_CurrentHardwareIOBufferDuration,
            kAudioSessionProperty_CurrentHardwareOutputNumberChannels:
            guard let offer = DefaultDevice.offer(capture: false, preferredRate: rate, preferredPeriodSeconds: period) else {
                throw AudioError(kAudioServicesNoHardwareError, "The ALSA PCM \"default\" does not open for playback.")
            }
            switch id {
            case kAudioSessionProperty_CurrentHardwareSampleRate: return bytes(Float64(offer.sampleRate))
            case kAudioSessionProperty_CurrentHardwareIOBufferDuration: return bytes(Float32(offer.periodSeconds))
            default: return bytes(offer.channels)
            }
        default:
            throw AudioError(
                kAudioSessionUnsupportedPropertyError, "The audio session has no property '\(FourCC.string(id))' here (AudioSession.h).")
        }
    }

    /// Thread: setup.
    func setValue(_ id: AudioSessionPropertyID, _ data: UnsafeRawPointer, size: Int) throws {
        try requireInitialized()
        func load<T>(_ type: T.Type) throws -> T {
            guard size == MemoryLayout<T>.size else {
                throw AudioError(kAudioSessionBadPropertySizeError, "This property takes \(MemoryLayout<T>.size) bytes, not \(size).")
            }
            return data.loadUnaligned(as: T.self)
        }
        switch id {
        case kAudioSessionProperty_AudioCategory:
            let value = try load(UInt32.self)
            let known: Set<UInt32> = [
                kAudioSessionCategory_AmbientSound, kAudioSessionCategory_SoloAmbientSound, kAudioSessionCategory_MediaPlayback,
                kAudioSessionCategory_RecordAudio, kAudioSessionCategory_PlayAndRecord, kAudioSessionCategory_AudioProcessing,
            ]
            guard known.contains(value) else {
                throw AudioError(kAudioSessionUnsupportedPropertyError, "'\(FourCC.string(value))' is not an audio session category.")
            }
            lock.withLock { category = value }
        case kAudioSessionProperty_PreferredHardwareSampleRate:
            let value = try load(Float64.self)
            lock.withLock { preferredRate = value > 0 ? value : nil }
        case kAudioSessionProperty_PreferredHardwareIOBufferDuration:
            let value = try load(Float32.self)
            lock.withLock { preferredPeriodSeconds = value > 0 ? Double(value) : nil }
        default:
            throw AudioError(
                kAudioSessionUnsupportedPropertyError, "Audio session property '\(FourCC.string(id))' cannot be set (AudioSession.h).")
        }
    }

    /// Thread: setup.
    func addListener(_ id: AudioSessionPropertyID, _ proc: @escaping AudioSessionPropertyListener, _ clientData: UnsafeMutableRawPointer?)
        throws
    {
        try requireInitialized()
        let startWatching: Bool = lock.withLock {
            listeners.append((id, proc, clientData))
            guard id == kAudioSessionProperty_AudioInputAvailable, !watchingInput else { return false }
            watchingInput = true
            return true
        }
        if startWatching { Thread.detachNewThread { [self] in watchInput() } }
    }

    /// Polls input availability every quarter second while AudioInputAvailable has listeners (ALSA
    /// has no notification for a PCM appearing) and calls them on the session's run loop when it
    /// changes.
    ///
    /// Thread: the session's watcher thread.
    private func watchInput() {
        var available = DefaultDevice.hasCapture()
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            let targets = lock.withLock { listeners.filter { $0.id == kAudioSessionProperty_AudioInputAvailable } }
            guard !targets.isEmpty else {
                let stop: Bool = lock.withLock {
                    guard !listeners.contains(where: { $0.id == kAudioSessionProperty_AudioInputAvailable }) else { return false }
                    watchingInput = false
                    return true
                }
                if stop { return }
                continue
            }
            let now = DefaultDevice.hasCapture()
            guard now != available else { continue }
            available = now
            let value = UInt32(now ? 1 : 0)
            lock.withLock { callbacks }?.post { [self] in
                // Listeners removed meanwhile are not called.
                let current = lock.withLock { listeners.filter { $0.id == kAudioSessionProperty_AudioInputAvailable } }
                for listener in current {
                    withUnsafeBytes(of: value) {
                        listener.proc(listener.clientData, kAudioSessionProperty_AudioInputAvailable, 4, $0.baseAddress)
                    }
                }
            }
        }
    }

    /// Thread: setup.
    func removeListener(_ id: AudioSessionPropertyID, _ proc: AudioSessionPropertyListener, _ clientData: UnsafeMutableRawPointer?) throws {
        try requireInitialized()
        let address = unsafeBitCast(proc, to: UnsafeRawPointer.self)
        lock.withLock {
            listeners.removeAll {
                $0.id == id && unsafeBitCast($0.proc, to: UnsafeRawPointer.self) == address && $0.clientData == clientData
            }
        }
    }
}
