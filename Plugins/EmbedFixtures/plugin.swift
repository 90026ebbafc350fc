import Foundation
import PackagePlugin

/// Builds the fixtures in `examples/fixtures/*.memo` into the target as Swift source, so
/// the files stay the one source of truth and the fixtures work from any folder.
@main
struct EmbedFixtures: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "examples/fixtures")
        let fixtures = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "memo" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "BuiltInFixtures.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(fixtures.count) fixtures",
                executable: try context.tool(named: "fixture-embedder").url,
                arguments: [output.path] + fixtures.map(\.path),
                inputFiles: fixtures,
                outputFiles: [output]
            ),
        ]
    }
}
