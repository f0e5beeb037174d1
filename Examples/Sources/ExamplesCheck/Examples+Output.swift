/// Checks of the output-only pattern 4 and its figure 2-5 form.
let outputExamples: [Example] = [
    Example(name: "output-render-callback") { workspace in
        let output = try workspace.run("output-render-callback", ["example_out", "4096"])
        let rendered = try printedInt(output, "rendered")
        let played = workspace.readFloats("out.raw")
        guard played.count / 2 >= 4096, played.count / 2 <= rendered else {
            throw CheckFailure("the device file holds \(played.count / 2) frames; 4096…\(rendered) expected")
        }
        if let difference = firstDifference(played, from: 0, interleaved(played.count / 2)) { throw CheckFailure(difference) }
        return "playback file = the generated signal, sample-exactly, all \(played.count / 2) frames"
    },
    Example(name: "output-mixer-eq") { workspace in
        let output = try workspace.run("output-mixer-eq", ["example_out", "4096"])
        _ = try printedInt(output, "rendered")
        let played = workspace.readFloats("out.raw")
        guard played.count / 2 >= 4096 else { throw CheckFailure("the device file holds \(played.count / 2) frames, 4096 expected") }
        // Mixer input 0 = source B x 0.5, input 1 = source A through the flat iPod EQ x 0.25.
        let expected = (0..<played.count / 2).flatMap { f in (0..<2).map { c in 0.5 * signal2(f, c) + 0.25 * signal(f, c) } }
        var worst: Float = 0
        for i in expected.indices { worst = max(worst, abs(played[i] - expected[i])) }
        guard worst <= 1e-6 else { throw CheckFailure("the mix differs from 0.5 B + 0.25 A(flat EQ) by up to \(worst)") }
        return
            "playback = 0.5 x source B + 0.25 x source A through the flat iPod EQ within 1e-6 (worst \(worst)), \(played.count / 2) frames"
    },
]
