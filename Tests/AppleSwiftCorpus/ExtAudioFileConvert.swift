// Ported from: the ExtAudioFileConvert sample (iPhoneExtAudioFileConvertTest, DoConvertFile):
// open the source with ExtAudioFileOpenURL, read its kExtAudioFileProperty_FileDataFormat, create
// the destination (a 16-bit linear PCM CAF file with the source's rate and channel count) with
// ExtAudioFileCreateWithURL, use the destination's PCM format as the client format of both files
// (the sample does so when the output is linear PCM), then read 32 KB chunks from the source and
// write them to the destination until ExtAudioFileRead returns 0 frames.
// URL: see ExtAudioFileClientFormat.swift (`as CFURL` does not bridge on Linux).
import AudioToolbox
import Foundation

enum ExtAudioFileConverter {
    static func doConvertFile(sourcePath: String, destinationPath: String) -> OSStatus {
        var sourceFile: ExtAudioFileRef?
        var destinationFile: ExtAudioFileRef?
        defer {
            if let sourceFile { ExtAudioFileDispose(sourceFile) }
            if let destinationFile { ExtAudioFileDispose(destinationFile) }
        }

        var status = ExtAudioFileOpenURL(AudioFileURL.make(sourcePath), &sourceFile)
        guard status == noErr else { return status }

        var sourceFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout.stride(ofValue: sourceFormat))
        status = ExtAudioFileGetProperty(sourceFile!, kExtAudioFileProperty_FileDataFormat, &size, &sourceFormat)
        guard status == noErr else { return status }

        // The output format: 16-bit signed integer, interleaved, at the source's rate and width.
        var destinationFormat = AudioStreamBasicDescription()
        destinationFormat.mSampleRate = sourceFormat.mSampleRate
        destinationFormat.mFormatID = kAudioFormatLinearPCM
        destinationFormat.mChannelsPerFrame = sourceFormat.mChannelsPerFrame
        destinationFormat.mBitsPerChannel = 16
        destinationFormat.mBytesPerPacket = 2 * destinationFormat.mChannelsPerFrame
        destinationFormat.mBytesPerFrame = destinationFormat.mBytesPerPacket
        destinationFormat.mFramesPerPacket = 1
        destinationFormat.mFormatFlags = kLinearPCMFormatFlagIsPacked | kLinearPCMFormatFlagIsSignedInteger

        status = ExtAudioFileCreateWithURL(
            AudioFileURL.make(destinationPath), kAudioFileCAFType, &destinationFormat, nil,
            AudioFileFlags.eraseFile.rawValue, &destinationFile)
        guard status == noErr else { return status }

        // The output is PCM, so the client format is the destination format.
        var clientFormat = destinationFormat
        size = UInt32(MemoryLayout.stride(ofValue: clientFormat))
        status = ExtAudioFileSetProperty(sourceFile!, kExtAudioFileProperty_ClientDataFormat, size, &clientFormat)
        guard status == noErr else { return status }
        status = ExtAudioFileSetProperty(destinationFile!, kExtAudioFileProperty_ClientDataFormat, size, &clientFormat)
        guard status == noErr else { return status }

        let bufferByteSize: UInt32 = 32768
        let sourceBuffer = UnsafeMutableRawPointer.allocate(byteCount: Int(bufferByteSize), alignment: 16)
        defer { sourceBuffer.deallocate() }
        while true {
            var fillBufList = AudioBufferList(
                mNumberBuffers: 1,
                mBuffers: AudioBuffer(
                    mNumberChannels: clientFormat.mChannelsPerFrame,
                    mDataByteSize: bufferByteSize,
                    mData: sourceBuffer))
            var numFrames = bufferByteSize / clientFormat.mBytesPerFrame
            status = ExtAudioFileRead(sourceFile!, &numFrames, &fillBufList)
            guard status == noErr else { return status }
            if numFrames == 0 { break }  // this is our termination condition
            status = ExtAudioFileWrite(destinationFile!, numFrames, &fillBufList)
            guard status == noErr else { return status }
        }
        return noErr
    }
}

enum Float32FileWriter {
    /// Writes a mono 32-bit float WAVE file (the converter's source) through a float client.
    static func write(path: String, sampleRate: Float64, samples: [Float32]) -> OSStatus {
        var fileFormat = AudioStreamBasicDescription(
            mSampleRate: sampleRate, mFormatID: kAudioFormatLinearPCM,
            mFormatFlags: kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked,
            mBytesPerPacket: 4, mFramesPerPacket: 1, mBytesPerFrame: 4,
            mChannelsPerFrame: 1, mBitsPerChannel: 32, mReserved: 0)
        var file: ExtAudioFileRef?
        var status = ExtAudioFileCreateWithURL(
            AudioFileURL.make(path), kAudioFileWAVEType, &fileFormat, nil,
            AudioFileFlags.eraseFile.rawValue, &file)
        guard status == noErr else { return status }
        defer { ExtAudioFileDispose(file!) }
        status = ExtAudioFileSetProperty(
            file!, kExtAudioFileProperty_ClientDataFormat,
            UInt32(MemoryLayout<AudioStreamBasicDescription>.size), &fileFormat)
        guard status == noErr else { return status }
        var copy = samples
        return copy.withUnsafeMutableBufferPointer { buffer in
            var bufferList = AudioBufferList(mNumberBuffers: 1, mBuffers: AudioBuffer(buffer, numberOfChannels: 1))
            return ExtAudioFileWrite(file!, UInt32(buffer.count), &bufferList)
        }
    }
}
