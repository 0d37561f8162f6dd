import Foundation

/// Reads a JSON document whose top level is an array, one element at a time, from a source
/// of bytes through a fixed-size buffer: memory holds one element, never the document.
///
/// Each element is parsed strictly by ``JSONValue/parse(_:maximumDepth:)``; between them
/// the reader tracks only strings, escapes and nesting, to find where an element ends. The
/// text may be split across reads anywhere (inside a UTF-8 sequence, an escape or white
/// space): the reader carries what it has seen, byte by byte.
///
/// ```swift
/// var reader = JSONArrayReader(read: { buffer in try handle.read(into: buffer) })
/// while let element = try reader.next() { … element.value … }
/// ```
package struct JSONArrayReader {
    /// Fills the buffer it is given from the start and returns how many bytes it wrote; 0 at
    /// the end of the input.
    package typealias Source = (UnsafeMutableRawBufferPointer) throws -> Int

    /// One element of the array, with where it starts in the document.
    package struct Element {
        /// The element, parsed.
        package var value: JSONValue
        /// Its 1-based position in the array.
        package var index: Int
        /// The 1-based line of its first character.
        package var line: Int
        /// The 1-based column (in characters) of its first character.
        package var column: Int
    }

    /// Elements larger than this many bytes of JSON text are refused, so that one huge
    /// element cannot take the memory the buffer bound saves.
    package let maximumElementSize: Int
    /// Nesting deeper than this inside an element is refused.
    package let maximumDepth: Int

    private let read: Source
    private var buffer: [UInt8]
    private var bufferEnd = 0
    private var position = 0
    private var atEnd = false
    private var state = State.start
    private var line = 1
    private var column = 1
    private var elementCount = 0
    private var element: [UInt8] = []

    private enum State { case start, beforeElement, afterElement, finished }

    /// Creates a reader over `read`.
    ///
    /// - Parameters:
    ///   - bufferSize: bytes read at a time (at least 1; tests use tiny ones to split the
    ///     text everywhere).
    ///   - maximumElementSize: the largest element accepted, in bytes.
    ///   - maximumDepth: the deepest nesting accepted inside an element.
    package init(
        bufferSize: Int = 64 * 1024, maximumElementSize: Int = 1 << 20, maximumDepth: Int = 64,
        read: @escaping Source
    ) {
        self.read = read
        self.buffer = [UInt8](repeating: 0, count: max(1, bufferSize))
        self.maximumElementSize = maximumElementSize
        self.maximumDepth = maximumDepth
    }

    /// The next element, or nil once the closing `]` has been read (and nothing but white
    /// space follows it).
    ///
    /// - Throws: ``JSONArrayReaderError`` for a document that is not an array, is
    ///   malformed, ends early or has an element too large or too deep; the source's error.
    package mutating func next() throws -> Element? {
        while true {
            switch state {
            case .finished:
                return nil
            case .start:
                guard let byte = try skipWhitespace() else { throw failure(.truncated) }
                if line == 1, column == 1, byte == 0xEF {  // a UTF-8 byte-order mark
                    try expectBOM()
                    continue
                }
                guard byte == UInt8(ascii: "[") else { throw failure(.notAnArray) }
                advance(byte)
                state = .beforeElement
            case .beforeElement:
                guard let byte = try skipWhitespace() else { throw failure(.truncated) }
                if byte == UInt8(ascii: "]") {
                    guard elementCount == 0 else { throw failure(.malformed("expected a value after ','")) }
                    advance(byte)
                    try finish()
                    return nil
                }
                return try readElement()
            case .afterElement:
                guard let byte = try skipWhitespace() else { throw failure(.truncated) }
                advance(byte)
                if byte == UInt8(ascii: "]") {
                    try finish()
                    return nil
                }
                state = .beforeElement
            }
        }
    }

    // MARK: - Elements

    /// Collects one element's text up to the `,` or `]` that ends it, and parses it.
    private mutating func readElement() throws -> Element {
        let startLine = line, startColumn = column
        element.removeAll(keepingCapacity: true)
        var depth = 0
        var inString = false
        var escaped = false
        while true {
            guard let byte = try peek() else { throw failure(.truncated) }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    if depth > maximumDepth {
                        throw failure(.malformed("the value is nested more than \(maximumDepth) levels deep"))
                    }
                case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","):
                    if depth > 0 {
                        if byte != UInt8(ascii: ",") { depth -= 1 }
                    } else if byte != UInt8(ascii: "}") {
                        // At depth 0 a `,` or `]` ends the element (a `]` also closes the
                        // array; it is left for `next()`). A stray `}` stays in the text,
                        // for the parser to report.
                        if element.isEmpty { throw failure(.malformed("expected a value, found ','")) }
                        elementCount += 1
                        state = .afterElement
                        return try parsedElement(line: startLine, column: startColumn)
                    }
                default:
                    break
                }
            }
            guard element.count < maximumElementSize else {
                throw JSONArrayReaderError(
                    line: startLine, column: startColumn, kind: .elementTooLarge(index: elementCount + 1, limit: maximumElementSize))
            }
            element.append(byte)
            advance(byte)
        }
    }

    /// Parses the collected text; a problem is reported at its place in the document.
    private mutating func parsedElement(line startLine: Int, column startColumn: Int) throws -> Element {
        do {
            let value = try JSONValue.parse(Data(element), maximumDepth: maximumDepth)
            return Element(value: value, index: elementCount, line: startLine, column: startColumn)
        } catch {
            let line = startLine + error.line - 1
            let column = error.line == 1 ? startColumn + error.column - 1 : error.column
            throw JSONArrayReaderError(line: line, column: column, kind: .malformed(error.reason))
        }
    }

    // MARK: - Bytes

    /// After the closing `]`: only white space may follow.
    private mutating func finish() throws {
        state = .finished
        if try skipWhitespace() != nil {
            throw failure(.malformed("unexpected text after the closing ']'"))
        }
    }

    private mutating func expectBOM() throws {
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard try peek() == expected else { throw failure(.notAnArray) }
            position += 1  // not a character: the column stays 1
        }
    }

    /// Skips white space and returns the next byte without consuming it; nil at the end.
    private mutating func skipWhitespace() throws -> UInt8? {
        while let byte = try peek() {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: advance(byte)
            default: return byte
            }
        }
        return nil
    }

    /// The next byte without consuming it, reading more when the buffer is used up.
    private mutating func peek() throws -> UInt8? {
        if position == bufferEnd {
            if atEnd { return nil }
            bufferEnd = try buffer.withUnsafeMutableBytes { try read($0) }
            position = 0
            if bufferEnd == 0 {
                atEnd = true
                return nil
            }
        }
        return buffer[position]
    }

    /// Consumes `byte` (the one `peek` returned), keeping the line and column.
    private mutating func advance(_ byte: UInt8) {
        position += 1
        if byte == 0x0A {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {  // not a UTF-8 continuation byte: a new character
            column += 1
        }
    }

    private func failure(_ kind: JSONArrayReaderError.Kind) -> JSONArrayReaderError {
        JSONArrayReaderError(line: line, column: column, kind: kind)
    }
}

/// A document ``JSONArrayReader`` refuses, with where.
package struct JSONArrayReaderError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package enum Kind: Sendable, Equatable {
        /// The document is not an array (it is an object, a string, or not JSON).
        case notAnArray
        /// The document ends before its closing `]`.
        case truncated
        /// The text breaks JSON's grammar, for this reason.
        case malformed(String)
        /// Element `index` is larger than `limit` bytes.
        case elementTooLarge(index: Int, limit: Int)
    }

    /// The 1-based line of the problem (for a too-large element, of its start).
    package var line: Int
    /// The 1-based column, in characters.
    package var column: Int
    /// What is wrong.
    package var kind: Kind

    /// "line 3, column 7: expected ',' or '}' after an object member".
    package var description: String {
        let place = "line \(line), column \(column)"
        switch kind {
        case .notAnArray: return "\(place): expected a JSON array"
        case .truncated: return "\(place): the text ends unexpectedly"
        case .malformed(let reason): return "\(place): \(reason)"
        case .elementTooLarge(let index, let limit): return "\(place): element \(index) is larger than \(limit) bytes"
        }
    }
}
