import CImagePath
import Glibc

/// Where AUHost's helper programs (`auhost-unit-host`, `auhost-ui-host`, `lv2-sweep-child`) are
/// found, the same way for each: the `environment` variable naming one, else the first executable
/// of: beside the running program (a `swift build` folder, or PREFIX/bin), beside the image this
/// code was loaded from (the Python package ships the library and its helpers in one folder), and
/// `../libexec/auhost/` from that image (`make install` puts them there for PREFIX/lib/libauhost.so).
/// A program that links the installed library finds them wherever the program itself lives.
public enum HelperProgram {
    /// The path to start `name` from; when none is executable, the first candidate, so that the
    /// caller's error names where it was looked for. Thread: any.
    public static func path(named name: String, environment: String) -> String {
        if let path = getenv(environment) { return String(cString: path) }
        let candidates = folders().map { $0 + "/" + name }
        return candidates.first { access($0, X_OK) == 0 } ?? candidates[0]
    }

    private static func folders() -> [String] {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let program = length > 0 ? String(cString: buffer) : ""
        guard let image = auhost_image_path().map({ String(cString: $0) }) else { return [folder(of: program)] }
        var seen = Set<String>()  // the CLI's program is its image: look there once
        return [folder(of: program), folder(of: image), folder(of: image) + "/../libexec/auhost"].filter { seen.insert($0).inserted }
    }

    private static func folder(of path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }
}
