import Foundation
import PersistenceModel

/// A color as `NSColor` (macOS) or `UIColor` (iOS) archive it: red, green, blue and alpha
/// components from 0 to 1.
///
/// Apps often keep colors in transformable attributes. What is decoded:
/// - `UIColor`: `UIRed`, `UIGreen`, `UIBlue`, `UIAlpha`, or `UIWhite` and `UIAlpha` for a
///   gray.
/// - `NSColor`: `NSColorSpace` 1 or 2 (calibrated or device RGB) with `NSRGB`, the
///   components as ASCII decimal numbers separated by spaces (alpha 1 when absent), or 3
///   or 4 (calibrated or device white) with `NSWhite`.
///
/// Other color spaces (CMYK, named catalog colors, pattern colors, custom spaces) are
/// refused with an error naming the color space. A color is written back as a `UIColor`
/// archive with the four RGBA components.
public struct ArchivedColor: TransformableValue, Hashable {
    /// The red component.
    public var red: Double
    /// The green component.
    public var green: Double
    /// The blue component.
    public var blue: Double
    /// The opacity.
    public var alpha: Double

    /// Creates a color from its components.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Decodes an archived `UIColor` or `NSColor` object.
    ///
    /// - Throws: `CoreDataFormatError` naming the class and field when the object is not a
    ///   color this type decodes.
    public init(_ object: ArchivedObject) throws {
        let location = "object \(object.uid) (\(object.className))"
        func number(_ key: String) -> Double? {
            switch object.fields[key] {
            case .real(let value): return value
            case .integer(let value): return Double(value)
            default: return nil
            }
        }
        if let red = number("UIRed"), let green = number("UIGreen"), let blue = number("UIBlue") {
            self.init(red: red, green: green, blue: blue, alpha: number("UIAlpha") ?? 1)
            return
        }
        if let white = number("UIWhite") {
            self.init(red: white, green: white, blue: white, alpha: number("UIAlpha") ?? 1)
            return
        }
        guard let space = object.fields["NSColorSpace"]?.integerValue else {
            throw CoreDataFormatError(
                .keyedArchive, at: location, "not a color with RGB or white components")
        }
        func components(_ key: String, count: ClosedRange<Int>) throws -> [Double] {
            guard case .data(let bytes) = object.fields[key] ?? .null else {
                throw CoreDataFormatError(
                    .keyedArchive, at: "\(location), field \(key)", "missing or not data")
            }
            let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            let words = text.split(separator: " ")
            let values = words.compactMap { Double($0) }
            guard count.contains(values.count), values.count == words.count else {
                throw CoreDataFormatError(
                    .keyedArchive, at: "\(location), field \(key)",
                    "'\(text.prefix(60))' is not \(count) numbers")
            }
            return values
        }
        switch space {
        case 1, 2:
            let rgb = try components("NSRGB", count: 3...4)
            self.init(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: rgb.count == 4 ? rgb[3] : 1)
        case 3, 4:
            let white = try components("NSWhite", count: 1...2)
            self.init(
                red: white[0], green: white[0], blue: white[0],
                alpha: white.count == 2 ? white[1] : 1)
        default:
            throw CoreDataFormatError(
                .keyedArchive, at: "\(location), field NSColorSpace",
                "color space \(space) is not RGB or white")
        }
    }

    /// The color as an archived `UIColor` object.
    public var archivedObject: ArchivedObject {
        ArchivedObject(
            classNames: ["UIColor", "NSObject"],
            fields: [
                "UIColorComponentCount": .integer(4), "UIRed": .real(red), "UIGreen": .real(green),
                "UIBlue": .real(blue), "UIAlpha": .real(alpha),
            ])
    }
}

/// A value transformer between keyed archives of `UIColor`/`NSColor` and `ArchivedColor`:
/// register it under the class names (`UIColor`, `NSColor`) so that
/// `KeyedArchive.transformedValue(from:)` decodes archived colors, or under an attribute's
/// transformer name.
public struct ArchivedColorTransformer: ValueTransforming {
    /// Creates the transformer.
    public init() {}

    /// The keyed archive of an `ArchivedColor`, as a `UIColor`.
    ///
    /// - Throws: `CoreDataFormatError` when `value` is not an `ArchivedColor`.
    public func transformedValue(_ value: any Sendable) throws -> Data {
        guard let color = value as? ArchivedColor else {
            throw CoreDataFormatError(
                .keyedArchive, at: "", "a \(type(of: value)) is not an ArchivedColor")
        }
        return try KeyedArchiveEncoder.encode(.object(color.archivedObject))
    }

    /// The `ArchivedColor` a keyed archive of a `UIColor` or `NSColor` holds.
    ///
    /// - Throws: `CoreDataFormatError` when the bytes are not such an archive.
    public func reverseTransformedValue(_ data: Data) throws -> any Sendable {
        let archive = try KeyedArchive(data: data)
        guard case .object(let object) = try archive.decodeRoot() else {
            throw CoreDataFormatError(.keyedArchive, at: "the root object", "not a color object")
        }
        return try ArchivedColor(object)
    }
}
