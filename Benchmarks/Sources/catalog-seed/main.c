// catalog-seed: the same work as `books seed --count N` on a new catalogue, written directly
// against the SQLite C API (issue #47): the honest floor for the seed row.
//
//     catalog-seed STORE DATA [--tight] [--cache-kib K]
//
// It creates the catalogue's schema (every table, index, search index and trigger a new
// `books` store has, copied from one), then adds the books of DATA the way `books seed`
// commits them: the sample books in one transaction, then the synthetic books in batches of
// at most 20,000, each transaction ending early once it has as many books as the previous
// transaction's pace says fit in half a second (`SeedPace` in BookCatalog; never fewer than
// 2,000). Each transaction writes a history transaction row, a history change row per
// inserted book and author, the books (skipping a UUID already stored), their authors (one
// row per new name), the author–book links, and the tables' last keys; the search index
// follows through the schema's triggers. The canonical forms come precomputed in DATA, as
// for raw-seed. Like `books seed`, the page cache is raised to 16 MiB and automatic
// checkpoints spaced to 10,000 pages for the load unless `--cache-kib` says otherwise
// (0: SQLite's defaults).
//
// `--tight`: the tight floor instead: only the Book table with a unique UUID index, a title
// index and the FTS5 trigram index (its trigger), no authors, links or history, one
// transaction, SQLite's default cache (unless `--cache-kib`).
//
// Rows go many to a statement (see `rows_per_statement`), as the store writes them.
//
// DATA: a line "S <samples> <synthetic>", then one line a book:
// uuid, title, canonical title, author, canonical author, date (seconds since 1970), price
// text, color (10 hex digits: the five stored bytes, or empty), date precision, language
// (or empty), separated by tabs.
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *schema_sql =
    "CREATE TABLE _metadata (key TEXT PRIMARY KEY, value);"
    "CREATE TABLE _primarykey (tableName TEXT PRIMARY KEY, lastKey INTEGER NOT NULL);"
    "CREATE TABLE \"Author\" (\"_id\" INTEGER PRIMARY KEY, \"_opt\" INTEGER NOT NULL DEFAULT 1, \"canonicalName\" TEXT, \"name\" TEXT);"
    "CREATE TABLE \"Book\" (\"_id\" INTEGER PRIMARY KEY, \"_opt\" INTEGER NOT NULL DEFAULT 1, \"byline\" TEXT, \"canonicalByline\" TEXT, \"canonicalTitle\" TEXT, \"color\" BLOB, \"dateAdded\" REAL, \"datePrecision\" TEXT, \"dateRead\" REAL, \"format\" TEXT, \"isbn\" TEXT, \"language\" TEXT, \"notes\" TEXT, \"pages\" INTEGER, \"price\" TEXT, \"publishDate\" REAL, \"publisher\" TEXT, \"rating\" INTEGER, \"readCount\" INTEGER, \"review\" TEXT, \"series\" TEXT, \"seriesNumber\" TEXT, \"status\" TEXT, \"title\" TEXT, \"uuid\" TEXT);"
    "CREATE TABLE \"ImportedValues\" (\"_id\" INTEGER PRIMARY KEY, \"_opt\" INTEGER NOT NULL DEFAULT 1, \"bookUUID\" TEXT, \"source\" TEXT, \"fieldValues\" TEXT);"
    "CREATE TABLE \"Tag\" (\"_id\" INTEGER PRIMARY KEY, \"_opt\" INTEGER NOT NULL DEFAULT 1, \"canonicalName\" TEXT, \"name\" TEXT);"
    "CREATE UNIQUE INDEX \"Author_unique_name\" ON \"Author\" (\"name\");"
    "CREATE INDEX \"Book_publishDate_index\" ON \"Book\" (\"publishDate\");"
    "CREATE INDEX \"Book_series_index\" ON \"Book\" (\"series\");"
    "CREATE INDEX \"Book_title_index\" ON \"Book\" (\"title\");"
    "CREATE UNIQUE INDEX \"Book_unique_uuid\" ON \"Book\" (\"uuid\");"
    "CREATE UNIQUE INDEX \"Book_unique_isbn\" ON \"Book\" (\"isbn\");"
    "CREATE UNIQUE INDEX \"ImportedValues_unique_source_bookUUID\" ON \"ImportedValues\" (\"source\", \"bookUUID\");"
    "CREATE UNIQUE INDEX \"Tag_unique_name\" ON \"Tag\" (\"name\");"
    "CREATE TABLE \"Author_books\" (\"source\" INTEGER NOT NULL, \"destination\" INTEGER NOT NULL, \"inversePosition\" INTEGER);"
    "CREATE UNIQUE INDEX \"Author_books_source_destination\" ON \"Author_books\" (\"source\", \"destination\");"
    "CREATE INDEX \"Author_books_destination_source\" ON \"Author_books\" (\"destination\", \"source\");"
    "CREATE TABLE \"Book_tags\" (\"source\" INTEGER NOT NULL, \"destination\" INTEGER NOT NULL);"
    "CREATE UNIQUE INDEX \"Book_tags_source_destination\" ON \"Book_tags\" (\"source\", \"destination\");"
    "CREATE INDEX \"Book_tags_destination_source\" ON \"Book_tags\" (\"destination\", \"source\");"
    "CREATE VIEW \"_search_Tag_content\" AS SELECT \"Tag\".\"_id\" AS \"_id\", ' ' || \"Tag\".\"canonicalName\" || ' ' || CASE WHEN \"Tag\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"canonicalName\" FROM \"Tag\";"
    "CREATE VIRTUAL TABLE \"_search_Tag\" USING fts5(\"canonicalName\", content='_search_Tag_content', content_rowid='_id', tokenize='trigram case_sensitive 1');"
    "CREATE TRIGGER \"_search_Tag_insert\" AFTER INSERT ON \"Tag\" BEGIN INSERT INTO \"_search_Tag\" (rowid, \"canonicalName\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalName\" || ' ' || CASE WHEN \"new\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Tag_update\" AFTER UPDATE OF \"_id\", \"canonicalName\" ON \"Tag\" BEGIN INSERT INTO \"_search_Tag\" (\"_search_Tag\", rowid, \"canonicalName\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalName\" || ' ' || CASE WHEN \"old\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); INSERT INTO \"_search_Tag\" (rowid, \"canonicalName\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalName\" || ' ' || CASE WHEN \"new\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Tag_delete\" AFTER DELETE ON \"Tag\" BEGIN INSERT INTO \"_search_Tag\" (\"_search_Tag\", rowid, \"canonicalName\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalName\" || ' ' || CASE WHEN \"old\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE VIEW \"_search_Author_content\" AS SELECT \"Author\".\"_id\" AS \"_id\", ' ' || \"Author\".\"canonicalName\" || ' ' || CASE WHEN \"Author\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"canonicalName\" FROM \"Author\";"
    "CREATE VIRTUAL TABLE \"_search_Author\" USING fts5(\"canonicalName\", content='_search_Author_content', content_rowid='_id', tokenize='trigram case_sensitive 1');"
    "CREATE TRIGGER \"_search_Author_insert\" AFTER INSERT ON \"Author\" BEGIN INSERT INTO \"_search_Author\" (rowid, \"canonicalName\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalName\" || ' ' || CASE WHEN \"new\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Author_update\" AFTER UPDATE OF \"_id\", \"canonicalName\" ON \"Author\" BEGIN INSERT INTO \"_search_Author\" (\"_search_Author\", rowid, \"canonicalName\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalName\" || ' ' || CASE WHEN \"old\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); INSERT INTO \"_search_Author\" (rowid, \"canonicalName\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalName\" || ' ' || CASE WHEN \"new\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Author_delete\" AFTER DELETE ON \"Author\" BEGIN INSERT INTO \"_search_Author\" (\"_search_Author\", rowid, \"canonicalName\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalName\" || ' ' || CASE WHEN \"old\".\"canonicalName\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE VIEW \"_search_Book_content\" AS SELECT \"Book\".\"_id\" AS \"_id\", ' ' || \"Book\".\"canonicalByline\" || ' ' || CASE WHEN \"Book\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"canonicalByline\", ' ' || \"Book\".\"canonicalTitle\" || ' ' || CASE WHEN \"Book\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"canonicalTitle\" FROM \"Book\";"
    "CREATE VIRTUAL TABLE \"_search_Book\" USING fts5(\"canonicalByline\", \"canonicalTitle\", content='_search_Book_content', content_rowid='_id', tokenize='trigram case_sensitive 1');"
    "CREATE TRIGGER \"_search_Book_insert\" AFTER INSERT ON \"Book\" BEGIN INSERT INTO \"_search_Book\" (rowid, \"canonicalByline\", \"canonicalTitle\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalByline\" || ' ' || CASE WHEN \"new\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END, ' ' || \"new\".\"canonicalTitle\" || ' ' || CASE WHEN \"new\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Book_update\" AFTER UPDATE OF \"_id\", \"canonicalByline\", \"canonicalTitle\" ON \"Book\" BEGIN INSERT INTO \"_search_Book\" (\"_search_Book\", rowid, \"canonicalByline\", \"canonicalTitle\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalByline\" || ' ' || CASE WHEN \"old\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END, ' ' || \"old\".\"canonicalTitle\" || ' ' || CASE WHEN \"old\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); INSERT INTO \"_search_Book\" (rowid, \"canonicalByline\", \"canonicalTitle\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalByline\" || ' ' || CASE WHEN \"new\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END, ' ' || \"new\".\"canonicalTitle\" || ' ' || CASE WHEN \"new\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TRIGGER \"_search_Book_delete\" AFTER DELETE ON \"Book\" BEGIN INSERT INTO \"_search_Book\" (\"_search_Book\", rowid, \"canonicalByline\", \"canonicalTitle\") VALUES ('delete', old.\"_id\", ' ' || \"old\".\"canonicalByline\" || ' ' || CASE WHEN \"old\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END, ' ' || \"old\".\"canonicalTitle\" || ' ' || CASE WHEN \"old\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END); END;"
    "CREATE TABLE _tombstone (_id INTEGER PRIMARY KEY, entity TEXT NOT NULL, objectKey INTEGER NOT NULL, deletedAt REAL NOT NULL, \"values\" TEXT NOT NULL);"
    "CREATE TABLE _historyTransaction (_id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp REAL NOT NULL, author TEXT, contextName TEXT);"
    "CREATE TABLE _historyChange (_id INTEGER PRIMARY KEY, transactionID INTEGER NOT NULL, changeType INTEGER NOT NULL, entity TEXT NOT NULL, objectKey INTEGER NOT NULL, properties TEXT, tombstone INTEGER, previousValues TEXT);"
    "CREATE INDEX _historyChange_transactionID ON _historyChange (transactionID);"
    ;

