/// Counts in messages, with the noun in the number it takes: "1 book", "2 books", "0 books".
public enum CountText {
    /// `count` and `singular`, or `plural` (by default `singular` + "s") unless `count` is 1.
    public static func counted(_ count: Int, _ singular: String, _ plural: String? = nil, number: String? = nil) -> String {
        "\(number ?? String(count)) " + (count == 1 ? singular : plural ?? singular + "s")
    }

    /// "1 book", "20 books".
    public static func books(_ count: Int) -> String { counted(count, "book") }
}
