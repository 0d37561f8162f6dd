import Foundation

/// What an import did (or, for a dry run, would do): books added, books updated, books the
/// file gives exactly as the catalogue already has them, and the fields both the reader and
/// the file changed since the last import of its source.
public struct ImportResult: Sendable, Equatable {
    /// A book the import added or updated, for a dry run's listing.
    public struct BookChange: Sendable, Equatable {
        /// The book's UUID.
        public var uuid: UUID
        /// Its title, as the import leaves it.
        public var title: String
        /// Whether the import adds it (else it updates it).
        public var isNew: Bool
        /// For an update, the fields it changes, in ``BookField`` order.
        public var fields: [BookField]
    }

    /// Books new to the catalogue.
    public var added = 0
    /// Books already in it (by UUID, else by ISBN) that the file changed.
    public var updated = 0
    /// Books already in it that the file gives as they are, or whose every change the
    /// reader's own edits kept out.
    public var unchanged = 0
    /// The books added and updated, in file order.
    public var changes: [BookChange] = []
    /// The fields both changed, in file order, then ``BookField`` order.
    public var conflicts: [ImportConflict] = []

    /// A result of the given counts.
    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// A field of a book that both the reader (in the catalogue) and the file changed since the
/// last import of the file's source, to different values: the reader's is kept, unless the
/// import was told to prefer the file's (`books import --prefer-file`).
public struct ImportConflict: Sendable, Equatable {
    /// The book's UUID.
    public var uuid: UUID
    /// Its title, as the catalogue has it.
    public var title: String
    /// The field.
    public var field: BookField
    /// The catalogue's value (the reader's), as ``ImportedFieldValues`` writes it.
    public var catalogue: String
    /// The file's value.
    public var file: String
    /// The value the last import of the source gave.
    public var lastImported: String
    /// Whether the import took the file's value (else it kept the reader's).
    public var tookFile: Bool
}
