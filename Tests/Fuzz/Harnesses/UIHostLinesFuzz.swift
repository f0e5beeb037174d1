import CAUHostAtomText
import CUIHost
import Glibc

/// What the UI child reads from its host (ui_host_child.h, host_lines.c): the bytes fed in reads
/// of generated sizes through the child's own line buffer, each whole line parsed as the child
/// parses it. The first byte picks the buffer's capacity (tiny ones make dropped lines common;
/// the last is the child's own), the next four seed the read sizes. Checked against a model of
/// the stream: the lines delivered are exactly its newline-terminated lines shorter than the
/// capacity − 1 (up to a NUL byte, as C reads them), whatever the read sizes, up to the first
/// `quit`; a request's text lies inside its line.
public enum UIHostLinesFuzz {
    static let capacities = [2, 3, 8, 64, Int(AUHOST_ATOM_TEXT_MAX_LINE) + 64]

    /// What the buffer delivers, collected by the callback.
    final class Collected {
        var lines: [[UInt8]] = []
        var quit = false
    }

    /// Thread: any (one at a time).
    public static func run(_ data: UnsafeRawBufferPointer) {
        guard data.count >= 5 else { return }
        let capacity = capacities[Int(data[0]) % capacities.count]
        var seed = data.loadUnaligned(fromByteOffset: 1, as: UInt32.self) | 1
        let stream = UnsafeRawBufferPointer(rebasing: data[5...])
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var lines = AUHostUILines(buffer: buffer, capacity: capacity, used: 0, skipping: false)
        let collected = Collected()
        var position = 0
        while position < stream.count && !collected.quit {
            var room = 0
            let tail = auhost_ui_lines_tail(&lines, &room)!
            precondition(room >= 1 && room <= capacity - 1, "room \(room) in a buffer of \(capacity)")
            seed ^= seed << 13
            seed ^= seed >> 17
            seed ^= seed << 5
            let count = min(room, stream.count - position, 1 + Int(seed % 97))
            UnsafeMutableRawPointer(tail).copyMemory(from: stream.baseAddress! + position, byteCount: count)
            position += count
            withExtendedLifetime(collected) {
                auhost_ui_lines_commit(
                    &lines, count,
                    { context, text in
                        let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
                        let line = text!
                        let length = strlen(line)
                        let request = auhost_ui_parse_host_line(line)
                        if let inner = request.text {
                            precondition(
                                inner >= UnsafePointer(line) && inner <= UnsafePointer(line) + length, "a request's text outside its line")
                        }
                        collected.lines.append(Array(UnsafeRawBufferPointer(start: line, count: length)))
                        collected.quit = request.kind == AUHOST_UI_REQUEST_QUIT
                        return !collected.quit
                    }, Unmanaged.passUnretained(collected).toOpaque())
            }
        }
        precondition(collected.lines == expectedLines(stream, capacity: capacity), "the lines delivered differ from the stream's")
    }

    /// The stream's newline-terminated lines of fewer than `capacity` − 1 bytes, each up to its
    /// first NUL, up to the first one that parses as quit.
    static func expectedLines(_ stream: UnsafeRawBufferPointer, capacity: Int) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var start = 0
        for (i, byte) in stream.enumerated() where byte == UInt8(ascii: "\n") {
            defer { start = i + 1 }
            guard i - start < capacity - 1 else { continue }
            let line = Array(stream[start..<i].prefix { $0 != 0 })
            out.append(line)
            let quit = (line + [0]).withUnsafeBufferPointer {
                auhost_ui_parse_host_line(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)).kind
                    == AUHOST_UI_REQUEST_QUIT
            }
            if quit { break }
        }
        return out
    }
}
