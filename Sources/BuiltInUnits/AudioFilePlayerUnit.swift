import AUHostCore
import AudioFiles
import ExtAudioFile
import Foundation

/// The audio file player ('augn' 'afpl', AUAudioFilePlayer): plays regions of files opened with
/// AudioFileOpenURL / AudioFileOpenPath into one output element (canonical, any channel count,
/// default stereo; file channel c feeds output c, a mono file feeds every output).
///
/// Use, as documented (AudioUnitFilePlayer.h): set kAudioUnitProperty_ScheduledFileIDs (an
/// AudioFileID array), initialize, schedule ScheduledAudioFileRegion records
/// (ScheduledFileRegion: file, start frame, frames per pass or 0xFFFFFFFF for "to the end",
/// loop count = extra passes, mTimeStamp.mSampleTime = where on the player's timeline the region
/// starts), prime (ScheduledFilePrime: fills the buffer before playing; 0 = as much as fits),
/// then set ScheduleStartTimeStamp: the render sample time at which the timeline starts, or −1
/// for "at the next render call". Before the start, and after the last region, it renders
/// silence. CurrentPlayTime reads the timeline frames played (−1 before the start).
///
/// Reading happens off the render thread: a reader thread (FilePlayerReader) keeps a lock-free
/// ring of ScheduledFileBufferSizeFrames × ScheduledFileNumberBuffers frames (default 4096 × 8)
/// full; render only copies out of it. If the reader falls behind (a disk stall, or an offline
/// render faster than the disk) the missing frames are silence and the timeline slips by them.
/// Files must be at the output's sample rate (scheduling another rate fails with
/// kAudioUnitErr_FormatNotSupported; put a format converter after a player at the file's rate).
/// AudioUnitReset clears the schedule and the start time. No parameters; Latency, TailTime 0.
public final class AudioFilePlayerUnit: AUBase {
    public static let identity = AudioComponentDescription(
        type: kAudioUnitType_Generator, subType: kAudioUnitSubType_AudioFilePlayer,
        manufacturer: kAudioUnitManufacturer_AUHost)
    var files: [AudioFileReference] = []
    var regions: [ScheduledAudioFileRegion] = []
    var reader: FilePlayerReader?
    /// The reader's ring, where the render thread reads it (a value: no reference counting).
    var ring: FrameRingBuffer?
    var bufferFrames: UInt32 = 4096
    var bufferCount: UInt32 = 8
    var primedFrames: UInt32 = 0
    /// [0] start sample time (NaN: none, −1: at the next render), [1] timeline frames played.
    let clock = UnsafeMutablePointer<Double>.allocate(capacity: 2)
    var channelPointers: UnsafeMutablePointer<UnsafeMutablePointer<Float>>?
    var channelCount = 0

    /// Thread: setup.
    public init(_ description: AudioComponentDescription = AudioFilePlayerUnit.identity) {
        super.init(description: description, inputs: 0, outputs: 1)
        clock.initialize(repeating: .nan, count: 2)
        clock[1] = 0
    }

    deinit {
        reader?.stop()
        clock.deallocate()
    }

    public override func accepts(format: AudioStreamBasicDescription, scope: AudioUnitScope, element: AudioUnitElement) -> Bool {
        scope == kAudioUnitScope_Output && super.accepts(format: format, scope: scope, element: element)
    }

    // MARK: Properties

    public override func customPropertyInfo(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) throws -> (size: UInt32, writable: Bool)? {
        let size: UInt32
        var writable = true
        switch id {
        case kAudioUnitProperty_ScheduledFileIDs: size = UInt32(files.count * MemoryLayout<AudioFileID>.size)
        case kAudioUnitProperty_ScheduledFileRegion: size = UInt32(MemoryLayout<ScheduledAudioFileRegion>.size)
        case kAudioUnitProperty_ScheduledFilePrime, kAudioUnitProperty_ScheduledFileBufferSizeFrames,
            kAudioUnitProperty_ScheduledFileNumberBuffers:
            size = 4
        case kAudioUnitProperty_ScheduleStartTimeStamp: size = UInt32(MemoryLayout<AudioTimeStamp>.size)
        case kAudioUnitProperty_CurrentPlayTime: size = UInt32(MemoryLayout<AudioTimeStamp>.size); writable = false
        default: return nil
        }
        guard scope == kAudioUnitScope_Global else {
            throw AudioError(kAudioUnitErr_InvalidScope, "The file player's property \(id) lives in global scope.")
        }
        return (size, writable)
    }

    /// The most files one ScheduledFileIDs may name (each stays open while scheduled).
    static let maximumScheduledFiles: UInt32 = 1024

    /// ScheduledFileIDs is an AudioFileID array.
    public override func arrayPropertyLayout(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope,
        _ element: AudioUnitElement
    ) -> (entrySize: UInt32, maximumCount: UInt32)? {
        id == kAudioUnitProperty_ScheduledFileIDs ? (UInt32(MemoryLayout<AudioFileID>.size), Self.maximumScheduledFiles) : nil
    }

