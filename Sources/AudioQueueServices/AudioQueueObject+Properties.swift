import AudioToolbox
import AudioTypes
import Foundation

extension AudioQueueObject {
    /// The engine's level meter, and whether it runs. Thread: any.
    var meter: LevelMeter { playback?.meter ?? recording!.meter }
    var meteringEnabled: Bool {
        playback?.meteringEnabled.load(ordering: .acquiring) ?? recording!.meteringEnabled.load(ordering: .acquiring)
    }

    /// The size of property `id`'s value.
    ///
    /// Thread: setup.
    func propertySize(_ id: AudioQueuePropertyID) throws -> Int {
        switch id {
        case kAudioQueueProperty_IsRunning, kAudioQueueDeviceProperty_NumberChannels, kAudioQueueProperty_MaximumOutputPacketSize,
            kAudioQueueProperty_EnableLevelMetering, kAudioQueueProperty_DecodeBufferSizeFrames, kAudioQueueProperty_ConverterError,
            kAudioQueueProperty_EnableTimePitch, kAudioQueueProperty_TimePitchAlgorithm, kAudioQueueProperty_TimePitchBypass:
            return 4
        case kAudioQueueDeviceProperty_SampleRate: return 8
        case kAudioQueueProperty_CurrentDevice: return MemoryLayout<UnsafeRawPointer?>.size
        case kAudioQueueProperty_StreamDescription: return MemoryLayout<AudioStreamBasicDescription>.size
        case kAudioQueueProperty_MagicCookie: return lock.withLock { magicCookie.count }
        case kAudioQueueProperty_ChannelLayout:
            let stored = lock.withLock { channelLayout.count }
            if stored > 0 { return stored }
            throw AudioError(kAudioQueueErr_InvalidProperty, "The queue has no channel layout until one is set.")
        case kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB:
            return format.channels * MemoryLayout<AudioQueueLevelMeterState>.size
        default:
            throw AudioError(kAudioQueueErr_InvalidProperty, "Audio queue property '\(FourCC.string(id))' is not supported.")
        }
    }

    /// Reads property `id` into `out` (at most `size` bytes); returns the bytes written.
    ///
    /// Thread: setup.
    func getProperty(_ id: AudioQueuePropertyID, into out: UnsafeMutableRawPointer, size: Int) throws -> Int {
        let needed = try propertySize(id)
        let variable = [kAudioQueueProperty_MagicCookie, kAudioQueueProperty_CurrentLevelMeter, kAudioQueueProperty_CurrentLevelMeterDB]
            .contains(id)
        guard size >= needed || (variable && size > 0) else {
            throw AudioError(
                kAudioQueueErr_InvalidPropertySize, "Audio queue property '\(FourCC.string(id))' needs \(needed) bytes, got \(size).")
        }
        func put<T>(_ value: T) -> Int {
            out.storeBytes(of: value, as: T.self)
            return MemoryLayout<T>.size
        }
        switch id {
        case kAudioQueueProperty_IsRunning: return put(UInt32(lock.withLock { isRunning } ? 1 : 0))
        case kAudioQueueDeviceProperty_SampleRate:
            return put(
                lock.withLock { () -> Float64 in
                    var rate: Float64 = 0
                    var size = UInt32(8)
                    if let unit {
                        _ = AudioUnitGetProperty(unit, kAUHostALSAProperty_GrantedSampleRate, kAudioUnitScope_Global, 0, &rate, &size)
                    }
                    return rate > 0 ? rate : format.sampleRate
                })
        case kAudioQueueDeviceProperty_NumberChannels: return put(UInt32(format.channels))
        case kAudioQueueProperty_CurrentDevice:
            return put(Optional(CFBridge.string(lock.withLock { deviceName })))
        case kAudioQueueProperty_StreamDescription: return put(streamDescription)
        case kAudioQueueProperty_MaximumOutputPacketSize: return put(UInt32(format.bytesPerFrame))
        case kAudioQueueProperty_EnableLevelMetering:
            return put(UInt32(meteringEnabled ? 1 : 0))
        case kAudioQueueProperty_DecodeBufferSizeFrames: return put(lock.withLock { decodeBufferSizeFrames })
        case kAudioQueueProperty_ConverterError: return put(Int32(lock.withLock { decoder?.lastError ?? noErr }))
        case kAudioQueueProperty_EnableTimePitch: return put(UInt32(playback?.timePitch == nil ? 0 : 1))
        case kAudioQueueProperty_TimePitchBypass: return put(UInt32(playback?.timePitch?.bypass.load(ordering: .relaxed) == true ? 1 : 0))
        case kAudioQueueProperty_TimePitchAlgorithm: return put(lock.withLock { timePitchAlgorithm })
        case kAudioQueueProperty_MagicCookie, kAudioQueueProperty_ChannelLayout:
            let bytes = lock.withLock { id == kAudioQueueProperty_MagicCookie ? magicCookie : channelLayout }
            let count = min(bytes.count, size)
            bytes.withUnsafeBytes { if count > 0 { out.copyMemory(from: $0.baseAddress!, byteCount: count) } }
            return count
        default:  // the level meters
            guard meteringEnabled else {
                throw AudioError(
                    kAudioQueueErr_InvalidProperty, "Level meters need kAudioQueueProperty_EnableLevelMetering set to 1 first.")
            }
            let states = meter.read().map { state in
                id == kAudioQueueProperty_CurrentLevelMeterDB
                    ? AudioQueueLevelMeterState(
                        mAveragePower: LevelMeter.decibels(state.mAveragePower), mPeakPower: LevelMeter.decibels(state.mPeakPower))
                    : state
            }
            let count = min(states.count, size / MemoryLayout<AudioQueueLevelMeterState>.size)
            for (i, state) in states.prefix(count).enumerated() {
                out.storeBytes(
                    of: state, toByteOffset: i * MemoryLayout<AudioQueueLevelMeterState>.size, as: AudioQueueLevelMeterState.self)
            }
            return count * MemoryLayout<AudioQueueLevelMeterState>.size
        }
    }

