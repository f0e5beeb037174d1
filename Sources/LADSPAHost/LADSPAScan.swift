import Foundation
import LV2Host

/// Describes LADSPA libraries in a child process, so that a library that crashes in its
/// constructor or descriptor function, hangs, or is no library at all costs the host one warning
/// and nothing else. One child describes many libraries in turn (starting a child per library
/// would cost more than describing them); when it dies on one, that library is skipped and a new
/// child goes on with the rest.
///
/// ```swift
/// let result = LADSPAScan.describe(["/usr/lib/ladspa/cmt.so"])
/// result["/usr/lib/ladspa/cmt.so"]   // .described([...]) or .skipped("why")
/// ```
public enum LADSPAScan {
    public enum Outcome: Equatable, Sendable {
        case described([LADSPAPluginInfo])
        /// The warning to show, naming the library and why it was skipped.
        case skipped(String)
        /// No describing child could run (it is missing, or no process could start): nothing is
        /// known about the library, and the warning says why. Not a verdict to remember.
        case unavailable(String)
    }

    /// The child's argument that selects this mode.
    public static let childFlag = "--ladspa-describe"

    /// Each library's outcome. `timeoutSeconds` bounds each library's description.
    /// Thread: setup (blocks until the children end).
    public static func describe(
        _ libraries: [String], childPath: String = LV2Sweep.defaultChildPath(), timeoutSeconds: UInt32 = 10
    ) -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        var remaining = libraries[...]
        while !remaining.isEmpty {
            let run = runChild(Array(remaining), childPath: childPath, timeout: timeoutSeconds)
            for (library, outcome) in run.finished { outcomes[library] = outcome }
            remaining = remaining.dropFirst(run.finished.count)
            guard let next = remaining.first else { break }
            if let died = run.died {
                // The child died in `next`: skip it alone and go on with a new child.
                outcomes[next] = .skipped("ladspa: skipping \(next): describing it \(died).")
                remaining = remaining.dropFirst()
            } else {
                for library in remaining {
                    let warning = "ladspa: skipping \(library): \(run.startFailure ?? "the describing child stopped without an answer")."
                    outcomes[library] = run.startFailure == nil ? .skipped(warning) : .unavailable(warning)
                }
                break
            }
        }
        return outcomes
    }

    private struct ChildRun {
        var finished: [(String, Outcome)] = []
        /// "crashed (SIGSEGV)" / "timed out after 10 s" when the child died in a library.
        var died: String?
        var startFailure: String?
    }

    /// Runs one child over `libraries` and parses what it printed before it ended.
    private static func runChild(_ libraries: [String], childPath: String, timeout: UInt32) -> ChildRun {
        var run = ChildRun()
        // Plug-ins chatter on stderr while they load; the host reports each failure once itself.
        let child: HelperChild
        switch HelperChild.start([childPath, childFlag, String(timeout)] + libraries, quiet: true) {
        case .success(let started): child = started
        case .failure(let failure):
            run.startFailure = failure.message
            return run
        }
        let (output, exit) = child.finish()
        var current: String?
        var plugins: [LADSPAPluginInfo] = []
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let fields = LADSPADescriptionLines.fields(line)
            switch (fields.first, fields.count) {
            case ("library", 2): current = fields[1]; plugins = []
            case ("done", 1):
                if let library = current { run.finished.append((library, .described(plugins))) }
                current = nil
            case ("failed", 2):
                if let library = current { run.finished.append((library, .skipped("ladspa: skipping \(library): \(fields[1])."))) }
                current = nil
            default:
                if let library = current, !LADSPADescriptionLines.apply(fields, library: library, to: &plugins) {
                    run.finished.append((library, .skipped("ladspa: skipping \(library): its description could not be read back.")))
                    current = nil
                }
            }
        }
        let signal = exit & 0x7f
        if signal == SIGALRM {
            run.died = "timed out after \(timeout) s"
        } else if signal != 0 {
            run.died = "crashed (\(String(cString: strsignal(signal))))"
        } else if (exit >> 8) & 0xff != 0 && run.finished.count < libraries.count {
            run.died = "ended the describing child (exit status \((exit >> 8) & 0xff))"
        }
        return run
    }

    /// The child's side: describes each library in turn, printing "library PATH", its plug-ins'
    /// lines, then "done" (or "failed REASON"), flushing after each so the parent knows how far it
    /// got; an alarm of `timeout` seconds per library ends a hang. Thread: setup (child's main).
    public static func childMain(arguments: [String]) -> Never {
        guard let timeout = arguments.first.flatMap({ UInt32($0) }) else {
            print("failed\tusage: \(childFlag) TIMEOUT LIBRARY...")
            exit(2)
        }
        setvbuf(stdout, nil, _IOFBF, 1 << 16)
        for library in arguments.dropFirst() {
            print(LV2CatalogCacheFile.join(["library", library]))
            fflush(stdout)
            alarm(timeout)
            do {
                let plugins = try LADSPALibrary.open(library).describe()
                for plugin in plugins { print(LADSPADescriptionLines.lines(plugin).joined(separator: "\n")) }
                print("done")
            } catch let error as LADSPAHostError {
                print(LV2CatalogCacheFile.join(["failed", error.message.replacingOccurrences(of: "ladspa: ", with: "")]))
            } catch {
                print(LV2CatalogCacheFile.join(["failed", "\(error)"]))
            }
            alarm(0)
            fflush(stdout)
        }
        exit(0)
    }
}