static const char *metadata_sql =
    "INSERT INTO _metadata (key, value) VALUES ('format', 'Persistence SQLite store 1'), "
    "('storeUUID', 'D4932CD6-468C-452C-893A-7F48C67CF6B3'), ('modelVersion', 4), "
    "('versionHash.ImportedValues', 'c718153978ba25d807c5d9a64110f353ea59b2907499922ed6b6834eabb01560'), "
    "('versionHash.Book', '1d007711b56f12ded54b6e5b16f17fd157b4ede44b7782271e03589cfdb83fbc'), "
    "('versionHash.Tag', 'a83258c7955b80acd6e2be7ad58c861541b3d8ae66a869dd14ab80e18505279c'), "
    "('versionHash.Author', '0915605319beb7bea97413b2bde93ac41e7dad6939e6bff439933189f53bb80f'), "
    "('searchIndex.Tag', 'v2 fold1 trigram padded canonicalName'), "
    "('searchIndex.Author', 'v2 fold1 trigram padded canonicalName'), "
    "('searchIndex.Book', 'v2 fold1 trigram padded canonicalByline,canonicalTitle'), ('historyTracking', '1')";

static const char *tight_schema_sql =
    "CREATE TABLE \"Book\" (\"_id\" INTEGER PRIMARY KEY, \"byline\" TEXT, \"canonicalByline\" TEXT, "
    "\"canonicalTitle\" TEXT, \"color\" BLOB, \"dateAdded\" REAL, \"datePrecision\" TEXT, \"language\" TEXT, "
    "\"price\" TEXT, \"publishDate\" REAL, \"title\" TEXT, \"uuid\" TEXT);"
    "CREATE INDEX \"Book_title_index\" ON \"Book\" (\"title\");"
    "CREATE UNIQUE INDEX \"Book_unique_uuid\" ON \"Book\" (\"uuid\");"
    "CREATE VIEW \"_search_Book_content\" AS SELECT \"Book\".\"_id\" AS \"_id\", ' ' || \"Book\".\"canonicalByline\" "
    "|| ' ' || CASE WHEN \"Book\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS "
    "\"canonicalByline\", ' ' || \"Book\".\"canonicalTitle\" || ' ' || CASE WHEN \"Book\".\"canonicalTitle\" GLOB "
    "'*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"canonicalTitle\" FROM \"Book\";"
    "CREATE VIRTUAL TABLE \"_search_Book\" USING fts5(\"canonicalByline\", \"canonicalTitle\", "
    "content='_search_Book_content', content_rowid='_id', tokenize='trigram case_sensitive 1');"
    "CREATE TRIGGER \"_search_Book_insert\" AFTER INSERT ON \"Book\" BEGIN INSERT INTO \"_search_Book\" (rowid, "
    "\"canonicalByline\", \"canonicalTitle\") VALUES (new.\"_id\", ' ' || \"new\".\"canonicalByline\" || ' ' || "
    "CASE WHEN \"new\".\"canonicalByline\" GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END, ' ' || "
    "\"new\".\"canonicalTitle\" || ' ' || CASE WHEN \"new\".\"canonicalTitle\" GLOB '*[^ 0-9a-z]*' THEN "
    "char(1, 1, 1) ELSE '' END); END;";

