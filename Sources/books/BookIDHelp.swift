/// The help of every argument that names a book.
enum BookIDHelp {
    static let text = "The book's ID as listings show it, its UUID, or any unique prefix of at least 4 digits."
}
