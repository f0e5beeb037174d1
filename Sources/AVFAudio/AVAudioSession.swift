import AudioSessionServices
import AudioToolbox
import Foundation

/// The process's audio session (Apple's AVAudioSession), with Linux meanings: the category, mode
/// and options are kept for code that reads them back (ALSA has no policy to hand them to); the
/// preferred sample rate and I/O buffer duration are asked of the device by every engine output
/// made afterwards (kAUHostALSAProperty_PreferredSampleRate, PreferredPeriodFrames); the
/// current values are those the last started device granted. No interruptions or route changes
/// are posted (docs/PORTING.md).
///
/// Thread: any (calls are serialised by the session).
public final class AVAudioSession {
    /// A category (Apple's AVAudioSession.Category).
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        /// Thread: any.
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
    }

    /// A mode (Apple's AVAudioSession.Mode).
    public struct Mode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        /// Thread: any.
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
    }

    /// Category options (Apple's AVAudioSession.CategoryOptions, same bits).
    public struct CategoryOptions: OptionSet, Sendable {
        public let rawValue: UInt
        /// Thread: any.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    }

    /// Options of setActive (Apple's AVAudioSession.SetActiveOptions).
    public struct SetActiveOptions: OptionSet, Sendable {
        public let rawValue: UInt
        /// Thread: any.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// Apple's name; never posted here (nothing on Linux takes a device from a program).
    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    /// Posted on NotificationCenter.default, from the session's watcher thread (Apple posts it on
    /// a secondary thread too), while the session is active: when the ALSA "default" PCM gains a
    /// playback or capture side (userInfo's AVAudioSessionRouteChangeReasonKey: newDeviceAvailable)
    /// or loses one (oldDeviceUnavailable), and when the category changes (categoryChange).
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")

    /// Why the route changed (Apple's AVAudioSession.RouteChangeReason, same raw values).
    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable = 1
        case oldDeviceUnavailable = 2
        case categoryChange = 3
        case override = 4
        case wakeFromSleep = 6
        case noSuitableRouteForCategory = 7
        case routeConfigurationChange = 8
    }

    nonisolated(unsafe) private static let shared = AVAudioSession()
    private let lock = NSLock()
    private var category_ = Category.soloAmbient
    private var mode_ = Mode.default
    private var options_: CategoryOptions = []
    private var preferredRate: Double = 0
    private var preferredDuration: TimeInterval = 0
    private var active = false
    /// What the last started device granted (rate, period frames).
    private var granted: (rate: Double, frames: UInt32)?
    /// Bumped by each activation and deactivation: a watcher runs while the number it started with is current.
    private var watchGeneration = 0

    /// The session.
    ///
    /// Thread: any.
    public static func sharedInstance() -> AVAudioSession { shared }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Thread: any.
    public var category: Category { locked { category_ } }
    /// Thread: any.
    public var mode: Mode { locked { mode_ } }
    /// Thread: any.
    public var categoryOptions: CategoryOptions { locked { options_ } }

    /// Keeps the category, mode and options (nothing on Linux acts on them).
    ///
    /// Thread: any.
    public func setCategory(_ category: Category, mode: Mode = .default, options: CategoryOptions = []) throws {
        let changed = locked {
            defer { (category_, mode_, options_) = (category, mode, options) }
            return active && category != category_
        }
        if changed { postRouteChange(.categoryChange) }
    }

    /// Thread: any.
    public func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, options: options)
    }

    /// Thread: any.
    public func setMode(_ mode: Mode) throws { locked { mode_ = mode } }

    /// Marks the session active (ALSA devices open when an engine starts, not here) and, while it
    /// is, watches the "default" PCM for route changes: every quarter second it looks whether a
    /// card or an ALSA configuration file changed, and if so opens the PCM again (ALSA sends no
    /// notice when a PCM appears or goes).
    ///
    /// Thread: any.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        let generation: Int? = locked {
            guard active != self.active else { return nil }
            self.active = active
            watchGeneration += 1
            return active ? watchGeneration : nil
        }
        if let generation { Thread.detachNewThread { [self] in watchRoute(generation) } }
    }

    /// Whether the ALSA PCM "default" has a capture side (as kAudioSessionProperty_AudioInputAvailable).
    ///
    /// Thread: any.
    public var isInputAvailable: Bool { DefaultDevice.hasCapture() }

    /// Thread: the session's watcher thread.
    private func watchRoute(_ generation: Int) {
        var fingerprint = DefaultDevice.configurationFingerprint()
        var sides = (DefaultDevice.hasPlayback(), DefaultDevice.hasCapture())
        while locked({ watchGeneration == generation }) {
            Thread.sleep(forTimeInterval: 0.25)
            // The PCM is opened again only when a card or a configuration file changed.
            let current = DefaultDevice.configurationFingerprint()
            guard current != fingerprint else { continue }
            fingerprint = current
            let now = (DefaultDevice.hasPlayback(), DefaultDevice.hasCapture())
            guard now != sides, locked({ watchGeneration == generation }) else { continue }
            let gained = (now.0 && !sides.0) || (now.1 && !sides.1)
            sides = now
            postRouteChange(gained ? .newDeviceAvailable : .oldDeviceUnavailable)
        }
    }

    private func postRouteChange(_ reason: RouteChangeReason) {
        NotificationCenter.default.post(
            name: Self.routeChangeNotification, object: self, userInfo: [AVAudioSessionRouteChangeReasonKey: reason.rawValue])
    }

    /// The rate asked of devices (0: each engine's own format).
    ///
    /// Thread: any.
    public var preferredSampleRate: Double { locked { preferredRate } }

    /// Asks every engine output made from now on for `sampleRate`.
    ///
    /// Thread: any.
    public func setPreferredSampleRate(_ sampleRate: Double) throws {
        guard sampleRate >= 0, sampleRate <= 1_536_000 else {
            throw osStatusError(kAudio_ParamError, "A preferred sample rate lies in 0…1,536,000 Hz, not \(sampleRate)")
        }
        locked { preferredRate = sampleRate }
    }

    /// The I/O buffer duration asked of devices, in seconds (0: the device's default period).
    ///
    /// Thread: any.
    public var preferredIOBufferDuration: TimeInterval { locked { preferredDuration } }

    /// Asks every engine output made from now on for periods of `duration` seconds.
    ///
    /// Thread: any.
    public func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        guard duration >= 0, duration <= 1 else {
            throw osStatusError(kAudio_ParamError, "A preferred I/O buffer duration lies in 0…1 s, not \(duration)")
        }
        locked { preferredDuration = duration }
    }

    /// The rate of the last started device (else the preferred rate, else 44,100).
    ///
    /// Thread: any.
    public var sampleRate: Double { locked { granted?.rate ?? (preferredRate > 0 ? preferredRate : 44_100) } }

    /// The period of the last started device in seconds (else the preferred duration).
    ///
    /// Thread: any.
    public var ioBufferDuration: TimeInterval {
        locked {
            guard let granted, granted.rate > 0 else { return preferredDuration }
            return Double(granted.frames) / granted.rate
        }
    }

    /// Puts the preferred values on a new device output unit.
    func configure(_ unit: AudioUnit) {
        let (rate, duration) = locked { (preferredRate, preferredDuration) }
        if rate > 0 {
            var r = rate
            AudioUnitSetProperty(unit, kAUHostALSAProperty_PreferredSampleRate, kAudioUnitScope_Global, 0, &r, 8)
        }
        if duration > 0 {
            let frames = UInt32(max(16, (duration * (rate > 0 ? rate : 48_000)).rounded()))
            setUInt32Property(unit, kAUHostALSAProperty_PreferredPeriodFrames, frames)
        }
    }

    /// Notes what a started device granted (on JACK: the server's rate and buffer size).
    func deviceStarted(_ unit: AudioUnit, device: EngineDevice) {
        let isJACK = if case .jack = device { true } else { false }
        var rate: Float64 = 0
        var size = UInt32(8)
        let rateID = isJACK ? kAUHostJACKProperty_ServerSampleRate : kAUHostALSAProperty_GrantedSampleRate
        AudioUnitGetProperty(unit, rateID, kAudioUnitScope_Global, 0, &rate, &size)
        let frames = uint32Property(unit, isJACK ? kAUHostJACKProperty_ServerBufferFrames : kAUHostALSAProperty_GrantedPeriodFrames) ?? 0
        if rate > 0 { locked { granted = (rate, frames) } }
    }
}

/// The userInfo key of a route change's reason (a RouteChangeReason raw value, as on Apple).
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