typedef struct {
    const char *uuid, *title, *canonical_title, *author, *canonical_author, *price, *precision, *language;
    double date;
    unsigned char color[5];
    int has_color;
} book;

static sqlite3 *db;

static void fail(const char *what) {
    fprintf(stderr, "catalog-seed: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
}

static void run(const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "catalog-seed: %s\n", message ? message : sql);
        exit(1);
    }
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL) != SQLITE_OK) fail(sql);
    return s;
}

static void step(sqlite3_stmt *s, const char *what) {
    if (sqlite3_step(s) != SQLITE_DONE) fail(what);
    sqlite3_reset(s);
}

static void bind_text_or_null(sqlite3_stmt *s, int i, const char *text) {
    if (text && *text) sqlite3_bind_text(s, i, text, -1, SQLITE_STATIC);
    else sqlite3_bind_null(s, i);
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

// MARK: - Authors by name (open addressing; keys are the names in DATA)

enum { author_slots = 1 << 16 };
static const char *author_names[author_slots];
static int64_t author_keys[author_slots];

static uint64_t hash(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/// The slot of `name`: where it is, or the empty slot where it goes.
static size_t author_slot(const char *name) {
    size_t i = hash(name) & (author_slots - 1);
    while (author_names[i] && strcmp(author_names[i], name) != 0) i = (i + 1) & (author_slots - 1);
    return i;
}

// MARK: - Reading DATA

static char *next_field(char **cursor) {
    char *start = *cursor, *end = strpbrk(start, "\t\n");
    if (end) { *end = 0; *cursor = end + 1; } else *cursor = start + strlen(start);
    return start;
}

static int hex(char c) { return c <= '9' ? c - '0' : (c | 32) - 'a' + 10; }

static book *read_books(const char *path, int *samples, int *synthetic) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(1); }
    data[size] = 0;
    fclose(file);
    if (sscanf(data, "S %d %d", samples, synthetic) != 2) { fprintf(stderr, "%s: bad header\n", path); exit(1); }
    char *cursor = strchr(data, '\n') + 1;
    int count = *samples + *synthetic;
    book *books = calloc((size_t)count + 1, sizeof *books);
    for (int i = 0; i < count; i++) {
        book *b = &books[i];
        b->uuid = next_field(&cursor);
        b->title = next_field(&cursor);
        b->canonical_title = next_field(&cursor);
        b->author = next_field(&cursor);
        b->canonical_author = next_field(&cursor);
        b->date = strtod(next_field(&cursor), NULL);
        b->price = next_field(&cursor);
        const char *color = next_field(&cursor);
        if (strlen(color) == 10) {
            b->has_color = 1;
            for (int k = 0; k < 5; k++) b->color[k] = (unsigned char)(hex(color[2 * k]) << 4 | hex(color[2 * k + 1]));
        }
        b->precision = next_field(&cursor);
        b->language = next_field(&cursor);
    }
    return books;
}

