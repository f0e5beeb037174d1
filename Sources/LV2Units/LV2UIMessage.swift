/// One line an `auhost-ui-host` child sent (ui_host_child.h), read but not applied: the host's
/// only reading of the child's words, apart from applying them, so that a fuzzer (UIMessagesFuzz)
/// can feed it anything a broken or hostile child could send without a child or a display.
/// Thread: any.
public enum LV2UIMessage: Equatable, Sendable {
    /// `p PORT VALUE`: the UI wrote a control port (the unit decides whether the value is allowed).
    case value(port: UInt32, value: Float)
    /// `t PORT 1|0`: the UI began (1) or ended (anything else) a gesture on a port.
    case gesture(port: UInt32, begin: Bool)
    /// `a PORT ATOM`: an atom the UI wrote, its port and its Turtle text still unread.
    case atom(port: Substring, text: Substring)
    /// An `a ` line without a port or an atom: refused and counted.
    case malformedAtom
    case ready
    /// `window ID`: the UI's X11 window (0 when unreadable).
    case window(UInt64)
    /// `error KIND TEXT`: the UI could not open.
    case error(kind: String, text: String)
    case closed
    /// `shot ok` / `shot failed`: the answer to a screenshot request.
    case shot(ok: Bool)
    /// `r KEY [TYPE]`: the UI asks the host for a value of the patch parameter KEY (a URI), of
    /// type TYPE (a URI; none when the UI leaves it to the parameter's range): ui:requestValue.
    case requestValue(key: String, type: String)
    /// Anything else: ignored (a newer child's line, or garbage).
    case other

    /// Reads `line` (one line, without its line break). Thread: any.
    public init(line: String) {
        if line.hasPrefix("a ") {
            // The atom's text holds spaces of its own.
            let parts = line.split(separator: " ", maxSplits: 2)
            self = parts.count == 3 ? .atom(port: parts[1], text: parts[2]) : .malformedAtom
            return
        }
        if line == "shot ok" || line == "shot failed" {
            self = .shot(ok: line == "shot ok")
            return
        }
        let words = line.split(separator: " ")
        switch words.first {
        case "p" where words.count == 3:
            guard let port = UInt32(words[1]), let value = Float(words[2]) else { self = .other; return }
            self = .value(port: port, value: value)
        case "t" where words.count == 3:
            guard let port = UInt32(words[1]) else { self = .other; return }
            self = .gesture(port: port, begin: words[2] == "1")
        case "r" where words.count == 2 || words.count == 3:
            self = .requestValue(key: String(words[1]), type: words.count == 3 ? String(words[2]) : "")
        case "closed": self = .closed
        case "ready": self = .ready
        case "window": self = .window(words.count > 1 ? UInt64(words[1]) ?? 0 : 0)
        case "error":
            // The text is the rest of the line after the kind, spaces and all.
            let parts = line.split(separator: " ", maxSplits: 2).map(String.init)
            self = .error(kind: parts.count > 1 ? parts[1] : "", text: parts.count > 2 ? parts[2] : line)
        default: self = .other
        }
    }
}
