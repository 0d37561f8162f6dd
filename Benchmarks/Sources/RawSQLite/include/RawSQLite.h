// Hand-written SQLite C code doing the same work as Persistence: the floor the benchmarks
// compare against. Same schema shape (tables, columns, indexes, search index), same
// values, every statement prepared once, one transaction per unit of work.
#ifndef RAW_SQLITE_H
#define RAW_SQLITE_H

#include <stddef.h>
#include <stdint.h>

/// A book's values, ready to bind.
typedef struct {
    const char *uuid;            ///< canonical uppercase UUID text
    const char *title;
    const char *canonical_title; ///< NULL: fold `title` with the fold function
    double publish_date;         ///< seconds since 1970
    const char *price;           ///< exact decimal text
    unsigned char color[5];      ///< format byte 1, then r, g, b, a
    int32_t author;              ///< 0-based index into the authors
} raw_book;

/// An author's values.
typedef struct {
    const char *name;
    const char *canonical_name;  ///< NULL: fold `name` with the fold function
} raw_author;

/// Returns the canonical form of `length` bytes of UTF-8 text as a malloc'd,
/// NUL-terminated string that the caller frees.
typedef char *(*raw_fold_fn)(const char *text, int32_t length);

/// What the search index covers, read from a Persistence store (see raw_probe_search).
typedef struct {
    int32_t book_index;    ///< Book has an FTS5 index over canonicalTitle
    int32_t author_index;  ///< Author has an FTS5 index over canonicalName
} raw_search_shape;

/// The last error's message (static storage; valid until the next call).
const char *raw_last_error(void);

/// Reads which search indexes a store has. Returns 0 or an SQLite result code.
int raw_probe_search(const char *path, raw_search_shape *shape);

/// Inserts the authors and books, with their canonical forms and search index rows, in
/// one transaction into the store at `path` (WAL mode). With `create_schema`, the file
/// must be new and the tables and indexes are created first; otherwise they must exist
/// and the next primary keys follow the largest present. Returns 0 or an SQLite code.
int raw_insert(const char *path, int create_schema, raw_search_shape shape,
               const raw_author *authors, int32_t author_count,
               const raw_book *books, int32_t book_count, raw_fold_fn fold);

/// Reads every column of every book; `checksum` sums lengths and numbers so nothing is
/// optimised away; `rows` is the number of rows read.
int raw_fetch_all(const char *path, int64_t *rows, int64_t *checksum);

/// Workload 2 as a C program that keeps the books would do it: every row's values copied out
/// into a struct (text copied, the UUID parsed into 16 bytes, the price parsed into digits and
/// an exponent, the color's bytes copied), all rows kept until the end, then freed. Not the
/// target's floor (that is raw_fetch_all): the same work as Persistence's objects, for scale.
int raw_fetch_all_kept(const char *path, int64_t *rows, int64_t *checksum);

/// Reads every book sorted by publication date (newest first, then title) and groups
/// them into months (UTC); returns the number of sections and rows.
int raw_fetch_months(const char *path, int64_t *sections, int64_t *rows);

/// Sets a new title and price on the books with the given primary keys, keeping the
/// canonical title and search index in step, in one transaction.
int raw_update(const char *path, raw_search_shape shape, const int64_t *keys,
               const char *const *titles, const char *const *prices, int32_t count, raw_fold_fn fold);

/// Deletes the books with the given primary keys and their search index rows, in one
/// transaction.
int raw_delete(const char *path, raw_search_shape shape, const int64_t *keys, int32_t count);

/// An open read connection for searching.
typedef struct raw_searcher raw_searcher;

/// Opens `path` for searching; registers `canonical(x)` over `fold` for the scan.
raw_searcher *raw_searcher_open(const char *path, raw_fold_fn fold);
void raw_searcher_close(raw_searcher *searcher);

/// Books whose canonical title contains `term` (already canonical), through the search
/// index; returns the number of matches, or -1 on error.
int64_t raw_search_index(raw_searcher *searcher, const char *term);

/// The same answer by folding every title at query time (what CONTAINS[cd] costs).
int64_t raw_search_scan(raw_searcher *searcher, const char *term);

#include "RawQuery.h"
#include "RawApp.h"

#endif
