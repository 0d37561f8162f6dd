// plain-seed: the plain C program of issue #27 that `books seed --count N` is held to,
// written the way a C programmer would write it without Persistence's schema: a WAL store
// with a book table, a unique UUID index, a canonical-title index and an FTS5 trigram
// table over the canonical title; every book of the file inserted (or, for a UUID already
// there, updated) in one transaction; the canonical form computed here by lower-casing.
//
//     plain-seed STORE BOOKS [CACHE_KIB]
//
// CACHE_KIB, if given, sets the page cache (`PRAGMA cache_size = -CACHE_KIB`) for the
// transaction, as `books seed` raises its own to 64 MiB for a large save; without it the
// program keeps SQLite's default (2 MiB), as the plainest program would.
//
// BOOKS: one book a line, "uuid<TAB>title<TAB>author<TAB>date<TAB>price<TAB>rrggbbaa", the
// date in seconds since 1970, the price as decimal text, the color empty for none. books-bench writes it (the
// catalogue's sample books, then the synthetic ones, the books `books seed` adds).
//
// Unlike raw-seed, nothing is computed beforehand: the canonical forms (towlower of every
// character, in a UTF-8 locale) and the author keys are this program's own work, timed
// with it.
#include <locale.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static const char *schema =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=FULL;"
    "CREATE TABLE IF NOT EXISTS author (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, canonical_name TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS book (id INTEGER PRIMARY KEY, uuid TEXT NOT NULL, title TEXT NOT NULL, "
    "canonical_title TEXT NOT NULL, publish_date REAL, price TEXT, color BLOB, author INTEGER REFERENCES author(id));"
    "CREATE UNIQUE INDEX IF NOT EXISTS book_uuid ON book (uuid);"
    "CREATE INDEX IF NOT EXISTS book_canonical_title ON book (canonical_title);"
    "CREATE VIRTUAL TABLE IF NOT EXISTS book_search USING fts5 (canonical_title, tokenize = 'trigram');";

static const char *upsert_author =
    "INSERT INTO author (name, canonical_name) VALUES (?1, ?2) "
    "ON CONFLICT (name) DO UPDATE SET canonical_name = excluded.canonical_name RETURNING id";
static const char *upsert_book =
    "INSERT INTO book (uuid, title, canonical_title, publish_date, price, color, author) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (uuid) DO UPDATE SET title = excluded.title, "
    "canonical_title = excluded.canonical_title, publish_date = excluded.publish_date, price = excluded.price, "
    "color = excluded.color, author = excluded.author RETURNING id";
// FTS5 replaces the entry of a rowid already indexed (a book updated) under OR REPLACE.
static const char *index_book = "INSERT OR REPLACE INTO book_search (rowid, canonical_title) VALUES (?1, ?2)";

