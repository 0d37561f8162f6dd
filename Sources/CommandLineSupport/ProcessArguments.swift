import Foundation
import PersistenceModel

/// A tool's command-line arguments, read as the bytes the process was given.
///
/// Swift's `CommandLine.arguments` decodes each argument as UTF-8 and silently replaces
/// bytes that are not UTF-8 with U+FFFD, so `books add --title $'caf\xE9'` would store
/// "caf�" as if the user had typed it. A tool reads its arguments here instead and refuses
/// an argument that is not UTF-8 (exit 65, naming it) before doing anything.
package enum ProcessArguments {
    /// The arguments after the program name, decoded; or the first that is not UTF-8.
    package static func decoded() -> Result<[String], InvalidArgumentEncodingError> {
        let count = Int(CommandLine.argc)
        var raw: [[UInt8]] = []
        raw.reserveCapacity(max(count - 1, 0))
        for index in 1..<max(count, 1) {
            guard let pointer = CommandLine.unsafeArgv[index] else { break }
            raw.append(Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map { UInt8(bitPattern: $0) })
        }
        return decode(raw)
    }

    /// `raw` (the arguments after the program name) decoded as UTF-8, or the first that is
    /// not valid UTF-8.
    package static func decode(_ raw: [[UInt8]]) -> Result<[String], InvalidArgumentEncodingError> {
        var arguments: [String] = []
        arguments.reserveCapacity(raw.count)
        for (index, bytes) in raw.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return .failure(
                    InvalidArgumentEncodingError(
                        position: index + 1, bytes: bytes, previous: index > 0 ? arguments[index - 1] : nil))
            }
            arguments.append(text)
        }
        return .success(arguments)
    }
}

/// An argument whose bytes are not valid UTF-8.
package struct InvalidArgumentEncodingError: Error, Sendable, CustomStringConvertible {
    /// Its position after the program name, from 1.
    package var position: Int
    /// Its bytes.
    package var bytes: [UInt8]
    /// The argument before it, which often names it (`--title`).
    package var previous: String?

    /// "argument 3 'caf\xE9' (after '--title') is not valid UTF-8": the valid part as text,
    /// each byte that is not UTF-8 as `\xE9`, cut short as error messages quote input.
    package var description: String {
        var after = ""
        if let previous, previous.hasPrefix("-") { after = " (after '\(QuotedText.excerpt(previous))')" }
        return "argument \(position) '\(Self.shown(bytes))'\(after) is not valid UTF-8"
    }

    /// The bytes with every valid character as itself (controls escaped) and every byte
    /// that is not UTF-8 as `\xHH`, at most ``QuotedText/excerptLength`` characters.
    static func shown(_ bytes: [UInt8]) -> String {
        var result = ""
        var index = 0
        var shownCharacters = 0
        while index < bytes.count && shownCharacters < QuotedText.excerptLength {
            let length = sequenceLength(leadingByte: bytes[index])
            if index + length <= bytes.count,
                let character = String(validating: bytes[index..<index + length], as: UTF8.self)
            {
                result += QuotedText.forMessage(character)
                index += length
            } else {
                result += "\\x" + (bytes[index] < 0x10 ? "0" : "") + String(bytes[index], radix: 16, uppercase: true)
                index += 1
            }
            shownCharacters += 1
        }
        return index < bytes.count ? result + "…" : result
    }

    /// The length of the UTF-8 sequence a byte starts, by its high bits (1 for a byte that
    /// starts none, so that it is shown alone).
    private static func sequenceLength(leadingByte byte: UInt8) -> Int {
        switch byte {
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 1
        }
    }
}
