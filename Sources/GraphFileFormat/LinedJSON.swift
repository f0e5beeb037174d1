import Foundation

/// A JSON value that remembers the line it starts on, so a graph file's mistakes can be reported
/// by line. JSONSerialization reports only a character offset and turns `true` into a number;
/// this parser is small (RFC 8259 values, no extensions) and keeps both straight.
struct LinedJSON {
    struct Member {
        var key: String
        var line: Int
        var value: LinedJSON
    }

    enum Kind {
        case object([Member])
        case array([LinedJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    var line: Int
    var kind: Kind

    /// What the value is, for messages: "an object", "a number", …
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    /// What a graph file may hold, checked while reading so that no input sizes a recursion or an
    /// allocation beyond them (docs/RELIABILITY.md).
    enum Limits {
        /// Bytes in a graph file (a large graph is a few kilobytes).
        static let maximumBytes = 1 << 20
        /// Objects and arrays inside each other: a graph file needs 4; each level is a stack frame.
        static let maximumDepth = 64
        /// Bytes in one string (keys, unit names, URIs, paths: PATH_MAX).
        static let maximumStringBytes = 4096
        /// Nodes and connections in one graph.
        static let maximumNodes = 1024
        static let maximumConnections = 4096
    }

    /// Parses `text`; a syntax error names its line and what was expected.
    ///
    /// Thread: any.
    static func parse(_ text: String) throws -> LinedJSON {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        if parser.index < parser.bytes.count { throw parser.failure("unexpected text after the end of the document") }
        return value
    }

    /// A parse failure: the line and the reason.
    struct SyntaxError: Error {
        var line: Int
        var reason: String
    }

    private struct Parser {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var depth = 0

        func failure(_ reason: String) -> SyntaxError { SyntaxError(line: line, reason: reason) }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let c = current, c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                if c == 0x0A { line += 1 }
                index += 1
            }
        }

        mutating func expect(_ c: UInt8, _ what: String) throws {
            skipSpace()
            guard current == c else { throw failure("expected \(what) but found \(found)") }
            index += 1
        }

        var found: String {
            guard let c = current else { return "the end of the file" }
            return "\"\(String(decoding: [c], as: UTF8.self))\""
        }

        mutating func value() throws -> LinedJSON {
            skipSpace()
            let start = line
            guard let c = current else { throw failure("expected a value but the file ended") }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
                guard depth < Limits.maximumDepth else {
                    throw failure("objects and arrays are nested more than \(Limits.maximumDepth) deep")
                }
                depth += 1
            }
            defer { if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth -= 1 } }
            switch c {
            case UInt8(ascii: "{"): return LinedJSON(line: start, kind: .object(try object()))
            case UInt8(ascii: "["): return LinedJSON(line: start, kind: .array(try array()))
            case UInt8(ascii: "\""): return LinedJSON(line: start, kind: .string(try string()))
            case UInt8(ascii: "t"): try word("true"); return LinedJSON(line: start, kind: .bool(true))
            case UInt8(ascii: "f"): try word("false"); return LinedJSON(line: start, kind: .bool(false))
            case UInt8(ascii: "n"): try word("null"); return LinedJSON(line: start, kind: .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return LinedJSON(line: start, kind: .number(try number()))
            default: throw failure("expected a value but found \(found)")
            }
        }

        mutating func word(_ w: String) throws {
            let expected = Array(w.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("expected a value but found \(found) (strings need double quotes)")
            }
            index += expected.count
        }

        mutating func object() throws -> [Member] {
            index += 1
            var members: [Member] = []
            skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return members }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a key in double quotes but found \(found)") }
                let keyLine = line
                let key = try string()
                try expect(UInt8(ascii: ":"), "\":\" after \"\(GraphFile.shown(key))\"")
                members.append(Member(key: key, line: keyLine, value: try value()))
                skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                if current == UInt8(ascii: "}") { index += 1; return members }
                throw failure("expected \",\" or \"}\" after the value of \"\(GraphFile.shown(key))\" but found \(found)")
            }
        }

        mutating func array() throws -> [LinedJSON] {
            index += 1
            var items: [LinedJSON] = []
            skipSpace()
            if current == UInt8(ascii: "]") { index += 1; return items }
            while true {
                items.append(try value())
                skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                if current == UInt8(ascii: "]") { index += 1; return items }
                throw failure("expected \",\" or \"]\" after an array item but found \(found)")
            }
        }

        mutating func string() throws -> String {
            index += 1
            var out: [UInt8] = []
            while let c = current {
                index += 1
                guard out.count <= Limits.maximumStringBytes else {
                    throw failure("a string is longer than \(Limits.maximumStringBytes) bytes")
                }
                switch c {
                case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
                case 0x0A: throw failure("a string runs past the end of its line (missing closing quote)")
                case UInt8(ascii: "\\"):
                    guard let e = current else { break }
                    index += 1
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count,
                            let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                            let scalar = Unicode.Scalar(code)
                        else { throw failure("a \\u escape needs four hex digits") }
                        out.append(contentsOf: Array(String(Character(scalar)).utf8))
                        index += 4
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                    default: throw failure("\"\\\(String(decoding: [e], as: UTF8.self))\" is not a JSON escape")
                    }
                default: out.append(c)
                }
            }
            throw failure("a string is not closed before the end of the file")
        }

        mutating func number() throws -> Double {
            let start = index
            while let c = current,
                c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "e")
                    || c == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
            { index += 1 }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            guard let n = Double(text), n.isFinite else { throw failure("\"\(GraphFile.shown(text))\" is not a number") }
            return n
        }
    }
}
