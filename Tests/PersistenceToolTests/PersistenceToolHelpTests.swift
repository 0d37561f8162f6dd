import Foundation
import PersistenceTestSupport
import Testing

/// persistence-tool's help is the shared renderer's: wrapped at 80 columns at every level,
/// reachable as `--help` and `help <command…>` alike.
@Suite struct PersistenceToolHelpTests {
    @Test func everyHelpFitsIn80ColumnsAndBothSpellingsAgree() throws {
        let paths = [
            [], ["model"], ["model", "dump"], ["model", "validate"], ["model", "codegen"],
            ["store"], ["store", "create"], ["store", "import"], ["store", "export"],
            ["store", "delete"], ["store", "check"], ["store", "migrate"],
        ]
        for path in paths {
            let asked = try ToolRun(path + ["--help"])
            #expect(asked.status == 0 && asked.stderr == "", "\(path)")
            for line in asked.stdout.split(separator: "\n") {
                #expect(line.count <= 80, "\(path): \(line)")
            }
            #expect(asked.stdout.contains("USAGE: persistence-tool \(path.joined(separator: " "))"))
            let viaHelp = try ToolRun(["help"] + path)
            #expect(viaHelp.stdout == asked.stdout, "\(path)")
        }
        let dump = try ToolRun(["help", "model", "dump"]).stdout
        #expect(dump.contains("USAGE: persistence-tool model dump <path> [--json] [--version <name>]\n"))
        // A discussion is reflowed to the width, not kept in its source lines.
        let export = try ToolRun(["help", "store", "export"]).stdout
        let discussion = export.components(separatedBy: "\n\n")[1].split(separator: "\n")
        #expect(discussion.count > 3)
        for line in discussion.dropLast() { #expect(line.count > 70, "\(line)") }
        let store = try ToolRun(["store"]).stdout
        #expect(store.contains("\n  See 'persistence-tool help store <subcommand>' for detailed help.\n"))
    }
}