// MARK: - The catalogue's seed

// Rows are inserted many to a statement, as the store inserts them: inside a transaction, an
// INSERT that fires a trigger and may abort (a table with a search index and a UNIQUE index)
// runs under a statement savepoint, and FTS5 writes its pending terms at every savepoint, so a
// statement per row would write an index segment per row and then merge them all.
enum { rows_per_statement = 1000 };

/// The date added of every book: the seed's start, to the whole second.
static double date_added;

static const char *book_columns =
    "INSERT INTO \"Book\" (\"_id\", \"byline\", \"canonicalByline\", \"canonicalTitle\", \"color\", "
    "\"dateAdded\", \"datePrecision\", \"language\", \"price\", \"publishDate\", \"title\", \"uuid\") VALUES ";
enum { book_parameters = 12 };

/// "INSERT … VALUES (?, …), (?, …) …" for `rows` rows of `parameters` values, then `tail`.
static sqlite3_stmt *prepare_rows(const char *head, int parameters, int rows, const char *tail) {
    size_t size = strlen(head) + strlen(tail) + (size_t)rows * (size_t)(parameters * 3 + 4) + 1;
    char *sql = malloc(size), *end = sql;
    end += sprintf(end, "%s", head);
    for (int r = 0; r < rows; r++) {
        *end++ = r ? ',' : ' ';
        *end++ = '(';
        for (int p = 0; p < parameters; p++) { if (p) *end++ = ','; *end++ = '?'; }
        *end++ = ')';
    }
    sprintf(end, "%s", tail);
    sqlite3_stmt *s = prepare(sql);
    free(sql);
    return s;
}

