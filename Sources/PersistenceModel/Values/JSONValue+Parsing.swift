import Foundation

extension JSONValue {
    /// Reads one JSON value (RFC 8259) from UTF-8 bytes, strictly: no comments, no trailing
    /// commas, no leading zeros or `+` in numbers, no raw control characters in strings,
    /// nothing after the value but white space. A byte-order mark at the start is skipped.
    ///
    /// Objects keep their members in order, and repeated keys are kept; numbers keep their
    /// text. Nesting deeper than `maximumDepth` is refused rather than risking the stack.
    ///
    /// - Throws: `JSONParseError` with the line and column of the first problem.
    package static func parse(_ data: Data, maximumDepth: Int = 512) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: Array(data), maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }
}

/// JSON text that does not follow the grammar, with where and why.
package struct JSONParseError: Error, Sendable, CustomStringConvertible {
    /// The 1-based line of the problem.
    package var line: Int
    /// The 1-based column (in characters) of the problem.
    package var column: Int
    /// What is wrong ("expected ',' or '}' after an object member").
    package var reason: String

    /// "line 3, column 7: expected ',' or '}' after an object member".
    package var description: String { "line \(line), column \(column): \(reason)" }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var offset = 0
    var depth = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard offset < bytes.count else {
            throw failure("the document is empty: expected a JSON value")
        }
        let value = try parseValue()
        skipWhitespace()
        guard offset == bytes.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard offset < bytes.count else {
            throw failure("unexpected end of the document: expected a value")
        }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default: throw failure("expected a value, found \(found())")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            offset += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw failure("expected a member name in double quotes, found \(found())")
            }
            let key = try parseString()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw failure("expected ':' after the member name \(QuotedText.doubleQuotedExcerpt(key))")
            }
            offset += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                offset += 1
                continue
            }
            guard peek(UInt8(ascii: "}")) else {
                throw failure("expected ',' or '}' after an object member, found \(found())")
            }
            offset += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        offset += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            offset += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                offset += 1
                continue
            }
            guard peek(UInt8(ascii: "]")) else {
                throw failure("expected ',' or ']' after an array element, found \(found())")
            }
            offset += 1
            depth -= 1
            return .array(items)
        }
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maximumDepth {
            throw failure("arrays and objects are nested more than \(maximumDepth) deep")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONParseError)
        -> JSONValue
    {
        let expected = Array(word.utf8)
        guard bytes.count - offset >= expected.count,
            Array(bytes[offset..<offset + expected.count]) == expected
        else {
            throw failure("expected a value, found \(found())")
        }
        offset += expected.count
        return value
    }

    /// Reads a number and returns its text, checking `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = offset
        if peek(UInt8(ascii: "-")) { offset += 1 }
        guard let first = current, isDigit(first) else {
            throw failure("expected a digit in the number")
        }
        offset += 1
        if first == UInt8(ascii: "0"), let next = current, isDigit(next) {
            throw failure("a number must not have leading zeros")
        }
        skipDigits()
        if peek(UInt8(ascii: ".")) {
            offset += 1
            guard let digit = current, isDigit(digit) else {
                throw failure("expected a digit after the decimal point")
            }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            offset += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { offset += 1 }
            guard let digit = current, isDigit(digit) else {
                throw failure("expected a digit in the exponent")
            }
            skipDigits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else {
                throw failure("the string is not closed: expected '\"'")
            }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw failure("the string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                offset += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw failure("a control character must be escaped in a string")
            default:
                utf8.append(byte)
                offset += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
        guard let byte = current else { throw failure("the string is not closed: expected '\"'") }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[byte] {
            offset += 1
            utf8.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw failure("unknown escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
        offset += 1
        var code = try hexQuad()
        if (0xD800..<0xDC00).contains(code) {
            guard peek(UInt8(ascii: "\\")), offset + 1 < bytes.count,
                bytes[offset + 1] == UInt8(ascii: "u")
            else {
                throw failure(
                    "a high surrogate \\u\(String(code, radix: 16, uppercase: true)) must be followed by a low one"
                )
            }
            offset += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else {
                throw failure("expected a low surrogate after a high one")
            }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw failure(
                "a low surrogate \\u\(String(code, radix: 16, uppercase: true)) has no high surrogate before it"
            )
        }
        guard let scalar = Unicode.Scalar(code) else {
            throw failure("\\u escape is not a Unicode scalar")
        }
        utf8.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func hexQuad() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4,
            let value = UInt32(
                String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16),
            bytes[offset..<offset + 4].allSatisfy({
                $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-")
            })
        else { throw failure("expected four hexadecimal digits after \\u") }
        offset += 4
        return value
    }

    // MARK: - Scanning

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func peek(_ byte: UInt8) -> Bool { current == byte }

    private func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { offset += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            offset += 1
        }
    }

    /// What is at the current offset, for messages: a quoted character, or "the end".
    private func found() -> String {
        guard offset < bytes.count else { return "the end of the document" }
        let end = min(bytes.count, offset + 4)
        let character =
            String(decoding: bytes[offset..<end], as: UTF8.self).first.map(String.init) ?? "?"
        return "'\(character)'"
    }

    private func failure(_ reason: String) -> JSONParseError {
        let prefix = bytes[..<min(offset, bytes.count)]
        let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column =
            String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return JSONParseError(line: line, column: column, reason: reason)
    }
}
