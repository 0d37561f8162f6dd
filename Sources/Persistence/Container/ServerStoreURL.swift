import Foundation

/// A store on a database server, named by a URL: `postgresql://user@host:port/database`
/// (or `postgres://`), with libpq's options (`?host=/run/postgresql`, `sslmode=require`,
/// `sslrootcert=…`) passed through as they are.
///
/// A password never comes from the URL, which other users can see in the process list
/// when it is a command-line argument: libpq reads it from `PGPASSFILE` or `~/.pgpass`, or
/// from `PGPASSWORD`.
public enum ServerStoreURL {
    /// Whether `url` names a store on a server rather than a file.
    public static func isServer(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "postgresql" || scheme == "postgres"
    }

    /// Whether `text` is a server store's URL (how a command line tells one from a path).
    public static func isServer(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://")
    }

    /// Whether this build can open server stores: built with the package trait `PostgreSQL`.
    public static var isSupported: Bool {
        #if PostgreSQL
        return true
        #else
        return false
        #endif
    }
}

/// A server store's URL that cannot be used.
public enum ServerStoreURLError: Error, Equatable, CustomStringConvertible {
    /// The build has no PostgreSQL store (built without the `PostgreSQL` trait).
    case unsupported
    /// The URL holds a password, which would be visible to other users.
    case passwordInURL
    /// The URL is not one libpq reads.
    case malformed(String)

    public var description: String {
        switch self {
        case .unsupported:
            return "This build has no PostgreSQL support: build it with `swift build --traits PostgreSQL` "
                + "(libpq-dev installed) to use a postgresql:// store"
        case .passwordInURL:
            return "The store URL holds a password, which other users could see: remove it from the URL "
                + "and put it in ~/.pgpass (or the file PGPASSFILE names), or in PGPASSWORD"
        case .malformed(let text):
            return "The store URL \(SecretRedaction.redacting(text)) is not a PostgreSQL URL "
                + "(postgresql://user@host:port/database)"
        }
    }
}
