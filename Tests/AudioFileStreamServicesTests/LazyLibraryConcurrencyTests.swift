import CCodecs
import Foundation
import XCTest

/// The codec libraries are opened by their first call (CLazyLibraries). Several threads making
/// their first decoders at once must each get a working one: one of them opens the library, the
/// others wait for it or see it open, and none reads a half-filled function table. Under `make
/// tsan` this is the first use of libmpg123 and libFLAC in the process, so ThreadSanitizer sees
/// the loader itself race.
final class LazyLibraryConcurrencyTests: XCTestCase {
    func testDecodersMadeOnSeveralThreadsAtOnceAllWork() {
        let threads = 8
        let results = UnsafeMutablePointer<Int32>.allocate(capacity: threads * 2)
        defer { results.deallocate() }
        results.initialize(repeating: -1, count: threads * 2)
        DispatchQueue.concurrentPerform(iterations: threads) { i in
            var error: Int32 = 0
            if let handle = mpg123_new(nil, &error) {
                // A call through the table the first call filled: a handle answers its own state.
                results[i * 2] = mpg123_format_none(handle)
                mpg123_delete(handle)
            }
            if let decoder = FLAC__stream_decoder_new() {
                results[i * 2 + 1] = Int32(FLAC__stream_decoder_get_state(decoder).rawValue)
                FLAC__stream_decoder_delete(decoder)
            }
        }
        for i in 0..<threads {
            XCTAssertEqual(results[i * 2], MPG123_OK.rawValue, "thread \(i): mpg123")
            XCTAssertEqual(results[i * 2 + 1], Int32(FLAC__STREAM_DECODER_UNINITIALIZED.rawValue), "thread \(i): FLAC")
        }
    }
}
