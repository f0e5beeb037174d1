import XCTest
import AudioToolbox
@testable import AudioFiles

final class AudioFileErrorTests: XCTestCase {
    func testStatusCodesAreTheDocumentedFourCharCodes() {
        func code(_ s: String) -> OSStatus {
            OSStatus(bitPattern: s.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        XCTAssertEqual(kAudioFileUnspecifiedError, code("wht?"))
        XCTAssertEqual(kAudioFileUnsupportedFileTypeError, code("typ?"))
        XCTAssertEqual(kAudioFileUnsupportedDataFormatError, code("fmt?"))
        XCTAssertEqual(kAudioFilePermissionsError, code("prm?"))
        XCTAssertEqual(kAudioFileInvalidFileError, code("dta?"))
        let error = AudioFileError(status: kAudioFileInvalidFileError, path: "/x.wav", "The file /x.wav is damaged.")
        XCTAssertEqual(error.description, "The file /x.wav is damaged. (OSStatus 1685348671 'dta?')")
        XCTAssertEqual(AudioFileError(status: -43, path: "", "Missing.").description, "Missing. (OSStatus -43)")
    }
}
