#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process environment read as the bytes it holds.
///
/// `ProcessInfo.processInfo.environment` decodes every value as UTF-8 and silently puts
/// U+FFFD in place of bytes that are not, just as `CommandLine.arguments` does: a
/// `BOOKS_STORE` of `/data/caf\xE9.sqlite` would name another file, `/data/caf�.sqlite`,
/// and CoreFoundation, which reads `TZ` itself, crashes on a value it cannot decode. The
/// tools look here at the variables they use before anything else reads them.
package enum ProcessEnvironment {
    /// The bytes of the variable `name`, or nil when it is not set.
    package static func bytes(of name: String) -> [UInt8]? {
        guard let value = getenv(name) else { return nil }
        return Array(UnsafeBufferPointer(start: value, count: strlen(value))).map { UInt8(bitPattern: $0) }
    }

    /// The variable `name` when it is set to bytes that are not UTF-8, for an error message;
    /// nil when it is unset or valid.
    package static func invalidUTF8Value(of name: String) -> InvalidEnvironmentEncodingError? {
        guard let bytes = bytes(of: name), String(validating: bytes, as: UTF8.self) == nil else {
            return nil
        }
        return InvalidEnvironmentEncodingError(name: name, bytes: bytes)
    }
}

/// An environment variable whose value is not valid UTF-8.
package struct InvalidEnvironmentEncodingError: Error, Sendable, CustomStringConvertible {
    /// The variable's name.
    package var name: String
    /// Its value's bytes.
    package var bytes: [UInt8]

    /// "environment variable BOOKS_STORE '/data/caf\xE9.sqlite' is not valid UTF-8", the
    /// value shown as arguments are (bytes that are not UTF-8 as `\xHH`, cut short).
    package var description: String {
        "environment variable \(name) '\(InvalidArgumentEncodingError.shown(bytes))' is not valid UTF-8"
    }
}
