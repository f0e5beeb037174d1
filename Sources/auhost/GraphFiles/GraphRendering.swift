import AudioFiles
import AUHost
import ExtAudioFile
import Foundation
import GraphFileFormat

/// An audio file read whole into canonical (deinterleaved Float32) buffers.
struct LoadedAudio {
    var samples: AudioBufferStorage
    var frames: Int
    var sampleRate: Double
    var encoding: AudioFileEncoding?

    /// The most samples (frames × channels) an input held in memory may have: 2^29 Float32
    /// samples, 2 GiB (about 93 minutes of stereo at 48 kHz). Bounds the allocation a file sizes.
    static let maximumSamples = 1 << 29

    /// Reads `path` (any format libsndfile reads) to its real end: the header's length is only a
    /// hint (a truncated Ogg stream declares Int64.max frames).
    ///
    /// Thread: setup.
    static func load(_ path: String) throws -> LoadedAudio {
        let source = try ExtendedAudioFile.open(path: path)
        let rate = source.fileFormat.mSampleRate, channels = Int(source.fileFormat.mChannelsPerFrame)
        let format = AudioStreamBasicDescription.canonical(sampleRate: rate, channels: UInt32(channels))
        try source.setClientFormat(format)
        let limit = maximumSamples / channels
        let chunkFrames: UInt32 = 16_384
        let chunk = AudioBufferStorage(format: format, capacity: chunkFrames)
        var data = [[Float]](repeating: [], count: channels)
        if source.file.isLengthKnown {
            let expected = min(Int(source.lengthFrames), limit)
            for c in 0..<channels { data[c].reserveCapacity(expected) }
        }
        var frames = 0
        while true {
            chunk.prepare(frames: chunkFrames)
            let got = try source.read(into: chunk.list, frames: Int(chunkFrames))
            guard frames + got <= limit else {
                throw AudioError(
                    kAudio_MemFullError,
                    "\(path) holds more than \(limit) frames of \(channels) channels, the most a graph input"
                        + " may hold in memory (\(maximumSamples) samples); render it through a unit with `auhost render -i` instead.")
            }
            for c in 0..<channels { data[c].append(contentsOf: UnsafeBufferPointer(start: chunk.channel(c), count: got)) }
            frames += got
            if got < Int(chunkFrames) { break }
        }
        let storage = AudioBufferStorage(format: format, capacity: UInt32(max(frames, 1)))
        storage.prepare(frames: UInt32(max(frames, 1)))
        for c in 0..<channels where frames > 0 {
            data[c].withUnsafeBufferPointer { storage.channel(c).update(from: $0.baseAddress!, count: frames) }
        }
        let encoding = source.file.dataFormat.encoding
        try source.dispose()
        return LoadedAudio(samples: storage, frames: frames, sampleRate: rate, encoding: encoding)
    }
}

/// Offline rendering of a built graph with a file head: pulls the generic output block by block,
/// drops the graph's latency from the front (rendering as many frames more at the end) and writes
/// `frames` frames.
enum GraphFileRenderer {
    /// Renders `frames` frames of `built` into `path`; returns the latency compensated.
    ///
    /// Thread: setup (the caller's thread is the render thread of an offline graph).
    @discardableResult
    static func render(_ built: BuiltGraph, frames: Int, to path: String, encodingLike input: AudioFileEncoding?) throws -> Int {
        let rate = built.file.sampleRate, channels = built.outputChannels, block = built.file.block
        let type = RenderCommand.fileType(path)!
        let staged = try StagedOutput(path)
        let destination = try ExtendedAudioFile.create(
            path: staged.temporary, type: type,
            fileFormat: AudioFileDataFormat(
                sampleRate: rate, channelCount: channels, encoding: RenderCommand.encoding(for: type, input: input)))
        try destination.setClientFormat(.canonical(sampleRate: rate, channels: UInt32(channels)))
        let buffers = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: UInt32(channels)), capacity: block)
        // A unit's reported latency is input too: at most a minute is compensated.
        let latency = RenderCommand.frames(seconds: Double(built.graph.latencyFrames) / rate, rate: rate)
        let list = AudioBufferStorage.allocateList(bufferCount: channels)
        defer { AudioBufferStorage.deallocateList(list) }
        let progress = ProgressBar(total: latency + frames)
        var pulled = 0, written = 0
        while written < frames {
            let count = min(Int(block), latency + frames - pulled)
            try built.graph.render(frames: UInt32(count), into: buffers)
            built.isolation.check()
            let skip = max(0, min(count, latency - pulled))
            let keep = min(count - skip, frames - written)
            if keep > 0 {
                let view = UnsafeMutableAudioBufferListPointer(list)
                for c in 0..<channels {
                    view[c] = AudioBuffer(
                        mNumberChannels: 1, mDataByteSize: UInt32(keep * 4), mData: UnsafeMutableRawPointer(buffers.channel(c) + skip))
                }
                try destination.write(from: list, frames: keep)
                written += keep
            }
            pulled += count
            progress.update(pulled)
        }
        try destination.dispose()
        try staged.commit()
        reportClipping(of: destination, writtenTo: path)
        progress.finish()
        return latency
    }
}
