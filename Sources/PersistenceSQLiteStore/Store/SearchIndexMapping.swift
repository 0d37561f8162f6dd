import PersistenceModel
import PersistenceSQLite
import PersistenceSQLiteFiles
/// The full-text search index of one table: the store's stand-in for Spotlight.
///
/// Every table whose entities have attributes marked "Index in Spotlight"
/// (`isIndexedBySpotlight`) gets an SQLite FTS5 table named `_search_<Table>` with the
/// `trigram` tokenizer, one column per indexed attribute (named after it), holding the
/// attribute's canonical form (``CanonicalText``). Its rowid is the table's `_id`. A
/// trigram index answers a substring query of three or more characters from the index
/// alone, which is what a search box needs.
///
/// **Indexed form.** Each value is indexed as ``indexedForm``: its canonical text between two
/// spaces, followed by the marker ``exoticMarker`` when the text holds any character other
/// than a space, `0`–`9` or `a`–`z`. The spaces let a phrase query find a word at the start
/// or end of the text (`" ring"`, `"ring "`), the marker finds every row where a word may
/// start or end at another character; together they give the ranked search its cheap
/// supersets of the best tiers (`FetchCompiler.searchTierRows`). A search word never holds
/// a space, and a word holding U+0001 is never looked up in the index
/// (`SearchText.isIndexable`), so neither ever changes which rows a word finds.
///
/// **External content.** The FTS table stores only the index, not a copy of the text: its
/// content is a view `_search_<Table>_content` that gives each row's indexed form, computed
/// with built-in SQL functions only when every indexed attribute already holds canonical
/// text (a `canonical:(x)` derivation, as `Book.canonicalTitle`), else through
/// `canonical()`. A plain FTS table (with its own copy of the text) is slower to fill and
/// larger than external content; a contentless table is as small and as fast, but cannot be
/// rebuilt from the table or checked against it, which external content can (`'rebuild'`,
/// `'integrity-check'`).
///
/// **Cost.** Keeping the index makes every insert dearer and the store larger; in return a
/// selective term is answered, ranked, from the index, where folding every title at query
/// time (`title CONTAINS[cd]`) or `instr` over the stored canonical column reads every row
/// (`Benchmarks/RESULTS.md` has the figures).
///
/// **Kept in step by triggers** on the table (`_search_<Table>_insert`, `_update`,
/// `_delete`), so that the index changes inside the very statement, hence the very
/// transaction, that changes a row: a rolled-back save rolls the index back with it, and no
/// code path that writes rows can forget it. A trigger passes the old values to FTS5's
/// `'delete'` command, which are exactly the values it indexed. When the indexed columns
/// hold canonical text already, the triggers use no custom function, so rows stay editable
/// from the `sqlite3` shell with the index kept correct; otherwise the shell refuses such
/// edits ("no such function: canonical") rather than corrupting the index.
///
/// The index is derived data: it is not part of the model's version hashes, and a store
/// whose index is missing or was made for other attributes gets it rebuilt on open
/// (`SQLiteStore.prepareSearchIndexes`), with no migration.
package struct SearchIndexMapping: Sendable, Equatable {
    /// One indexed attribute.
    package struct Column: Sendable, Equatable {
        /// The attribute's (and the column's) name.
        package let name: String
        /// Whether the stored value is canonical text already (a `canonical:(x)`
        /// derivation), so it is indexed as it is, without calling `canonical()`.
        package let isCanonical: Bool

        /// The SQL for the canonical value of this column in `row` (`new`, `old`, or a table
        /// alias).
        package func valueSQL(in row: String) -> String {
            let column = "\(sqlIdentifier(row)).\(sqlIdentifier(name))"
            return isCanonical ? column : "canonical(\(column))"
        }

        /// The SQL for the indexed form (``SearchIndexMapping/indexedForm(_:)``) of this
        /// column in `row`.
        package func indexedSQL(in row: String) -> String {
            let value = valueSQL(in: row)
            return "' ' || \(value) || ' ' || CASE WHEN \(value) GLOB '*[^ 0-9a-z]*' "
                + "THEN char(1, 1, 1) ELSE '' END"
        }
    }

    /// The indexed table's name (a root entity's).
    package let table: String
    /// The indexed attributes, in table column order.
    package let columns: [Column]

    /// The FTS5 table's name: `_search_<Table>`.
    package var name: String { "_search_\(table)" }

    /// The view the index reads its content from: each row's indexed forms.
    package var contentViewName: String? { "_search_\(table)_content" }

    /// Three U+0001 characters: the trigram that marks an indexed form whose text holds a
    /// character other than a space, `0`–`9` or `a`–`z`.
    package static let exoticMarker = "\u{1}\u{1}\u{1}"

    /// The indexed form of canonical text, as the index's content view computes it: the
    /// text between spaces, then ``exoticMarker`` when the text holds a character other than
    /// a space, `0`–`9` or `a`–`z`.
    package static func indexedForm(_ canonical: String) -> String {
        let plain = canonical.utf8.allSatisfy { $0 == 0x20 || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
        return " " + canonical + " " + (plain ? "" : exoticMarker)
    }

    /// The names of the triggers that keep the index in step.
    package var triggerNames: [String] { ["insert", "update", "delete"].map { "\(name)_\($0)" } }

    /// The column with this attribute name, if it is indexed.
    package func column(named name: String) -> Column? { columns.first { $0.name == name } }

    // MARK: - DDL

    /// The statements that create the view (if any), the FTS table and its triggers. The
    /// index starts empty: fill it with ``rebuildStatement``.
    package var createStatements: [String] {
        let fts = sqlIdentifier(name)
        let t = sqlIdentifier(table)
        let names = columns.map { sqlIdentifier($0.name) }.joined(separator: ", ")
        var statements: [String] = []
        let content = contentViewName ?? table
        let values = columns.map { "\($0.indexedSQL(in: table)) AS \(sqlIdentifier($0.name))" }
        statements.append(
            "CREATE VIEW \(sqlIdentifier(content)) AS SELECT \(t).\"_id\" AS \"_id\", "
                + values.joined(separator: ", ") + " FROM \(t)")
        statements.append(
            "CREATE VIRTUAL TABLE \(fts) USING fts5(\(names), content=\(sqlLiteral(content)), "
                + "content_rowid='_id', tokenize='trigram case_sensitive 1')")
        let insertNew = "INSERT INTO \(fts) (rowid, \(names)) VALUES (new.\"_id\", "
            + columns.map { $0.indexedSQL(in: "new") }.joined(separator: ", ") + ");"
        let deleteOld = "INSERT INTO \(fts) (\(fts), rowid, \(names)) VALUES ('delete', old.\"_id\", "
            + columns.map { $0.indexedSQL(in: "old") }.joined(separator: ", ") + ");"
        let watched = (["_id"] + columns.map(\.name)).map(sqlIdentifier).joined(separator: ", ")
        let triggers = triggerNames.map(sqlIdentifier)
        statements.append("CREATE TRIGGER \(triggers[0]) AFTER INSERT ON \(t) BEGIN \(insertNew) END")
        statements.append(
            "CREATE TRIGGER \(triggers[1]) AFTER UPDATE OF \(watched) ON \(t) BEGIN \(deleteOld) \(insertNew) END")
        statements.append("CREATE TRIGGER \(triggers[2]) AFTER DELETE ON \(t) BEGIN \(deleteOld) END")
        return statements
    }

    /// Fills the index from the table's rows (FTS5's `'rebuild'` command).
    package var rebuildStatement: String {
        "INSERT INTO \(sqlIdentifier(name)) (\(sqlIdentifier(name))) VALUES ('rebuild')"
    }

    /// The statements that remove the index, its view and its triggers, if present.
    package static func dropStatements(table: String) -> [String] {
        let name = "_search_\(table)"
        return ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS \(sqlIdentifier("\(name)_\($0)"))" }
            + [
                "DROP TABLE IF EXISTS \(sqlIdentifier(name))",
                "DROP VIEW IF EXISTS \(sqlIdentifier("\(name)_content"))",
            ]
    }

    /// What the index was made for, recorded in the store's metadata as
    /// `searchIndex.<Table>`: a different signature on open means the index is rebuilt.
    /// It includes ``CanonicalText/version``, so a change to the folding rebuilds it too.
    package var signature: String {
        "v2 fold\(CanonicalText.version) trigram padded "
            + columns.map { "\($0.name)\($0.isCanonical ? "" : "*")" }.joined(separator: ",")
    }
}

extension StoreSchema {
    /// The search index of each table that has attributes indexed for search, by table
    /// name.
    package var searchIndexes: [String: SearchIndexMapping] {
        var result: [String: SearchIndexMapping] = [:]
        for table in tables.values {
            var columns: [SearchIndexMapping.Column] = []
            for column in table.columns {
                guard case .attribute(let attribute) = column.kind, attribute.isIndexedBySpotlight else { continue }
                columns.append(.init(name: column.name, isCanonical: attribute.isCanonicalText))
            }
            if !columns.isEmpty { result[table.name] = SearchIndexMapping(table: table.name, columns: columns) }
        }
        return result
    }
}

extension AttributeDescription {
    /// Whether the attribute's stored value is canonical text: a `canonical:(x)` derivation.
    package var isCanonicalText: Bool {
        guard let expression = derivationExpression,
            case .canonical = try? Derivation(parsing: expression)
        else { return false }
        return true
    }
}
