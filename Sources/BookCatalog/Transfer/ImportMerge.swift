import Foundation
import Persistence

/// Which fields of a book already in the catalogue an import sets: for each field the file
/// gives, its value in the file, the value the last import of the file's source gave
/// (``ImportedFieldValues``), and the catalogue's value now.
///
/// | file vs last import | catalogue vs last import | the import              |
/// |---------------------|--------------------------|-------------------------|
/// | same                | any                      | keeps the catalogue's   |
/// | changed             | same                     | takes the file's        |
/// | changed             | changed, to the file's   | nothing to do           |
/// | changed             | changed, to another      | a conflict: keeps the catalogue's, or takes the file's when preferring it |
///
/// With nothing kept for a field (a first import of the source, or of that field), the file's
/// value is taken, as an import always did. Tags are not decided here: they merge (see
/// `Catalog.importBooks`). A blank date added is a value the file does not know: it never
/// replaces one.
struct ImportMerge {
    /// The fields to set from the file.
    private(set) var fields: Set<BookField> = []
    /// The fields both changed, in ``BookField`` order.
    private(set) var conflicts: [ImportConflict] = []

    init(record: BookRecord, book: Book, lastImported: ImportedFieldValues?, preferringFile: Bool) {
        let current = BookRecord(book: book)
        for field in BookField.allCases where record.provided.contains(field) && ImportedFieldValues.kept(field) {
            guard field != .tags, field != .dateAdded || record.dateAdded != nil else { continue }
            let file = ImportedFieldValues.text(field, of: record)
            let catalogue = ImportedFieldValues.text(field, of: current)
            guard file != catalogue else { continue }
            guard let last = lastImported?.texts[field] else {
                fields.insert(field)
                continue
            }
            if file == last { continue }
            if catalogue == last {
                fields.insert(field)
                continue
            }
            conflicts.append(
                ImportConflict(
                    uuid: book.uuid, title: book.title, field: field, catalogue: catalogue, file: file, lastImported: last,
                    tookFile: preferringFile))
            if preferringFile { fields.insert(field) }
        }
    }
}