    public override func getCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeMutableRawPointer
    ) throws {
        switch id {
        case kAudioUnitProperty_ScheduledFileIDs:
            for (i, f) in files.enumerated() {
                data.storeBytes(of: f.handle, toByteOffset: i * MemoryLayout<AudioFileID>.size, as: OpaquePointer.self)
            }
        case kAudioUnitProperty_ScheduledFileRegion:
            guard let last = regions.last else {
                throw AudioError(kAudioUnitErr_PropertyNotInUse, "No region has been scheduled on the file player.")
            }
            data.storeBytes(of: last, as: ScheduledAudioFileRegion.self)
        case kAudioUnitProperty_ScheduledFilePrime: data.storeBytes(of: primedFrames, as: UInt32.self)
        case kAudioUnitProperty_ScheduledFileBufferSizeFrames: data.storeBytes(of: bufferFrames, as: UInt32.self)
        case kAudioUnitProperty_ScheduledFileNumberBuffers: data.storeBytes(of: bufferCount, as: UInt32.self)
        case kAudioUnitProperty_ScheduleStartTimeStamp:
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = clock[0].isNaN ? -1 : clock[0]
            stamp.mFlags = .sampleTimeValid
            data.storeBytes(of: stamp, as: AudioTimeStamp.self)
        default:
            var stamp = AudioTimeStamp()
            stamp.mSampleTime = clock[0].isNaN || clock[0] < 0 ? -1 : clock[1]
            stamp.mFlags = .sampleTimeValid
            data.storeBytes(of: stamp, as: AudioTimeStamp.self)
        }
    }

    public override func setCustomProperty(
        _ id: AudioUnitPropertyID, _ scope: AudioUnitScope, _ element: AudioUnitElement,
        _ data: UnsafeRawPointer, _ size: UInt32
    ) throws {
        switch id {
        case kAudioUnitProperty_ScheduledFileIDs:
            let count = Int(size) / MemoryLayout<AudioFileID>.size
            files = try (0..<count).map {
                try AudioFileReference.from(
                    data.loadUnaligned(fromByteOffset: $0 * MemoryLayout<AudioFileID>.size, as: OpaquePointer?.self))
            }
        case kAudioUnitProperty_ScheduledFileRegion:
            try schedule(data.loadUnaligned(as: ScheduledAudioFileRegion.self))
        case kAudioUnitProperty_ScheduledFilePrime:
            guard let reader else {
                throw AudioError(kAudioUnitErr_Uninitialized, "Initialize the file player before priming it.")
            }
            let frames = data.loadUnaligned(as: UInt32.self)
            primedFrames = UInt32(reader.fill(limit: frames == 0 ? Int.max : Int(frames)))
        case kAudioUnitProperty_ScheduledFileBufferSizeFrames, kAudioUnitProperty_ScheduledFileNumberBuffers:
            guard !isInitialized else {
                throw AudioError(kAudioUnitErr_Initialized, "Uninitialize the file player before resizing its buffer.")
            }
            let value = data.loadUnaligned(as: UInt32.self)
            guard (16...1 << 20).contains(value) || (id == kAudioUnitProperty_ScheduledFileNumberBuffers && (1...64).contains(value)) else {
                throw AudioError(kAudioUnitErr_InvalidPropertyValue, "\(value) is out of range for the file player's buffer.")
            }
            if id == kAudioUnitProperty_ScheduledFileBufferSizeFrames { bufferFrames = value } else { bufferCount = value }
        case kAudioUnitProperty_ScheduleStartTimeStamp:
            let stamp = data.loadUnaligned(as: AudioTimeStamp.self)
            guard stamp.mFlags.contains(.sampleTimeValid) else {
                throw AudioError(
                    kAudioUnitErr_InvalidPropertyValue,
                    "ScheduleStartTimeStamp needs a sample time (kAudioTimeStampSampleTimeValid); −1 means the next render.")
            }
            clock[1] = 0
            clock[0] = stamp.mSampleTime < 0 ? -1 : stamp.mSampleTime
        default:
            throw AudioError(kAudioUnitErr_PropertyNotWritable, "CurrentPlayTime is read-only.")
        }
    }

    /// Checks a region against the scheduled files and hands it to the reader.
    private func schedule(_ region: ScheduledAudioFileRegion) throws {
        guard let reader else {
            throw AudioError(kAudioUnitErr_Uninitialized, "Initialize the file player before scheduling regions.")
        }
        guard let handle = region.mAudioFile, let file = files.first(where: { UnsafeRawPointer($0.handle) == UnsafeRawPointer(handle) })
        else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "The region's file is not among ScheduledFileIDs; set that property with the file first.")
        }
        guard file.dataFormat.sampleRate == outputFormats[0].mSampleRate else {
            throw AudioError(
                kAudioUnitErr_FormatNotSupported,
                "\(file.path) runs at \(file.dataFormat.sampleRate) Hz but the player's output at \(outputFormats[0].mSampleRate) Hz; set the output to the file's rate and convert after the player."
            )
        }
        guard region.mStartFrame >= 0, region.mStartFrame <= file.frameCount else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "Start frame \(region.mStartFrame) is outside \(file.path) (\(file.frameCount) frames).")
        }
        let available = file.frameCount - region.mStartFrame
        let frames = region.mFramesToPlay == UInt32.max ? available : min(Int64(region.mFramesToPlay), available)
        let opened = try rethrowing { try AudioFile.open(readingAt: file.path) }
        let time = region.mTimeStamp.mFlags.contains(.sampleTimeValid) ? region.mTimeStamp.mSampleTime : 0
        // The caller's Double becomes a frame count: bounded first (Int64(NaN) or Int64(1e300) traps).
        guard time.isFinite, time < Self.latestRegionStart else {
            throw AudioError(
                kAudioUnitErr_InvalidPropertyValue,
                "The region's time stamp \(time) is not a sample time on the player's timeline (0 … \(Self.latestRegionStart) frames).")
        }
        let start = Int64(max(time, 0))  // before the timeline counts as its start
        reader.add(
            FilePlayerRegion(
                file: opened, startFrame: region.mStartFrame, framesPerLoop: frames,
                loops: Int64(region.mLoopCount), timelineStart: start))
        regions.append(region)
    }

    /// The latest timeline frame a region may start at: 2^53, where Doubles still count every
    /// frame, and far enough below Int64.max that start + frames × loops cannot overflow.
    static let latestRegionStart = 9_007_199_254_740_992.0

    private func rethrowing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as AudioFileError { throw AudioError(error.status, error.message) }
    }

    // MARK: Lifecycle

    public override func allocateRenderResources() throws {
        channelCount = Int(outputFormats[0].mChannelsPerFrame)
        let bytes = Int(bufferFrames) * Int(bufferCount) * channelCount * MemoryLayout<Float>.size
        guard bytes <= AUBase.maximumRenderMemory else {
            throw AudioError(
                kAudio_MemFullError,
                "ScheduledFileBufferSizeFrames \(bufferFrames) × ScheduledFileNumberBuffers \(bufferCount) × \(channelCount) channels need \(bytes >> 20) MiB, more than the \(AUBase.maximumRenderMemory >> 20) MiB a unit may take."
            )
        }
        let r = try FilePlayerReader(channelCount: channelCount, capacity: Int(bufferFrames) * Int(bufferCount))
        channelPointers = .allocate(capacity: channelCount)
        reader = r
        ring = r.ring
        clock[0] = .nan
        clock[1] = 0
        r.start()
    }

    public override func deallocateRenderResources() {
        reader?.stop()
        ring = nil
        reader = nil
        regions = []
        channelPointers?.deallocate()
        channelPointers = nil
    }

    /// Clears the schedule and the start time (the render thread must not be rendering).
    public override func resetState() {
        guard let reader, let channelPointers else { return }
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: channelCount * 1024)
        defer { scratch.deallocate() }
        for c in 0..<channelCount { channelPointers[c] = scratch + c * 1024 }
        reader.clear(into: channelPointers, scratchFrames: 1024)
        regions = []
        primedFrames = 0
        clock[0] = .nan
        clock[1] = 0
    }

    // MARK: Render

    /// Thread: render.
    @_noAllocation @_noLocks
    public override func renderBus(
        _ bus: UInt32, flags: UnsafeMutablePointer<AudioUnitRenderActionFlags>,
        timeStamp: UnsafePointer<AudioTimeStamp>, frames: UInt32,
        output: UnsafeMutablePointer<AudioBufferList>
    ) -> OSStatus {
        guard let ring, let channelPointers else { return kAudioUnitErr_Uninitialized }
        let n = Int(frames), channels = channelCount, clock = self.clock
        let outs = audioBuffers(output)
        guard Int(output.pointee.mNumberBuffers) == channels else { return kAudio_ParamError }
        for c in 0..<channels {
            guard let data = outs[c].mData?.assumingMemoryBound(to: Float.self) else { return kAudio_ParamError }
            for i in 0..<n { data[i] = 0 }
            channelPointers[c] = data
        }
        if clock[0] == -1 { clock[0] = timeStamp.pointee.mSampleTime }
        let start = clock[0]
        guard start == start else { return noErr }  // not scheduled to start (NaN)
        let offset = start - timeStamp.pointee.mSampleTime
        guard offset < Double(n) else { return noErr }
        let first = offset > 0 ? Int(offset) : 0
        for c in 0..<channels { channelPointers[c] += first }
        // FrameRingBuffer.pop is the lock-free single-consumer side: two atomics and copies.
        let got = _unsafePerformance { ring.pop(into: channelPointers, maximumFrames: n - first) }
        clock[1] += Double(got)
        return noErr
    }
}
