import Persistence

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Terminal facts and ANSI escape helpers, so that colors and redrawn lines reach terminals
/// only and pipes stay plain text.
enum Terminal {
    /// Whether the file descriptor is a terminal (`isatty(3)`).
    static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// Whether output to `fileDescriptor` may use colors: it is a terminal, `NO_COLOR` is
    /// unset or empty (see no-color.org), and `TERM` is not `dumb`.
    static func colorEnabled(for fileDescriptor: Int32, environment: [String: String]) -> Bool {
        colorEnabled(isTerminal: isTerminal(fileDescriptor), environment: environment)
    }

    /// The rule of ``colorEnabled(for:environment:)`` with the terminal test given.
    static func colorEnabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// The number of columns of the terminal on `fileDescriptor`, or `nil` when it is not a
    /// terminal or does not say.
    static func columns(_ fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else {
            return nil
        }
        return Int(size.ws_col)
    }

    // MARK: - ANSI

    /// Select Graphic Rendition sequences.
    enum ANSI {
        /// Resets every attribute.
        static let reset = "\u{1B}[0m"
        /// Bold (increased intensity).
        static let bold = "\u{1B}[1m"
        /// Dim (decreased intensity).
        static let dim = "\u{1B}[2m"
        /// Erases the whole current line (the cursor stays where it is).
        static let eraseLine = "\u{1B}[2K"
    }

    /// Two spaces on a 24-bit background color, then a reset: a color swatch.
    static func swatch(red: UInt8, green: UInt8, blue: UInt8) -> String {
        "\u{1B}[48;2;\(red);\(green);\(blue)m  \(ANSI.reset)"
    }

    /// `text` between `style` and a reset when `enabled`, else `text` unchanged.
    static func styled(_ text: String, _ style: String, enabled: Bool) -> String {
        enabled ? style + text + ANSI.reset : text
    }

    /// Writes every byte of `text` to `fileDescriptor`, retrying after short writes and
    /// `EINTR`; gives up silently on other errors (a closed terminal is no reason to fail).
    ///
    /// Standard error carries only messages, never data: a password in a store location
    /// they echo (`postgresql://user:secret@host/db`) is hidden there (`SecretRedaction`).
    static func write(_ text: String, to fileDescriptor: Int32) {
        let text = fileDescriptor == STDERR_FILENO ? SecretRedaction.redacting(text) : text
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(fileDescriptor, buffer.baseAddress, buffer.count)
                #elseif canImport(Musl)
                    Musl.write(fileDescriptor, buffer.baseAddress, buffer.count)
                #else
                    Darwin.write(fileDescriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
