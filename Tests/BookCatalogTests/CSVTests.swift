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
}