/// Binds book `b` with primary key `key` as row `row` of a multi-row Book insert.
static void bind_book(sqlite3_stmt *s, int row, int64_t key, const book *b, int with_key) {
    int i = row * (book_parameters - !with_key) + 1;
    if (with_key) sqlite3_bind_int64(s, i++, key);
    sqlite3_bind_text(s, i++, b->author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, i++, b->canonical_author, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, i++, b->canonical_title, -1, SQLITE_STATIC);
    if (b->has_color) sqlite3_bind_blob(s, i++, b->color, 5, SQLITE_STATIC);
    else sqlite3_bind_null(s, i++);
    sqlite3_bind_double(s, i++, date_added);
    bind_text_or_null(s, i++, b->precision);
    bind_text_or_null(s, i++, b->language);
    sqlite3_bind_text(s, i++, b->price, -1, SQLITE_STATIC);
    sqlite3_bind_double(s, i++, b->date);
    sqlite3_bind_text(s, i++, b->title, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, i++, b->uuid, -1, SQLITE_STATIC);
}

static sqlite3_stmt *history_transaction, *history_change, *link_insert, *last_key, *book_insert;
static int64_t last_author, last_book;

/// One transaction of `books[start..<end]`, as `Catalog.save(_:authors:)` commits it: the
/// batch's new authors, then its books (a UUID already stored is skipped), their links, the
/// history rows of what was inserted, and the tables' last keys.
static void save(const book *books, int start, int end) {
    run("BEGIN IMMEDIATE");
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    sqlite3_bind_double(history_transaction, 1, (double)wall.tv_sec + (double)wall.tv_nsec / 1e9);
    step(history_transaction, "history transaction");
    sqlite3_bind_int64(history_change, 1, sqlite3_last_insert_rowid(db));
    int64_t first_author = last_author;
    int64_t *book_authors = malloc(sizeof(int64_t) * (size_t)(end - start));
    const book **new_authors = malloc(sizeof(book *) * (size_t)(end - start));
    int new_count = 0;
    for (int i = start; i < end; i++) {
        size_t slot = author_slot(books[i].author);
        if (!author_names[slot]) {
            author_names[slot] = books[i].author;
            author_keys[slot] = ++last_author;
            new_authors[new_count++] = &books[i];
        }
        book_authors[i - start] = author_keys[slot];
    }
    for (int done = 0; done < new_count; done += rows_per_statement) {
        int rows = new_count - done < rows_per_statement ? new_count - done : rows_per_statement;
        sqlite3_stmt *insert = prepare_rows(
            "INSERT INTO \"Author\" (\"_id\", \"canonicalName\", \"name\") VALUES", 3, rows, "");
        for (int r = 0; r < rows; r++) {
            sqlite3_bind_int64(insert, 3 * r + 1, first_author + done + r + 1);
            sqlite3_bind_text(insert, 3 * r + 2, new_authors[done + r]->canonical_author, -1, SQLITE_STATIC);
            sqlite3_bind_text(insert, 3 * r + 3, new_authors[done + r]->author, -1, SQLITE_STATIC);
        }
        step(insert, "author insert");
        sqlite3_finalize(insert);
    }
    for (int64_t key = first_author + 1; key <= last_author; key++) {
        sqlite3_bind_text(history_change, 2, "Author", -1, SQLITE_STATIC);
        sqlite3_bind_int64(history_change, 3, key);
        step(history_change, "history change");
    }
    int64_t base = last_book + 1;  // book i's key is base + i - start
    for (int done = start; done < end; done += rows_per_statement) {
        int rows = end - done < rows_per_statement ? end - done : rows_per_statement;
        sqlite3_stmt *insert = rows == rows_per_statement ? book_insert
            : prepare_rows(book_columns, book_parameters, rows, " ON CONFLICT (\"uuid\") DO NOTHING RETURNING \"_id\"");
        for (int r = 0; r < rows; r++) bind_book(insert, r, base + done + r - start, &books[done + r], 1);
        int rc;
        while ((rc = sqlite3_step(insert)) == SQLITE_ROW) {
            int64_t key = sqlite3_column_int64(insert, 0);  // a row written; a skipped one returns none
            if (key > last_book) last_book = key;
            sqlite3_bind_int64(link_insert, 1, book_authors[key - base]);
            sqlite3_bind_int64(link_insert, 2, key);
            step(link_insert, "author-book link");
            sqlite3_bind_text(history_change, 2, "Book", -1, SQLITE_STATIC);
            sqlite3_bind_int64(history_change, 3, key);
            step(history_change, "history change");
        }
        if (rc != SQLITE_DONE) fail("book insert");
        sqlite3_reset(insert);
        if (insert != book_insert) sqlite3_finalize(insert);
    }
    if (last_author != first_author) {
        sqlite3_bind_text(last_key, 1, "Author", -1, SQLITE_STATIC);
        sqlite3_bind_int64(last_key, 2, last_author);
        step(last_key, "last key");
    }
    sqlite3_bind_text(last_key, 1, "Book", -1, SQLITE_STATIC);
    sqlite3_bind_int64(last_key, 2, last_book);
    step(last_key, "last key");
    run("COMMIT");
    free(book_authors);
    free(new_authors);
}

