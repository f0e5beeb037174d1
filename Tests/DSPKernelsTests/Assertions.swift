import XCTest
import DSPKernels
import AudioToolbox

/// Asserts that `body` throws a DSPKernelError carrying kAudio_ParamError (works for
/// non-copyable results, which XCTAssertThrowsError cannot take).
func assertThrowsParamError(file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
    do {
        try body()
        XCTFail("expected an error", file: file, line: line)
    } catch {
        XCTAssertEqual((error as? DSPKernelError)?.status, OSStatus(kAudio_ParamError), file: file, line: line)
        XCTAssertFalse((error as? DSPKernelError)?.message.isEmpty ?? true, file: file, line: line)
    }
}