    /// Sets property `id` from `size` bytes at `data`.
    ///
    /// Thread: setup.
    func setProperty(_ id: AudioQueuePropertyID, _ data: UnsafeRawPointer, size: Int) throws {
        func value<T>(_: T.Type) throws -> T {
            guard size >= MemoryLayout<T>.size else {
                throw AudioError(
                    kAudioQueueErr_InvalidPropertySize,
                    "Audio queue property '\(FourCC.string(id))' needs \(MemoryLayout<T>.size) bytes, got \(size).")
            }
            return data.loadUnaligned(as: T.self)
        }
        switch id {
        case kAudioQueueProperty_CurrentDevice:
            guard let name = try value(Unmanaged<CFString>?.self).flatMap({ String(cfString: $0.takeUnretainedValue()) }), !name.isEmpty
            else {
                throw AudioError(
                    kAudioQueueErr_InvalidPropertyValue, "kAudioQueueProperty_CurrentDevice needs an ALSA PCM name (a CFString).")
            }
            try lock.withLock {
                guard unit == nil else {
                    throw AudioError(
                        kAudioQueueErr_InvalidRunState, "Set the queue's device while it is stopped (it is open on \(deviceName)).")
                }
                deviceName = name
            }
        case kAudioQueueProperty_EnableLevelMetering:
            let on = try value(UInt32.self) != 0
            if on, !meteringEnabled { _ = meter.read() }  // start afresh
            if let playback { playback.meteringEnabled.store(on, ordering: .releasing) }
            if let recording { recording.meteringEnabled.store(on, ordering: .releasing) }
        case kAudioQueueProperty_MagicCookie:
            let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
            try lock.withLock {
                try decoder?.setCookie(bytes)  // a compressed queue's decoder checks it now
                magicCookie = bytes
            }
        case kAudioQueueProperty_ChannelLayout:
            guard size >= MemoryLayout<AudioChannelLayout>.size - MemoryLayout<AudioChannelDescription>.size else {
                throw AudioError(kAudioQueueErr_InvalidPropertySize, "kAudioQueueProperty_ChannelLayout needs an AudioChannelLayout.")
            }
            let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
            lock.withLock { channelLayout = bytes }
        case kAudioQueueProperty_DecodeBufferSizeFrames:
            let frames = try value(UInt32.self)
            guard frames > 0 else { throw AudioError(kAudioQueueErr_InvalidPropertyValue, "DecodeBufferSizeFrames must be above 0.") }
            lock.withLock { decodeBufferSizeFrames = frames }
        case kAudioQueueProperty_EnableTimePitch:
            let on = try value(UInt32.self) != 0
            guard let playback else {
                throw AudioError(kAudioQueueErr_InvalidQueueType, "Time-pitch is for playback queues (this one records).")
            }
            try lock.withLock {
                guard unit == nil, !isRunning else {
                    throw AudioError(kAudioQueueErr_InvalidRunState, "Enable time-pitch while the queue is stopped.")
                }
                guard on != (playback.timePitch != nil) else { return }
                guard !on || playback.format.channels <= TimePitch.maximumChannels else {
                    throw AudioError(
                        kAudioQueueErr_InvalidPropertyValue,
                        "Time-pitch (SoundTouch) takes 1…\(TimePitch.maximumChannels) channels; this queue has \(playback.format.channels)."
                    )
                }
                try playback.setTimePitch(on)
                if let timePitch = playback.timePitch {
                    timePitch.algorithm.store(timePitchAlgorithm, ordering: .relaxed)
                    timePitch.playRateBits.store(playRate.bitPattern, ordering: .relaxed)
                    timePitch.pitchBits.store(pitch.bitPattern, ordering: .relaxed)
                }
            }
        case kAudioQueueProperty_TimePitchAlgorithm:
            let algorithm = try value(UInt32.self)
            guard
                [kAudioQueueTimePitchAlgorithm_Spectral, kAudioQueueTimePitchAlgorithm_TimeDomain, kAudioQueueTimePitchAlgorithm_Varispeed]
                    .contains(algorithm)
            else {
                throw AudioError(kAudioQueueErr_InvalidPropertyValue, "Time-pitch algorithm '\(FourCC.string(algorithm))' does not exist.")
            }
            lock.withLock {
                timePitchAlgorithm = algorithm
                if let timePitch = playback?.timePitch { timePitch.algorithm.store(algorithm, ordering: .releasing) }
            }
        case kAudioQueueProperty_TimePitchBypass:
            let bypassed = try value(UInt32.self) != 0
            try lock.withLock {
                guard let timePitch = playback?.timePitch else {
                    throw AudioError(
                        kAudioQueueErr_InvalidRunState, "TimePitchBypass needs kAudioQueueProperty_EnableTimePitch set to 1 first.")
                }
                guard unit == nil, !isRunning else {
                    throw AudioError(kAudioQueueErr_InvalidRunState, "Bypass time-pitch while the queue is stopped.")
                }
                timePitch.bypass.store(bypassed, ordering: .releasing)
            }
        default:
            _ = try propertySize(id)
            throw AudioError(kAudioQueueErr_InvalidProperty, "Audio queue property '\(FourCC.string(id))' is read-only.")
        }
    }

