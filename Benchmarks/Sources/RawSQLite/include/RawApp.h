// The raw C side of issue #47's app-shaped comparison: one table of five attributes, the
// rows inserted one statement each in one transaction, and every column of every row read.
#ifndef RAW_APP_H
#define RAW_APP_H

#include <stdint.h>

/// One app book's values, ready to bind.
typedef struct {
    const char *title;
    const char *canonical_title;  ///< NULL for none
    double publish_date;          ///< seconds since 1970
    const char *price;            ///< exact decimal text
    const unsigned char *color;   ///< NULL for none
    int32_t color_length;
} raw_app_book;

/// Creates the table in the new store at `path` (WAL, `synchronous = FULL`) and inserts the
/// books with one prepared statement, in one transaction. Returns 0 or an SQLite code.
int raw_app_insert(const char *path, const raw_app_book *books, int32_t count);

/// Reads every column of every row of the table (`where`, if not NULL, filters and orders:
/// "WHERE … ORDER BY …"); `rows` is the number of rows read, `checksum` sums what was read.
int raw_app_fetch(const char *path, const char *where, int64_t *rows, int64_t *checksum);

/// The number of rows of `table` in the store at `path`.
int raw_count_rows(const char *path, const char *table, int64_t *count);

#endif
