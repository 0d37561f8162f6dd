import Foundation

/// One book's place in a listing sorted by text (`--sort title|author|series`) under the
/// user's ``TextCollation``: the sort keys of its texts, computed once, and the values that
/// break ties.
///
/// The order is the store's order for these keys, with text collated: the key's text (the
/// title, its leading article skipped; the byline; the series, its article skipped), for a
/// series its number, then the title collated, then the title as typed (case and all, by its
/// UTF-8 bytes), then the UUID. `reversed` turns all of it around, tie-breakers included.
struct CollatedListingRow {
    /// The sort key of the key's text.
    var key: [UInt8]
    /// The book's number in its series, for `--sort series`; nil otherwise.
    var number: Decimal?
    /// The sort key of the title (empty when the title is the key).
    var titleKey: [UInt8]
    /// The title as typed.
    var title: String
    /// The book's UUID.
    var uuid: UUID

    /// The keys listings by text sort on; the others keep the store's order.
    static let collatedKeys: Set<ListingOrder.Key> = [.title, .author, .series]

    /// The properties a row is made of, as a dictionary fetch names them.
    static let properties = ["uuid", "title", "byline", "series", "seriesNumber"]

    init(
        key: ListingOrder.Key, collation: TextCollation, uuid: UUID, title: String, byline: String?,
        series: String?, seriesNumber: Decimal?
    ) {
        self.uuid = uuid
        self.title = title
        switch key {
        case .author:
            self.key = collation.sortKey(byline ?? "")
            titleKey = collation.sortKey(title: title)
        case .series:
            self.key = collation.sortKey(title: series ?? "")
            number = seriesNumber
            titleKey = collation.sortKey(title: title)
        default:
            self.key = collation.sortKey(title: title)
            titleKey = []
        }
    }

    /// The row of a fetched dictionary (see ``properties``); nil without a UUID.
    init?(_ values: [String: Any], key: ListingOrder.Key, collation: TextCollation) {
        guard let uuid = values["uuid"] as? UUID else { return nil }
        self.init(
            key: key, collation: collation, uuid: uuid, title: values["title"] as? String ?? "",
            byline: values["byline"] as? String, series: values["series"] as? String,
            seriesNumber: values["seriesNumber"] as? Decimal)
    }

    /// The row of a book.
    init(_ book: Book, key: ListingOrder.Key, collation: TextCollation) {
        self.init(
            key: key, collation: collation, uuid: book.uuid, title: book.title, byline: book.byline,
            series: book.series, seriesNumber: book.seriesNumber)
    }

    /// Whether `a` comes before `b`: ascending unless `reversed`.
    static func precedes(_ a: CollatedListingRow, _ b: CollatedListingRow, reversed: Bool) -> Bool {
        let order = compare(a, b)
        return order == .orderedSame ? false : (order == .orderedAscending) != reversed
    }

    private static func compare(_ a: CollatedListingRow, _ b: CollatedListingRow) -> ComparisonResult {
        var order = bytes(a.key, b.key)
        if order != .orderedSame { return order }
        switch (a.number, b.number) {
        case (nil, nil): break
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let x?, let y?): if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
        order = bytes(a.titleKey, b.titleKey)
        if order != .orderedSame { return order }
        order = bytes(a.title.utf8, b.title.utf8)
        if order != .orderedSame { return order }
        return bytes(a.uuid.uuidString.utf8, b.uuid.uuidString.utf8)
    }

    private static func bytes<C: Collection<UInt8>>(_ a: C, _ b: C) -> ComparisonResult {
        if a.elementsEqual(b) { return .orderedSame }
        return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
    }
}
