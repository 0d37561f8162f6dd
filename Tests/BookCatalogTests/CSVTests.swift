import Foundation
import Testing
@testable import BookCatalog

/// `CSVReader` and `CSVWriter`: RFC 4180 as files from spreadsheets and Goodreads write it.
@Suite struct CSVTests {
    private static func records(_ text: String) throws -> [[String]] {
        try records(Data(text.utf8))
    }

    private static func records(_ data: Data) throws -> [[String]] {
        var reader = CSVReader(data: data)
        var result: [[String]] = []
        while let record = try reader.next() { result.append(record.fields) }
        return result
    }

    @Test func quotedFieldsHoldCommasDoubledQuotesAndLineBreaks() throws {
        let text = "a,\"b, c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x\r\n"
        #expect(try Self.records(text) == [["a", "b, c", "say \"hi\""], ["two\nlines", "", "x"]])
    }

    @Test func lineFeedsAlonePassAndTheLastLineNeedsNoBreak() throws {
        #expect(try Self.records("a,b\nc,d") == [["a", "b"], ["c", "d"]])
        #expect(try Self.records("a,b\n\nc,\n") == [["a", "b"], ["c", ""]])
    }

    @Test func rowsAreNumberedAsASpreadsheetShowsThem() throws {
        var reader = CSVReader(data: Data("h\n\"x\ny\"\n\nz\n".utf8))
        #expect(try reader.next()?.row == 1)
        #expect(try reader.next()?.row == 2)
        #expect(try reader.next()?.row == 4)
        #expect(try reader.next() == nil)
    }

    @Test func aByteOrderMarkIsSkippedAndAQuoteInsideAnUnquotedFieldIsText() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array("Title,ISBN\nSolaris,=\"0156027607\"\n".utf8))
        #expect(try Self.records(data) == [["Title", "ISBN"], ["Solaris", "=\"0156027607\""]])
    }

    @Test func anUnterminatedQuoteIsRefusedNamingItsRowAndField() {
        #expect(throws: CSVReaderError(row: 2, column: 2, kind: .unterminatedQuote)) {
            try Self.records("a,b\nc,\"d\ne,f\n")
        }
    }

    @Test func textAfterAClosingQuoteIsRefused() {
        #expect(throws: CSVReaderError(row: 1, column: 1, kind: .textAfterClosingQuote)) {
            try Self.records("\"a\"b,c\n")
        }
    }

    @Test func bytesThatAreNotUTF8AreRefusedNamingTheField() {
        #expect(throws: CSVReaderError(row: 2, column: 3, kind: .notUTF8)) {
            try Self.records(Data(Array("a,b,c\nd,e,".utf8) + [0xFF, 0xFE] + Array("\n".utf8)))
        }
    }

    @Test func theWriterQuotesOnlyWhatNeedsItAndTheReaderReadsItBack() throws {
        let fields = ["plain", "a, b", "say \"hi\"", "two\nlines", " padded", "", "Cien años"]
        let line = CSVWriter.record(fields)
        #expect(line == "plain,\"a, b\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded\",,Cien años\r\n")
        #expect(try Self.records(line) == [fields])
    }

    /// Random records of the characters CSV treats specially: written and read back, each
    /// is what it was; and random bytes are read or refused, never anything else.
    @Test func randomRecordsRoundTripAndRandomBytesAreReadOrRefused() throws {
        var generator = SplitMix(seed: 24)
        let alphabet: [Character] = [",", "\"", "\n", "\r", " ", "a", "ñ", "=", "'", "@", "-", "\t"]
        for _ in 0..<500 {
            let records = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    String((0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
                }
            }
            // A record of one empty field is an empty line, which readers skip.
            let written = records.filter { $0 != [""] }
            let text = written.map(CSVWriter.record).joined()
            // What the catalogue reads of its own CSV: each field without its neutralising apostrophe.
            let read = try Self.records(text).map { $0.map(CSVWriter.unneutralised) }
            #expect(read == written, "\(text.debugDescription)")
            for field in try Self.records(text).joined() {
                #expect(!["=", "+", "-", "@", "\t", "\r"].contains(field.first.map(String.init) ?? ""), "\(field.debugDescription)")
            }
        }
        let bytes: [UInt8] = [0x2C, 0x22, 0x0A, 0x0D, 0x61, 0xC3, 0xB1, 0xFF]
        for _ in 0..<2_000 {
            let data = Data((0..<Int.random(in: 0...12, using: &generator)).map { _ in bytes.randomElement(using: &generator) ?? 0 })
            do { _ = try Self.records(data) } catch is CSVReaderError {} catch { Issue.record("unexpected \(error)") }
        }
    }
}

/// A seeded generator, so that a failure can be run again.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
