import ALSADevice
import AUHostCore
import DSPKernels

/// The PCMs and the stream of an initialized unit.
final class ALSAIOSession {
    let playback: PCMDevice?
    let capture: PCMDevice?
    let stream: PCMStream

    init(playback: PCMDevice?, capture: PCMDevice?, stream: PCMStream) {
        self.playback = playback
        self.capture = capture
        self.stream = stream
    }

    /// What the devices granted (the capture side when there is no playback).
    var granted: PCMConfiguration? { (playback ?? capture)?.configuration }

    /// Closes both PCMs (a `file` PCM completes its file here).
    func close() {
        playback?.close()
        capture?.close()
    }
}

/// Forwards the stream's stop notification to the unit without keeping the unit alive.
final class StopRelay: @unchecked Sendable {
    weak var unit: ALSAIOUnit?
    init(_ unit: ALSAIOUnit) { self.unit = unit }
}

/// An ALSA sample format and access an ASBD describes (the device sides of the unit).
struct DeviceFormat {
    var format: PCMSampleFormat
    var access: PCMAccess
    var channels: Int

    /// nil when the ASBD is not one of the ALSA layouts the unit can ask for.
    init?(_ description: AudioStreamBasicDescription) {
        guard let layout = try? SampleFormat(description), !layout.isBigEndian else { return nil }
        switch layout.encoding {
        case .int16: format = .s16LE
        case .int24Packed: format = .s24Packed3LE
        case .int24In32(alignedHigh: false): format = .s24LE
        case .int32: format = .s32LE
        case .float32: format = .float32LE
        default: return nil
        }
        access = layout.isInterleaved ? .interleaved : .nonInterleaved
        channels = layout.channelCount
    }

    /// The ASBD of a granted device configuration.
    static func description(of granted: PCMConfiguration) -> AudioStreamBasicDescription {
        let encoding: SampleFormat.Encoding
        switch granted.format {
        case .s16LE: encoding = .int16
        case .s24Packed3LE: encoding = .int24Packed
        case .s24LE: encoding = .int24In32(alignedHigh: false)
        case .s32LE: encoding = .int32
        case .float32LE: encoding = .float32
        }
        return SampleFormat(encoding: encoding, channelCount: granted.channels, isInterleaved: granted.access == .interleaved)
            .streamDescription(sampleRate: Double(granted.sampleRate))
    }
}

/// Formats tried, best first, when the app did not choose the device format.
private let negotiatedFormats: [PCMSampleFormat] = [.float32LE, .s32LE, .s24LE, .s24Packed3LE, .s16LE]

extension ALSAIOUnit {
    /// Opens the enabled directions, asks each for the preferred rate and period geometry,
    /// checks the granted values, records them as the device-side formats, and makes the stream.
    func openSession() throws -> ALSAIOSession {
        guard outputEnabled || inputEnabled else {
            throw AudioError(
                kAudioUnitErr_FailedInitialization,
                "Both directions of the ALSA I/O unit are disabled; enable output (EnableIO, output scope, element 0) or input (input scope, element 1)."
            )
        }
        let appPlayback = inputFormats[0], appCapture = outputFormats[1]
        // The device rate: the preferred one, else the device-side format the app chose, else the
        // app side's (capture first: only playback converts rates).
        let appRate = inputEnabled ? appCapture.mSampleRate : appPlayback.mSampleRate
        let chosenRate =
            chosenDeviceFormat.capture && inputEnabled
            ? inputFormats[1].mSampleRate
            : chosenDeviceFormat.playback && outputEnabled ? outputFormats[0].mSampleRate : appRate
        let rate = preferredSampleRate > 0 ? preferredSampleRate : chosenRate
        do {
            let playback =
                outputEnabled
                ? try open(
                    playbackDeviceName, .playback, rate: rate, appChannels: Int(appPlayback.mChannelsPerFrame),
                    chosen: chosenDeviceFormat.playback ? DeviceFormat(outputFormats[0]) : nil) : nil
            let capture =
                inputEnabled
                ? try open(
                    captureDeviceName, .capture, rate: rate, appChannels: Int(appCapture.mChannelsPerFrame),
                    chosen: chosenDeviceFormat.capture ? DeviceFormat(inputFormats[1]) : nil) : nil
            let granted = (playback ?? capture)!.configuration!
            // Each direction alone converts rates (allocateRenderResources); full duplex hands
            // the captured period to the render callback, so both app sides run at the device's
            // rate there.
            if let playback, let capture, let config = playback.configuration,
                appPlayback.mSampleRate != Double(config.sampleRate) || appCapture.mSampleRate != Double(config.sampleRate)
            {
                playback.close()
                capture.close()
                throw AudioError(
                    kAudioUnitErr_FormatNotSupported,
                    "Full duplex does not convert rates: ALSA device \"\(playback.name)\" runs at \(config.sampleRate) Hz (\(DeviceFormat.description(of: config))) but the input scope of element 0 is \(appPlayback) and the output scope of element 1 is \(appCapture); give both the device's rate, or enable one direction only."
                )
            }
            guard granted.periodFrames <= Int(maxFramesPerSlice) else {
                throw AudioError(
                    kAudioUnitErr_TooManyFramesToProcess,
                    "ALSA device \"\((playback ?? capture)!.name)\" granted periods of \(granted.periodFrames) frames, more than MaximumFramesPerSlice (\(maxFramesPerSlice)); raise MaximumFramesPerSlice or ask for smaller periods (kAUHostALSAProperty_PreferredPeriodFrames)."
                )
            }
            if let config = playback?.configuration { try setFormat(DeviceFormat.description(of: config), kAudioUnitScope_Output, 0) }
            if let config = capture?.configuration { try setFormat(DeviceFormat.description(of: config), kAudioUnitScope_Input, 1) }
            let relay = StopRelay(self)
            let stream = try PCMStream(
                playback: playback, capture: capture,
                render: outputEnabled ? ioRenderPlayback : nil,
                input: inputEnabled ? ioCaptured : nil,
                context: UnsafeMutableRawPointer(io),
                onStopped: { error in relay.unit?.deviceStopped(error) })
            return ALSAIOSession(playback: playback, capture: capture, stream: stream)
        } catch let error as ALSAError {
            throw AudioError(error.status, error.message)
        }
    }

    /// Opens one PCM and configures it: the chosen format exactly, or the first format of
    /// `negotiatedFormats` the device accepts.
    private func open(
        _ name: String, _ direction: PCMDirection, rate: Double, appChannels: Int,
        chosen: DeviceFormat?
    ) throws -> PCMDevice {
        let device = try PCMDevice(name: name, direction: direction)
        var request = PCMRequest(
            sampleRate: Int(rate.rounded()), channels: chosen?.channels ?? appChannels,
            format: chosen?.format ?? .float32LE, access: chosen?.access ?? .interleaved,
            periodFrames: Int(preferredPeriodFrames), periodCount: Int(preferredPeriodCount))
        if chosen != nil {
            try device.configure(request)
            return device
        }
        var refusal: ALSAError?
        for format in negotiatedFormats {
            request.format = format
            do {
                try device.configure(request)
                return device
            } catch let error as ALSAError where error.status == OSStatus(kAudioUnitErr_FormatNotSupported) {
                refusal = error
            }
        }
        throw refusal!
    }
}