/// `SeedPace`: the rows of the next transaction.
static int pace_rows = 0;
enum { batch_size = 20000, unsplit_rows = 2000 };

static void write_books(const book *books, int start, int end) {
    while (start < end) {
        int stop = start + pace_rows < end ? start + pace_rows : end;
        double began = now_seconds();
        save(books, start, stop);
        double seconds = now_seconds() - began;
        if (seconds > 0) {
            double fitting = (double)(stop - start) / seconds * 1.0 / 2;
            int rows = fitting > batch_size ? batch_size : (int)fitting;
            pace_rows = rows < unsplit_rows ? unsplit_rows : rows;
        }
        start = stop;
    }
}

static void seed(const book *books, int samples, int synthetic) {
    run("BEGIN IMMEDIATE");  // a new store's schema and metadata, in one transaction
    run(schema_sql);
    run(metadata_sql);
    run("COMMIT");
    history_transaction = prepare(
        "INSERT INTO _historyTransaction (timestamp, author, contextName) "
        "VALUES (?, 'books seed', 'run 05A18F29-D5BE-4121-B838-BDC56E2F9337')");
    history_change = prepare(
        "INSERT INTO _historyChange (transactionID, changeType, entity, objectKey) VALUES (?, 0, ?, ?)");
    book_insert = prepare_rows(
        book_columns, book_parameters, rows_per_statement, " ON CONFLICT (\"uuid\") DO NOTHING RETURNING \"_id\"");
    link_insert = prepare(
        "INSERT INTO \"Author_books\" (\"source\", \"destination\", \"inversePosition\") VALUES (?, ?, 0)");
    last_key = prepare("INSERT OR REPLACE INTO _primarykey (tableName, lastKey) VALUES (?, ?)");
    pace_rows = batch_size < unsplit_rows ? batch_size : unsplit_rows;
    write_books(books, 0, samples);
    for (int next = samples; next < samples + synthetic; next += batch_size) {
        int end = next + batch_size < samples + synthetic ? next + batch_size : samples + synthetic;
        write_books(books, next, end);
    }
    run("INSERT INTO _metadata (key, value) VALUES ('app.books.sampleBooks', 'chosen by books seed')");
    sqlite3_stmt *statements[] = {history_transaction, history_change, book_insert, link_insert, last_key};
    for (size_t i = 0; i < sizeof statements / sizeof *statements; i++) sqlite3_finalize(statements[i]);
}

