import Foundation
import Persistence

/// A book's color: the custom class of the transformable `color` attribute, as in Core
/// Data's "Handling Different Data Types" sample (which stores a `UIColor`). A
/// `TransformableValue`, so that `book.setValue(color, forKey: "color")` takes it too.
public struct Color: TransformableValue, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Alpha, 0…255 (255 is opaque).
    public var alpha: UInt8

    /// Creates a color from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#RRGGBB` (case-insensitive).
    ///
    /// - Throws: `CatalogInputError` naming the text, for anything else.
    public init(hex text: String) throws {
        let digits = Array(text.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#"),
            let value = UInt32(String(decoding: digits[1...], as: UTF8.self), radix: 16),
            digits[1...].allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) })
        else {
            throw CatalogInputError(field: "color", value: text, reason: "expected #RRGGBB, such as #C0392B")
        }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `#RRGGBB`, uppercase.
    public var hex: String {
        "#" + [red, green, blue].map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined()
    }

    /// The hex form.
    public var description: String { hex }
}

/// Stores a `Color` as five bytes: a format version (1), then red, green, blue and alpha.
///
/// Registered under the name the model gives, `ColorToDataTransformer`, before the store
/// opens. Decoding checks the length and version and throws on anything else: bytes from a
/// file never reach an unarchiver unchecked.
public struct ColorToDataTransformer: ValueTransforming {
    /// The name the model uses.
    public static let name = "ColorToDataTransformer"

    /// Creates the transformer.
    public init() {}

    /// Encodes a `Color`.
    public func transformedValue(_ value: any Sendable) throws -> Data {
        guard let color = value as? Color else {
            throw ValueTransformerError(attribute: "Book.color", transformerName: Self.name, reason: "expected a Color, got \(type(of: value))")
        }
        // From a tuple's bytes: an array literal costs an allocation per book saved.
        return withUnsafeBytes(of: (UInt8(1), color.red, color.green, color.blue, color.alpha)) { Data($0) }
    }

    /// Decodes bytes written by `transformedValue(_:)`.
    public func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        // Read in place: copying the bytes into an array costs an allocation per fetched book.
        let color = data.withUnsafeBytes { bytes -> Color? in
            guard bytes.count == 5, bytes[0] == 1 else { return nil }
            return Color(red: bytes[1], green: bytes[2], blue: bytes[3], alpha: bytes[4])
        }
        guard let color else {
            throw ValueTransformerError(
                attribute: "Book.color", transformerName: Self.name,
                reason: "expected 5 bytes of format 1, found \(data.count) bytes")
        }
        return color
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
