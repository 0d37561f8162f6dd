import CommandLineSupport

/// The examples `books help COMMAND` and the manual page show, by command path: kept apart
/// from the command declarations, and each one checked by a test to parse.
enum BooksExamples {
    static let byCommand: [String: [CommandExample]] = [
        "seed": [
            CommandExample("books seed", "Load the bundled sample books (again: only the missing ones are added)."),
            CommandExample("books seed --remove", "Take the sample books out (those you changed stay)."),
            CommandExample("books seed --file my-books.json", "Load your own books, in the format of the sample file."),
            CommandExample("books seed --count 100000", "Add 100,000 synthetic books, to try a large catalogue."),
        ],
        "list": [
            CommandExample("books list --by-month --limit 5", "The five newest books, under month headings."),
            CommandExample(
                "books list --where 'price < 10 AND author.name BEGINSWITH[cd] \"gabriel\"'",
                "The books a Core Data predicate matches."),
            CommandExample("books list --json", "Every book as JSON."),
        ],
        "search": [
            CommandExample("books search marquez cien", "Books with both words in the title or author's name, best first."),
            CommandExample("books search author:lem -solaris", "Books by an author whose name has \"lem\" (Lem first), but not Solaris."),
            CommandExample("books search 'title:\"cien años\"'", "A phrase in the title, accents ignored."),
            CommandExample("books search year:1961 OR year:1962", "Books published in 1961 or 1962."),
            CommandExample("books search tag:scifi isbn:978-0", "Books tagged scifi whose ISBN starts with 9780."),
        ],
        "add": [
            CommandExample(
                "books add --title Ubik --author 'Philip K. Dick' --date 1969-05-01 --price 9",
                "Add a book and print its line (ID, title, author, date, price); --color '#1E90FF' would give it a cover color (quoted: '#' starts a comment in the shell)."),
        ],
        "show": [
            CommandExample("books show A9EF420F", "One book, by the ID a listing shows (or any unique prefix)."),
        ],
        "edit": [
            CommandExample("books edit A9EF420F --rating 5 --status read", "Rate a book and mark it read."),
            CommandExample("books edit A9EF420F --date 1961 --notes ''", "A year-only date, and no notes."),
            CommandExample("books edit A9EF420F --tag +scifi --tag -unread", "Tag a book scifi and take the tag unread off."),
        ],
        "delete": [
            CommandExample("books delete A9EF420F", "Delete one book (on a terminal, after asking)."),
            CommandExample("books delete --where 'status == \"to-read\"' --yes", "Delete every book a predicate matches, without asking."),
        ],
        "import": [
            CommandExample("books import goodreads_library_export.csv", "Bring in a Goodreads export: shelves become status and tags."),
            CommandExample("cat books.json | books import -", "Add or update the books of a JSON file read from standard input."),
            CommandExample(
                "books import --dry-run goodreads_library_export.csv",
                "What a newer export would change (your edits since the last one are kept), writing nothing."),
        ],
        "export": [
            CommandExample("books export -o books.csv", "Every book, every field, as CSV (the file is replaced only when complete)."),
            CommandExample("books export --format json", "Every book as JSON on standard output."),
        ],
        "stats": [
            CommandExample("books stats", "Bar charts: books read per year, by decade, status, rating, author and series."),
            CommandExample("books stats --json | jq '.booksReadPerYear'", "The same tables as JSON, for scripts."),
        ],
        "history": [
            CommandExample("books history --limit 3", "The last three commands that changed the catalogue, and what they changed."),
        ],
        "undo": [
            CommandExample("books undo", "Undo the last seed, add, edit, delete or import, all of it or nothing."),
        ],
        "redo": [
            CommandExample("books redo", "Take back the last undo."),
        ],
        "check": [
            CommandExample("books check", "Check the catalogue file for damage; exits 1 when it is damaged."),
        ],
        "completions": [
            CommandExample(
                "books completions bash > ~/.local/share/bash-completion/completions/books",
                "Install bash completions (bash-completion loads them on first use)."),
            CommandExample("books completions fish > ~/.config/fish/completions/books.fish", "Install fish completions."),
        ],
        "man": [
            CommandExample("books man | man -l -", "Read the manual page."),
        ],
    ]
}
