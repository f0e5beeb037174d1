/// Checks of AUHost's own extensions as C uses them: a unit out of process, a graph on two threads.
let extensionExamples: [Example] = [
    Example(name: "isolated-parallel") { workspace in
        let values = printedValues(try workspace.run("isolated-parallel", []))
        func value(_ name: String) throws -> String {
            guard let v = values[name] else { throw CheckFailure("the example printed no \(name)") }
            return v
        }
        guard try value("out-of-process") == "1", try value("child-is-another-process") == "1" else {
            throw CheckFailure("the delay did not live in a child process")
        }
        guard try value("isolated-difference") == "0" else {
            throw CheckFailure("out of process the delay differs by up to \(try value("isolated-difference"))")
        }
        guard let peak = Double(try value("parallel-peak")), peak > 0.1 else { throw CheckFailure("the graph rendered silence") }
        guard try value("parallel-difference") == "0" else {
            throw CheckFailure("on two threads the graph differs by up to \(try value("parallel-difference"))")
        }
        return "delay out of process = in process for \(try value("isolated-frames")) frames; fan-out graph on 2 threads = serial"
    }
]
