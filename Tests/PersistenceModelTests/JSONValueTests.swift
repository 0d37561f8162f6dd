import Foundation
import Testing

import Persistence

/// The strict JSON reader and pretty writer that archives and `persistence-tool` share.
@Suite struct JSONValueTests {
    @Test func membersKeepTheirOrderAndNumbersTheirText() throws {
        let text =
            #"{"z": 1, "a": [true, false, null], "m": -0.0, "big": 123456789012345678901234567890, "e": 1E-7}"#
        let value = try JSONValue.parse(Data(text.utf8))
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members.map(\.0) == ["z", "a", "m", "big", "e"])
        guard case .number(let big) = members[3].1, case .number(let e) = members[4].1 else {
            Issue.record("numbers lost")
            return
        }
        #expect(big == "123456789012345678901234567890" && e == "1E-7")
        #expect(
            value.rendered()
                == "{\n  \"z\": 1,\n  \"a\": [\n    true,\n    false,\n    null\n  ],\n  \"m\": -0.0,\n"
                + "  \"big\": 123456789012345678901234567890,\n  \"e\": 1E-7\n}")
    }

    @Test func stringEscapesAreDecodedAndWrittenBack() throws {
        let text = #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u0142", "\ud83c\udf89", "Łódź 🎉"]"#
        let value = try JSONValue.parse(Data(text.utf8))
        guard case .array(let items) = value else {
            Issue.record("not an array")
            return
        }
        let strings = items.compactMap { item -> String? in
            if case .string(let s) = item { return s }
            return nil
        }
        #expect(strings == ["a\"b\\c/d\u{8}\u{C}\n\r\t", "éł", "🎉", "Łódź 🎉"])
        let reparsed = try JSONValue.parse(Data(value.rendered().utf8))
        #expect(reparsed.rendered() == value.rendered())
    }

    @Test(arguments: [
        ("", "line 1, column 1: the document is empty: expected a JSON value"),
        ("{\"a\": 1,}", "line 1, column 9: expected a member name in double quotes, found '}'"),
        ("[1,\n 2,\n ]", "line 3, column 2: expected a value, found ']'"),
        ("[01]", "line 1, column 3: a number must not have leading zeros"),
        ("[1.]", "line 1, column 4: expected a digit after the decimal point"),
        ("[+1]", "line 1, column 2: expected a value, found '+'"),
        ("[\"abc]", "line 1, column 7: the string is not closed: expected '\"'"),
        ("[\"a\tb\"]", "line 1, column 4: a control character must be escaped in a string"),
        ("[\"\\x\"]", "line 1, column 4: unknown escape '\\x' in a string"),
        (
            "[\"\\ud800\"]",
            "line 1, column 9: a high surrogate \\uD800 must be followed by a low one"
        ),
        ("{\"a\" 1}", "line 1, column 6: expected ':' after the member name \"a\""),
        ("[1] [2]", "line 1, column 5: unexpected text after the JSON value"),
        ("[tru]", "line 1, column 2: expected a value, found 't'"),
        (
            "{\"a\": 1 \"b\": 2}",
            "line 1, column 9: expected ',' or '}' after an object member, found '\"'"
        ),
    ])
    func malformedTextIsRefusedWithLineAndColumn(_ text: String, _ message: String) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(text.utf8)) }
        do {
            _ = try JSONValue.parse(Data(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func deepNestingIsRefusedNotCrashed() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValue.parse(Data(fine.utf8)) }
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array("[\"".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("\"]".utf8)
        #expect(throws: JSONParseError.self) { try JSONValue.parse(Data(bytes)) }
    }
}
