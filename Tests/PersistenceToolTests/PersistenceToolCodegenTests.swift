import Foundation
import PersistenceTestSupport
import ProcessTestSupport
import Testing

/// `persistence-tool model codegen`, run as the built binary.
@Suite struct PersistenceToolCodegenTests {
    @Test func writesTheFilesOfTheBooksModelAndNamesThem() throws {
        let model = BuiltProduct.repositoryRoot
            .appendingPathComponent("Sources/BookCatalog/Books.xcdatamodeld")
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("tool-codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try ToolRun(["model", "codegen", model.path, "--output", output.path])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == "Author+Class.swift\nAuthor+Properties.swift\nBook+Properties.swift\n"
                + "ImportedValues+Class.swift\nImportedValues+Properties.swift\n"
                + "Tag+Class.swift\nTag+Properties.swift\nBooks+Model.swift\n")
        let author = try String(
            contentsOf: output.appendingPathComponent("Author+Class.swift"), encoding: .utf8)
        #expect(author.contains("public final class Author: ManagedObject {}"))
        let book = try String(
            contentsOf: output.appendingPathComponent("Book+Properties.swift"), encoding: .utf8)
        #expect(book.contains("extension Book {") && !book.contains("class Book"))
        #expect(book.contains("public var color: Color? {"))
        // The current version, 4: version 2's attributes, the to-many of tags, and version
        // 3's ordered to-many of authors (version 4 adds an entity, ImportedValues).
        #expect(book.contains("public var isbn: String? {") && book.contains("public var tags: Set<Tag> {"))
        #expect(book.contains("public var authors: [Author] {") && book.contains("public var seriesNumber: Decimal? {"))
    }

    @Test func withoutOutputItIsAUsageError() throws {
        let result = try ToolRun(["model", "codegen", "Books.xcdatamodeld"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: Missing expected argument '--output <dir>'. See 'persistence-tool help model codegen'.\n")
    }

    /// A real model whose entities have no Codegen setting (Xcode's Manual/None, as most
    /// models written before Xcode 8 or by hand): the plain command says that it generated no
    /// class; `--all` generates one for each entity.
    @Test func aModelWithoutCodegenSettingsSaysSoAndAllGeneratesEveryClass() throws {
        let model = BuiltProduct.repositoryRoot.appendingPathComponent("Tests/Fixtures/models/CoreDataPlus/SampleModel.xcdatamodeld")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tool-codegen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let plain = try ToolRun(["model", "codegen", model.path, "--output", output.path])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.isEmpty, "\(plain)")
        #expect(plain.stderr.contains("no entity of the model has a Codegen setting") && plain.stderr.contains("--all"), "\(plain)")
        let all = try ToolRun(["model", "codegen", model.path, "--output", output.path, "--all"])
        #expect(all.status == 0 && all.stderr.isEmpty, "\(all)")
        for entity in ["Car", "SportCar", "ExpensiveSportCar", "Person"] {
            #expect(all.stdout.contains("\(entity)+Class.swift\n") && all.stdout.contains("\(entity)+Properties.swift\n"), "\(all)")
        }
        let car = try String(contentsOf: output.appendingPathComponent("Car+Class.swift"), encoding: .utf8)
        #expect(car.contains("public class Car: ManagedObject {}"), "\(car)")
        let sport = try String(contentsOf: output.appendingPathComponent("SportCar+Class.swift"), encoding: .utf8)
        #expect(sport.contains("class SportCar: Car"), "\(sport)")
    }
}