static void seed_tight(const book *books, int count) {
    run("BEGIN IMMEDIATE");
    run(tight_schema_sql);
    run("COMMIT");
    const char *head =
        "INSERT INTO \"Book\" (\"byline\", \"canonicalByline\", \"canonicalTitle\", \"color\", \"dateAdded\", "
        "\"datePrecision\", \"language\", \"price\", \"publishDate\", \"title\", \"uuid\") VALUES";
    sqlite3_stmt *full = prepare_rows(head, book_parameters - 1, rows_per_statement, "");
    run("BEGIN IMMEDIATE");
    for (int done = 0; done < count; done += rows_per_statement) {
        int rows = count - done < rows_per_statement ? count - done : rows_per_statement;
        sqlite3_stmt *insert = rows == rows_per_statement ? full : prepare_rows(head, book_parameters - 1, rows, "");
        for (int r = 0; r < rows; r++) bind_book(insert, r, 0, &books[done + r], 0);
        step(insert, "book insert");
        if (insert != full) sqlite3_finalize(insert);
    }
    run("COMMIT");
    sqlite3_finalize(full);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: catalog-seed STORE DATA [--tight] [--cache-kib K]\n");
        return 64;
    }
    int tight = 0;
    long cache_kib = -1;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--tight") == 0) tight = 1;
        else if (strcmp(argv[i], "--cache-kib") == 0 && i + 1 < argc) cache_kib = strtol(argv[++i], NULL, 10);
        else { fprintf(stderr, "catalog-seed: unknown argument '%s'\n", argv[i]); return 64; }
    }
    if (cache_kib < 0) cache_kib = tight ? 0 : 16384;
    int samples = 0, synthetic = 0;
    book *books = read_books(argv[2], &samples, &synthetic);
    if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) fail(argv[1]);
    sqlite3_busy_timeout(db, 10000);
    run("PRAGMA journal_mode=WAL");
    run("PRAGMA foreign_keys=ON");
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    date_added = (double)wall.tv_sec;
    if (cache_kib > 0) {
        char pragma[96];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%ld; PRAGMA wal_autocheckpoint = 10000", cache_kib);
        run(pragma);
    }
    if (tight) seed_tight(books, samples + synthetic);
    else seed(books, samples, synthetic);
    if (sqlite3_close(db) != SQLITE_OK) fail("close");
    printf("Seeded %d books.\n", samples + synthetic);
    return 0;
}