/// `text` lower-cased into `out` (of `capacity` bytes): each character through towlower,
/// or each byte through tolower when the text is not valid in the locale.
static const char *lower(const char *text, char *out, size_t capacity) {
    static wchar_t wide[4096];
    size_t n = mbstowcs(wide, text, sizeof wide / sizeof *wide - 1);
    if (n != (size_t)-1 && n < sizeof wide / sizeof *wide - 1) {
        for (size_t i = 0; i < n; i++) wide[i] = (wchar_t)towlower((wint_t)wide[i]);
        wide[n] = 0;
        if (wcstombs(out, wide, capacity) != (size_t)-1) return out;
    }
    size_t i = 0;
    for (; text[i] && i + 1 < capacity; i++) {
        unsigned char c = (unsigned char)text[i];
        out[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    out[i] = 0;
    return out;
}

/// The authors met so far: name to row key, open addressing (FNV-1a).
typedef struct {
    const char **names;
    sqlite3_int64 *keys;
    size_t mask;
} author_table;

static size_t slot(const author_table *t, const char *name) {
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 1099511628211u;
    size_t i = (size_t)h & t->mask;
    while (t->names[i] && strcmp(t->names[i], name) != 0) i = (i + 1) & t->mask;
    return i;
}

static char *next_field(char **cursor) {
    char *start = *cursor, *end = strpbrk(start, "\t\n");
    if (end) { *end = 0; *cursor = end + 1; } else *cursor = start + strlen(start);
    return start;
}

static int fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "plain-seed: %s: %s\n", what, sqlite3_errmsg(db));
    sqlite3_close_v2(db);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: plain-seed STORE BOOKS [CACHE_KIB]\n");
        return 64;
    }
    if (!setlocale(LC_CTYPE, "C.UTF-8")) setlocale(LC_CTYPE, "en_US.UTF-8");
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 66; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (!data || fread(data, 1, (size_t)size, file) != (size_t)size) { perror(argv[2]); return 1; }
    data[size] = 0;
    fclose(file);
    size_t lines = 0;
    for (char *p = data; (p = strchr(p, '\n')); p++) lines++;

    size_t capacity = 1024;
    while (capacity < 2 * lines) capacity *= 2;
    author_table authors = {calloc(capacity, sizeof(char *)), calloc(capacity, sizeof(sqlite3_int64)), capacity - 1};

    sqlite3 *db = NULL;
    sqlite3_stmt *author = NULL, *book = NULL, *entry = NULL;
    if (sqlite3_open(argv[1], &db) != SQLITE_OK) return fail(db, argv[1]);
    if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) return fail(db, "schema");
    if (argc == 4) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA cache_size = -%ld", strtol(argv[3], NULL, 10));
        if (sqlite3_exec(db, pragma, NULL, NULL, NULL) != SQLITE_OK) return fail(db, "cache size");
    }
    if (sqlite3_prepare_v2(db, upsert_author, -1, &author, NULL) != SQLITE_OK) return fail(db, "prepare author");
    if (sqlite3_prepare_v2(db, upsert_book, -1, &book, NULL) != SQLITE_OK) return fail(db, "prepare book");
    if (sqlite3_prepare_v2(db, index_book, -1, &entry, NULL) != SQLITE_OK) return fail(db, "prepare index");
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) return fail(db, "begin");

    static char canonical[16384];
    size_t count = 0;
    for (char *cursor = data; *cursor; count++) {
        const char *uuid = next_field(&cursor), *title = next_field(&cursor), *name = next_field(&cursor);
        double date = strtod(next_field(&cursor), NULL);
        const char *price = next_field(&cursor);
        const char *hex = next_field(&cursor);
        unsigned long rgba = strtoul(hex, NULL, 16);
        unsigned char color[4] = {(unsigned char)(rgba >> 24), (unsigned char)(rgba >> 16), (unsigned char)(rgba >> 8), (unsigned char)rgba};

        size_t i = slot(&authors, name);
        if (!authors.names[i]) {
            sqlite3_bind_text(author, 1, name, -1, SQLITE_STATIC);
            sqlite3_bind_text(author, 2, lower(name, canonical, sizeof canonical), -1, SQLITE_TRANSIENT);
            if (sqlite3_step(author) != SQLITE_ROW) return fail(db, "insert author");
            authors.names[i] = name;
            authors.keys[i] = sqlite3_column_int64(author, 0);
            sqlite3_reset(author);
        }
        lower(title, canonical, sizeof canonical);
        sqlite3_bind_text(book, 1, uuid, -1, SQLITE_STATIC);
        sqlite3_bind_text(book, 2, title, -1, SQLITE_STATIC);
        sqlite3_bind_text(book, 3, canonical, -1, SQLITE_STATIC);
        sqlite3_bind_double(book, 4, date);
        sqlite3_bind_text(book, 5, price, -1, SQLITE_STATIC);
        if (*hex) sqlite3_bind_blob(book, 6, color, sizeof color, SQLITE_STATIC); else sqlite3_bind_null(book, 6);
        sqlite3_bind_int64(book, 7, authors.keys[i]);
        if (sqlite3_step(book) != SQLITE_ROW) return fail(db, "insert book");
        sqlite3_int64 key = sqlite3_column_int64(book, 0);
        sqlite3_reset(book);
        sqlite3_bind_int64(entry, 1, key);
        sqlite3_bind_text(entry, 2, canonical, -1, SQLITE_STATIC);
        if (sqlite3_step(entry) != SQLITE_DONE) return fail(db, "index book");
        sqlite3_reset(entry);
    }
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) return fail(db, "commit");
    sqlite3_finalize(author);
    sqlite3_finalize(book);
    sqlite3_finalize(entry);
    sqlite3_close_v2(db);
    printf("Seeded %zu books.\n", count);
    free(authors.names);
    free(authors.keys);
    free(data);
    return 0;
}
