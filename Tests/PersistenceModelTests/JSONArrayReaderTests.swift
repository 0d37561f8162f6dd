import Foundation
import Testing
import Persistence

/// `JSONArrayReader` reads a top-level array element by element through a bounded buffer,
/// whatever the buffer size: the text may be split anywhere, even inside a UTF-8 sequence
/// or an escape.
@Suite struct JSONArrayReaderTests {
    /// Every element of `text`, read `bufferSize` bytes at a time.
    private func elements(_ text: String, bufferSize: Int) throws -> [JSONArrayReader.Element] {
        let bytes = Array(text.utf8)
        var offset = 0
        var reader = JSONArrayReader(bufferSize: bufferSize, maximumElementSize: 4_096) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
        var result: [JSONArrayReader.Element] = []
        while let element = try reader.next() { result.append(element) }
        return result
    }

    private func failure(_ text: String, bufferSize: Int = 3) -> JSONArrayReaderError? {
        do {
            _ = try elements(text, bufferSize: bufferSize)
            return nil
        } catch {
            return error as? JSONArrayReaderError
        }
    }

    static let document = "\u{FEFF}  [\r\n\t{\"t\": \"Łódź, \\\"x\\\" ]}[{\", \"n\": [1, {\"a\": null}], \"e\": \"\\u00e9\\\\\"} ,\n"
        + "  \"Dvořák 🎻\",  -1.5e3 , [] , {}, true\n]\n \t"

    @Test(arguments: [1, 2, 3, 5, 7, 64, 65_536])
    func everySplitOfTheTextReadsTheSameElements(bufferSize: Int) throws {
        let read = try elements(Self.document, bufferSize: bufferSize)
        #expect(read.count == 6)
        #expect(read.map(\.index) == [1, 2, 3, 4, 5, 6])
        guard case .object(let members) = read[0].value else {
            Issue.record("not an object: \(read[0].value)")
            return
        }
        #expect(members.map(\.0) == ["t", "n", "e"])
        if case .string(let title) = members[0].1 { #expect(title == "Łódź, \"x\" ]}[{") }
        if case .string(let escaped) = members[2].1 { #expect(escaped == "é\\") }
        if case .string(let name) = read[1].value { #expect(name == "Dvořák 🎻") }
        #expect(read[1].line == 3 && read[1].column == 3)
        #expect(read[0].line == 2 && read[0].column == 2)
        if case .number(let number) = read[2].value { #expect(number == "-1.5e3") }
    }

    @Test func anEmptyArrayHasNoElements() throws {
        #expect(try elements(" [ ] ", bufferSize: 1).isEmpty)
        #expect(try elements("[]", bufferSize: 2).isEmpty)
    }

    @Test func malformedDocumentsAreRefusedWithWhere() {
        #expect(failure("")?.kind == .truncated)
        #expect(failure("   \n ")?.kind == .truncated)
        #expect(failure("{\"a\": 1}")?.kind == .notAnArray)
        #expect(failure("nope")?.kind == .notAnArray)
        #expect(failure("[{\"a\": 1},")?.kind == .truncated)
        let truncated = failure("[{\"a\":\n \"Kra")
        #expect(truncated?.kind == .truncated && truncated?.line == 2 && truncated?.column == 6)
        #expect(failure("[1,]")?.kind == .malformed("expected a value after ','"))
        #expect(failure("[,1]")?.kind == .malformed("expected a value, found ','"))
        #expect(failure("[1] x")?.kind == .malformed("unexpected text after the closing ']'"))
        let bad = failure("[1,\n  {\"a\": nope}]")
        #expect(bad?.line == 2 && bad?.column == 9, "\(String(describing: bad))")
        #expect(failure("[{\"a\": 1}}]") != nil)
        #expect(failure("[1 2]") != nil)
        #expect(failure("[\"a\nb\"]") != nil, "a raw newline in a string")
    }

    @Test func deepAndLargeElementsAreRefusedBeforeTheyCostMemory() {
        let deep = failure("[" + String(repeating: "[", count: 100_000))
        #expect(deep?.kind == .malformed("the value is nested more than 64 levels deep"))
        let large = failure("[1, \"" + String(repeating: "x", count: 10_000) + "\"]", bufferSize: 512)
        #expect(large?.kind == .elementTooLarge(index: 2, limit: 4_096))
    }
}
