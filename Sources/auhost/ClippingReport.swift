import ExtAudioFile
import Foundation

/// Says once, on standard error, how many samples an integer output file could not hold (they
/// were clamped to full scale), as sox does: a float file keeps them, so the remedy is named.
///
/// Thread: setup.
func reportClipping(of file: ExtendedAudioFile, writtenTo path: String) {
    let clipped = file.file.clippedSampleCount
    guard clipped > 0 else { return }
    let bits = file.file.dataFormat.encoding?.integerBits ?? 0
    let message =
        "auhost: warning: \(path): \(clipped) sample\(clipped == 1 ? "" : "s") clipped at \(bits)-bit full scale;"
        + " a float input writes a float file, which keeps them (or lower the level).\n"
    FileHandle.standardError.write(Data(message.utf8))
}
