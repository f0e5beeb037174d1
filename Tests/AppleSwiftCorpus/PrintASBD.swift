// Ported from: Audio Unit Hosting Guide for iOS, "Constructing Audio Unit Apps", "Troubleshooting
// Tips", Listing 2-8 (A utility method to print field values for an AudioStreamBasicDescription:
// the format ID byte-swapped to big-endian with CFSwapInt32HostToBig and copied into a C string)
// and the advice before it (initialise every ASBD to zero), with Listing 2 of the
// AVCaptureToAudioUnit ReadMe (the canonical AU format filled in by hand). NSLog's lines are
// collected into a String so that they can be checked.
import AudioToolbox
import Foundation

enum ASBDPrinter {
    static func printASBD(_ asbd: AudioStreamBasicDescription) -> String {
        var formatIDString = [CChar](repeating: 0, count: 5)
        var formatID = CFSwapInt32HostToBig(asbd.mFormatID)
        withUnsafeBytes(of: &formatID) { bytes in
            for index in 0..<4 { formatIDString[index] = CChar(bitPattern: bytes[index]) }
        }
        formatIDString[4] = 0
        let lines = [
            String(format: "  Sample Rate:         %10.0f", asbd.mSampleRate),
            formatIDString.withUnsafeBufferPointer { String(format: "  Format ID:           %10s", $0.baseAddress!) },
            String(format: "  Format Flags:        %10X", asbd.mFormatFlags),
            String(format: "  Bytes per Packet:    %10d", asbd.mBytesPerPacket),
            String(format: "  Frames per Packet:   %10d", asbd.mFramesPerPacket),
            String(format: "  Bytes per Frame:     %10d", asbd.mBytesPerFrame),
            String(format: "  Channels per Frame:  %10d", asbd.mChannelsPerFrame),
            String(format: "  Bits per Channel:    %10d", asbd.mBitsPerChannel),
        ]
        return lines.joined(separator: "\n")
    }

    /// The stream format a unit reports for `scope`, element 0 (all fields zeroed first, as advised).
    static func streamFormat(of unit: AudioUnit, scope: AudioUnitScope) -> AudioStreamBasicDescription {
        var stereoStreamFormat = AudioStreamBasicDescription()
        var size = UInt32(MemoryLayout<AudioStreamBasicDescription>.size)
        AudioUnitGetProperty(unit, kAudioUnitProperty_StreamFormat, scope, 0, &stereoStreamFormat, &size)
        return stereoStreamFormat
    }

    /// The canonical AU format for `channels` at `sampleRate` (ReadMe Listing 2).
    static func canonicalAUASBD(sampleRate: Float64, channels: UInt32) -> AudioStreamBasicDescription {
        var canonicalAUASBD = AudioStreamBasicDescription()
        canonicalAUASBD.mSampleRate = sampleRate
        canonicalAUASBD.mFormatID = kAudioFormatLinearPCM
        canonicalAUASBD.mFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked | kAudioFormatFlagIsNonInterleaved
        canonicalAUASBD.mChannelsPerFrame = channels
        canonicalAUASBD.mFramesPerPacket = 1
        canonicalAUASBD.mBytesPerFrame = UInt32(MemoryLayout<Float32>.size)
        canonicalAUASBD.mBytesPerPacket = UInt32(MemoryLayout<Float32>.size)
        canonicalAUASBD.mBitsPerChannel = 8 * UInt32(MemoryLayout<Float32>.size)
        return canonicalAUASBD
    }
}
