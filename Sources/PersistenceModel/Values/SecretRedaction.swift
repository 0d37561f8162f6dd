import Foundation

/// Text with the passwords of store locations in it replaced by `***`, for every message a
/// tool or the library shows: a store's location is a command-line argument or a variable
/// (`postgresql://user:secret@host/db`), and a message that echoes it must not show its
/// password on a terminal, in a log or in a CI transcript.
///
/// Three forms are redacted, wherever they occur in the text:
/// - a URL's password: `scheme://user:secret@host` → `scheme://user:***@host`;
/// - libpq's `key=value` connection strings: `password=secret`, `password = 'a b'`
///   (and `sslpassword=`);
/// - URL query items: `?password=secret`, `&password=secret`.
///
/// Redaction errs toward hiding: a `user:value@` before a host is hidden whatever the scheme.
/// It is applied to messages, never to data a command outputs (an exported value that
/// happens to look like a URL is the user's data and stays as it is).
package enum SecretRedaction {
    /// What stands in for a secret.
    package static let mask = "***"

    /// `text` with every password in it replaced by ``mask``.
    package static func redacting(_ text: String) -> String {
        // Fast path: nothing that could hold a password.
        guard text.contains("@") || text.range(of: "password", options: .caseInsensitive) != nil else {
            return text
        }
        var bytes = Array(text.utf8)
        var spans = urlPasswordSpans(in: bytes) + keywordPasswordSpans(in: bytes)
        guard !spans.isEmpty else { return text }
        // Replaced from the end, so that earlier spans keep their offsets; overlapping spans
        // (a query's `password=` inside a URL already hidden) are merged first.
        spans.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        for span in merged.reversed() { bytes.replaceSubrange(span, with: Array(mask.utf8)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` holds a password that ``redacting(_:)`` would hide.
    package static func holdsSecret(_ text: String) -> Bool { redacting(text) != text }

    // MARK: - Internals

    /// Bytes that end a URL or a value inside a message: white space and quotes.
    private static func endsToken(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
            UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            true
        default: false
        }
    }

    /// The passwords of `scheme://user:password@host` URLs: after each `://`, up to the
    /// last `@` before the end of the URL (or its query), the part after the first `:`.
    private static func urlPasswordSpans(in bytes: [UInt8]) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var index = 0
        while index + 3 <= bytes.count {
            guard bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
                bytes[index + 2] == UInt8(ascii: "/")
            else {
                index += 1
                continue
            }
            let start = index + 3
            var end = start
            var lastAt: Int?
            while end < bytes.count, !endsToken(bytes[end]),
                bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#")
            {
                if bytes[end] == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            if let lastAt, let colon = bytes[start..<lastAt].firstIndex(of: UInt8(ascii: ":")) {
                spans.append((colon + 1)..<lastAt)
            }
            index = max(end, index + 1)
        }
        return spans
    }

    /// The values of `password=` keys (also `sslpassword=`, `PGPASSWORD=`), any case, with
    /// white space allowed around `=`: a quoted value up to its closing quote (`\'` escapes
    /// one), else up to white space, `&` or `#`.
    private static func keywordPasswordSpans(in bytes: [UInt8]) -> [Range<Int>] {
        let keyword = Array("password".utf8)
        var spans: [Range<Int>] = []
        var index = 0
        while index + keyword.count <= bytes.count {
            let matchesKeyword = (0..<keyword.count).allSatisfy { offset in
                let byte = bytes[index + offset]
                // ASCII letters lowercased; other bytes compared as they are.
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
                return lowered == keyword[offset]
            }
            guard matchesKeyword else {
                index += 1
                continue
            }
            var cursor = index + keyword.count
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else {
                index += keyword.count
                continue
            }
            cursor += 1
            while cursor < bytes.count, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") {
                cursor += 1
            }
            let valueStart = cursor
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "'") {
                cursor += 1
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "'") {
                    cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
                }
                cursor = min(cursor + 1, bytes.count)
            } else {
                while cursor < bytes.count, !endsToken(bytes[cursor]),
                    bytes[cursor] != UInt8(ascii: "&"), bytes[cursor] != UInt8(ascii: "#")
                {
                    cursor += 1
                }
            }
            if cursor > valueStart { spans.append(valueStart..<cursor) }
            index = max(cursor, index + keyword.count)
        }
        return spans
    }
}
