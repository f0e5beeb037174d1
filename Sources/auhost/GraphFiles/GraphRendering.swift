import AudioFiles
import AUHost
import ExtAudioFile
import Foundation

/// An audio file read whole into canonical (deinterleaved Float32) buffers.
struct LoadedAudio {
    var samples: AudioBufferStorage
    var frames: Int
    var sampleRate: Double
    var encoding: AudioFileEncoding?

    /// Reads `path` (any format libsndfile reads).
    ///
    /// Thread: setup.
    static func load(_ path: String) throws -> LoadedAudio {
        let source = try ExtendedAudioFile.open(path: path)
        let rate = source.fileFormat.mSampleRate, channels = source.fileFormat.mChannelsPerFrame
        try source.setClientFormat(.canonical(sampleRate: rate, channels: channels))
        let frames = Int(source.lengthFrames)
        let storage = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: channels), capacity: UInt32(max(frames, 1)))
        storage.prepare(frames: UInt32(max(frames, 1)))
        let got = frames > 0 ? try source.read(into: storage.list, frames: frames) : 0
        let encoding = source.file.dataFormat.encoding
        try source.dispose()
        return LoadedAudio(samples: storage, frames: got, sampleRate: rate, encoding: encoding)
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
        let destination = try ExtendedAudioFile.create(
            path: path, type: type,
            fileFormat: AudioFileDataFormat(sampleRate: rate, channelCount: channels, encoding: RenderCommand.encoding(for: type, input: input)))
        try destination.setClientFormat(.canonical(sampleRate: rate, channels: UInt32(channels)))
        let buffers = AudioBufferStorage(format: .canonical(sampleRate: rate, channels: UInt32(channels)), capacity: block)
        let latency = built.graph.latencyFrames
        let list = AudioBufferStorage.allocateList(bufferCount: channels)
        defer { AudioBufferStorage.deallocateList(list) }
        let progress = ProgressBar(total: latency + frames)
        var pulled = 0, written = 0
        while written < frames {
            let count = min(Int(block), latency + frames - pulled)
            try built.graph.render(frames: UInt32(count), into: buffers)
            let skip = max(0, min(count, latency - pulled))
            let keep = min(count - skip, frames - written)
            if keep > 0 {
                let view = UnsafeMutableAudioBufferListPointer(list)
                for c in 0..<channels {
                    view[c] = AudioBuffer(mNumberChannels: 1, mDataByteSize: UInt32(keep * 4), mData: UnsafeMutableRawPointer(buffers.channel(c) + skip))
                }
                try destination.write(from: list, frames: keep)
                written += keep
            }
            pulled += count
            progress.update(pulled)
        }
        try destination.dispose()
        progress.finish()
        return latency
    }
}
