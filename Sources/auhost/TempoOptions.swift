import ArgumentParser
import GraphFileFormat

/// `--tempo BPM [--meter N/D]`: the transport units learn through their host callbacks (LV2
/// plug-ins as time:Position), for `render`, `run` and `play`; a graph file's "tempo" and "meter"
/// give the same, and these options override them.
struct TempoOptions: ParsableArguments {
    @Option(
        help:
            "A tempo in BPM (more than 0, at most 1000): units learn beat, tempo and bar from it (tempo-synced delays, LFOs, LV2 time:Position)."
    )
    var tempo: Double?

    @Option(help: "The meter with --tempo, as 3/4: 1…64 beats of a 1, 2, 4, 8, 16 or 32 note (default 4/4).")
    var meter: String?

    func validate() throws {
        if let tempo, !(tempo > 0 && tempo <= 1_000) {
            throw ValidationError("--tempo must be more than 0 and at most 1000 BPM, not \(tempo).")
        }
        if let meter, GraphFile.Meter(meter) == nil {
            throw ValidationError("--meter is N/D: 1…64 beats of a 1, 2, 4, 8, 16 or 32 note, as 3/4; not \(meter).")
        }
        if meter != nil && tempo == nil { throw ValidationError("--meter goes with a --tempo.") }
    }

    /// The tempo and meter asked for, nil without --tempo.
    var setting: (beatsPerMinute: Double, meter: GraphFile.Meter)? {
        tempo.map { ($0, meter.flatMap(GraphFile.Meter.init) ?? GraphFile.Meter(beatsPerBar: 4, beatUnit: 4)) }
    }

    /// Puts the options into a graph file's transport (overriding its own).
    func apply(to file: inout GraphFile) {
        guard let (bpm, meter) = setting else { return }
        file.tempo = bpm
        file.meter = meter
    }
}
