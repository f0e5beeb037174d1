import ArgumentParser

/// `auhost`: list, inspect and run Audio Units on Linux.
@main
struct AUHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auhost",
        abstract: "List, inspect and run Audio Units (built-in, SDK plug-ins, LV2) on Linux.",
        subcommands: [
            ListCommand.self, InfoCommand.self, RenderCommand.self, ValidateCommand.self, ValidateChildCommand.self,
            DemoCommand.self, GraphCommand.self, RunCommand.self, BenchCommand.self, PlayCommand.self, CaptureCommand.self,
            PresetCommand.self,
        ])
}
