import ArgumentParser
import CAUHostFloatMode
import JACKIOUnit

/// `auhost`: list, inspect and run Audio Units on Linux.
@main
struct AUHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auhost",
        abstract: "List, inspect and run Audio Units (built-in, SDK plug-ins, LV2) on Linux.",
        subcommands: [
            ListCommand.self, InfoCommand.self, RenderCommand.self, ValidateCommand.self, ValidateChildCommand.self,
            DemoCommand.self, GraphCommand.self, RunCommand.self, BenchCommand.self, PlayCommand.self, CaptureCommand.self,
            PresetCommand.self, UICommand.self,
        ])

    /// auhost renders as audio hosts do: subnormals flushed to zero on its threads (those it
    /// starts inherit the mode), as JUCE's ScopedNoDenormals and Ardour do, so that decaying tails
    /// cost no more than sound. Programs that merely load AUHost keep IEEE arithmetic (FloatMode.c).
    static func main() {
        auhost_float_mode_flush_subnormals()
        JACKProvider.installOnce()
        main(nil)
    }
}
