import Foundation
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
                + "Tag+Class.swift\nTag+Properties.swift\nBooks+Model.swift\n")
        let author = try String(
            contentsOf: output.appendingPathComponent("Author+Class.swift"), encoding: .utf8)
        #expect(author.contains("public final class Author: ManagedObject {}"))
        let book = try String(
            contentsOf: output.appendingPathComponent("Book+Properties.swift"), encoding: .utf8)
        #expect(book.contains("extension Book {") && !book.contains("class Book"))
        #expect(book.contains("public var color: Color? {"))
        // The current version, 2: its new attributes and the to-many of tags.
        #expect(book.contains("public var isbn: String? {") && book.contains("public var tags: Set<Tag> {"))
    }

    @Test func withoutOutputItIsAUsageError() throws {
        let result = try ToolRun(["model", "codegen", "Books.xcdatamodeld"])
        #expect(result.status == 64)
        #expect(result.stderr == "Error: Missing expected argument '--output <dir>'. See 'persistence-tool help model codegen'.\n")
    }
}