    /// Thread: any (a value read under the queue's lock).
    func parameter(_ id: AudioQueueParameterID) throws -> Float {
        try lock.withLock {
            switch id {
            case kAudioQueueParam_Volume: return volume
            case kAudioQueueParam_Pan: return pan
            case kAudioQueueParam_VolumeRampTime: return rampTime
            case kAudioQueueParam_PlayRate: return playRate
            case kAudioQueueParam_Pitch: return pitch
            default: throw AudioError(kAudioQueueErr_InvalidParameter, "Audio queue parameter \(id) does not exist.")
            }
        }
    }

    /// Thread: setup (any thread but the device's).
    func setParameter(_ id: AudioQueueParameterID, _ value: Float) throws {
        let value = try Self.checked(id, value)
        try lock.withLock {
            switch id {
            case kAudioQueueParam_Volume:
                volume = value
                playback?.setVolume(value)
            case kAudioQueueParam_Pan:
                pan = value
                playback?.panBits.store(value.bitPattern, ordering: .releasing)
            case kAudioQueueParam_VolumeRampTime:
                rampTime = value
                playback?.rampTimeBits.store(value.bitPattern, ordering: .releasing)
            default:
                guard let timePitch = playback?.timePitch else {
                    throw AudioError(
                        kAudioQueueErr_InvalidParameter,
                        "PlayRate and Pitch need time-pitch: set kAudioQueueProperty_EnableTimePitch to 1 first (while stopped).")
                }
                if id == kAudioQueueParam_PlayRate {
                    playRate = value
                    timePitch.playRateBits.store(value.bitPattern, ordering: .releasing)
                } else {
                    pitch = value
                    timePitch.pitchBits.store(value.bitPattern, ordering: .releasing)
                }
            }
        }
    }
}
