import AudioToolbox
import AudioTypes
import DSPKernels

/// The properties of AudioConverter.h: their sizes, whether they can be set, and their values.
extension AudioConverterSession {
    /// Size in bytes and writability of `property`. Throws kAudioConverterErr_PropertyNotSupported.
    func info(_ property: AudioConverterPropertyID) throws -> (size: Int, writable: Bool) {
        switch property {
        case kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMinimumOutputBufferSize,
            kAudioConverterPropertyMaximumInputPacketSize, kAudioConverterPropertyMaximumOutputPacketSize:
            return (4, false)
        case kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize:
            return (4, false)
        case kAudioConverterSampleRateConverterComplexity, kAudioConverterSampleRateConverterQuality,
            kAudioConverterCodecQuality, kAudioConverterPrimeMethod, kAudioConverterPropertyBitDepthHint:
            return (4, true)
        case kAudioConverterPrimeInfo: return (MemoryLayout<AudioConverterPrimeInfo>.size, false)
        case kAudioConverterChannelMap: return (4 * Int(outputFormat.mChannelsPerFrame), true)
        case kAudioConverterDecompressionMagicCookie: return (cookie.count, inputFormat.mFormatID != kAudioFormatLinearPCM)
        case kAudioConverterCurrentInputStreamDescription, kAudioConverterCurrentOutputStreamDescription:
            return (MemoryLayout<AudioStreamBasicDescription>.size, false)
        default:
            throw AudioError(
                kAudioConverterErr_PropertyNotSupported,
                "The converter has no property '\(FourCC.string(property))' (encoder properties are not offered: AUHost decodes only).")
        }
    }

    /// Reads `property` into `data` (`size` bytes available; for the Calculate properties, `data`
    /// holds the input). Returns the bytes written.
    func get(_ property: AudioConverterPropertyID, _ data: UnsafeMutableRawPointer, size: Int) throws -> Int {
        let (needed, _) = try info(property)
        // The cookie may be read into a larger buffer; everything else needs its exact size.
        guard property == kAudioConverterDecompressionMagicCookie ? size >= needed : size == needed else {
            throw AudioError(
                kAudioConverterErr_BadPropertySizeError,
                "Property '\(FourCC.string(property))' is \(needed) bytes; \(size) were given.")
        }
        func put<T>(_ value: T) -> Int {
            data.storeBytes(of: value, as: T.self)
            return MemoryLayout<T>.size
        }
        let inputPacket =
            inputFormat.mFormatID == kAudioFormatLinearPCM ? inputFormat.mBytesPerPacket : CompressedFormat.maximumPacketSize(inputFormat)
        switch property {
        case kAudioConverterPropertyMinimumInputBufferSize, kAudioConverterPropertyMaximumInputPacketSize: return put(inputPacket)
        case kAudioConverterPropertyMinimumOutputBufferSize, kAudioConverterPropertyMaximumOutputPacketSize:
            return put(outputFormat.mBytesPerFrame)
        case kAudioConverterPropertyCalculateInputBufferSize, kAudioConverterPropertyCalculateOutputBufferSize:
            guard inputFormat.mFormatID == kAudioFormatLinearPCM else {
                throw AudioError(
                    kAudioConverterErr_OperationNotSupported,
                    "Buffer sizes can be calculated for PCM input only; compressed packets vary in size.")
            }
            let given = Double(data.load(as: UInt32.self))
            let toInput = property == kAudioConverterPropertyCalculateInputBufferSize
            let (from, to) = toInput ? (outputFormat, inputFormat) : (inputFormat, outputFormat)
            let frames = (given / Double(from.mBytesPerFrame) * to.mSampleRate / from.mSampleRate).rounded(.up)
            return put(UInt32(min(frames * Double(to.mBytesPerFrame), Double(UInt32.max))))
        case kAudioConverterSampleRateConverterComplexity: return put(complexity)
        case kAudioConverterSampleRateConverterQuality: return put(quality)
        case kAudioConverterCodecQuality: return put(UInt32(kAudioConverterQuality_High))
        case kAudioConverterPropertyBitDepthHint: return put(Int32(0))
        case kAudioConverterPrimeMethod: return put(primeMethod)
        case kAudioConverterPrimeInfo: return put(try primeInfo())
        case kAudioConverterChannelMap:
            let map = data.assumingMemoryBound(to: Int32.self)
            for (i, entry) in channelMap.enumerated() { map[i] = Int32(entry) }
            return needed
        case kAudioConverterDecompressionMagicCookie:
            cookie.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            return cookie.count
        case kAudioConverterCurrentInputStreamDescription: return put(inputFormat)
        case kAudioConverterCurrentOutputStreamDescription: return put(outputFormat)
        default: return 0
        }
    }

    /// Sets `property` from `size` bytes at `data`. Changes that alter the conversion drop the
    /// converter's buffered state (as a reset does).
    func set(_ property: AudioConverterPropertyID, _ data: UnsafeRawPointer, size: Int) throws {
        let (needed, writable) = try info(property)
        guard writable else {
            throw AudioError(kAudioConverterErr_PropertyNotSupported, "Property '\(FourCC.string(property))' is read-only.")
        }
        if property == kAudioConverterDecompressionMagicCookie {
            guard size <= 1 << 20 else {
                throw AudioError(
                    kAudioConverterErr_BadPropertySizeError, "A magic cookie of \(size) bytes is beyond the 1 MiB AUHost accepts.")
            }
            cookie = Array(UnsafeRawBufferPointer(start: data, count: size))
            reset()
            decoder = nil
            return
        }
        guard size == needed else {
            throw AudioError(
                kAudioConverterErr_BadPropertySizeError, "Property '\(FourCC.string(property))' is \(needed) bytes; \(size) were given.")
        }
        let value = data.load(as: UInt32.self)
        switch property {
        case kAudioConverterSampleRateConverterComplexity:
            let known = [
                kAudioConverterSampleRateConverterComplexity_Linear, kAudioConverterSampleRateConverterComplexity_Normal,
                kAudioConverterSampleRateConverterComplexity_Mastering, kAudioConverterSampleRateConverterComplexity_MinimumPhase,
            ]
            guard known.contains(value) else {
                throw AudioError(
                    kAudio_ParamError, "'\(FourCC.string(value))' is not a sample-rate converter complexity (line, norm, bats, minp).")
            }
            complexity = value
        case kAudioConverterSampleRateConverterQuality:
            guard value <= kAudioConverterQuality_Max else {
                throw AudioError(kAudio_ParamError, "Converter quality \(value) is beyond kAudioConverterQuality_Max (127).")
            }
            quality = value
        case kAudioConverterPrimeMethod:
            guard value <= kConverterPrimeMethod_None else {
                throw AudioError(kAudio_ParamError, "Prime method \(value) is not one of Pre (0), Normal (1), None (2).")
            }
            primeMethod = value
        case kAudioConverterChannelMap:
            let inputs = Int(inputFormat.mChannelsPerFrame)
            let entries = (0..<Int(outputFormat.mChannelsPerFrame)).map { Int(data.load(fromByteOffset: 4 * $0, as: Int32.self)) }
            guard entries.allSatisfy({ (-1..<inputs).contains($0) }) else {
                throw AudioError(
                    kAudio_ParamError, "Channel map \(entries) has an entry outside -1…\(inputs - 1) (the source has \(inputs) channels).")
            }
            channelMap = entries
        default: return  // CodecQuality, BitDepthHint: accepted, nothing to encode with them
        }
        release()
    }
}
