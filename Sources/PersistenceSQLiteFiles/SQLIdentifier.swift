import Foundation

/// Quotes an SQL identifier: `title` → `"title"`, doubling embedded quotes.
package func sqlIdentifier(_ name: String) -> String {
    // Names almost never hold a quote: skip Foundation's replacingOccurrences, which bridges
    // through NSString, a cost that shows in a large insert when the SQL is rebuilt per row.
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
