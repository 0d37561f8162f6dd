// A raw query over the books' columns, for workloads that differ only in their SQL
// (the filtered and sorted fetch of issue #27).
#ifndef RAW_QUERY_H
#define RAW_QUERY_H

#include <stdint.h>

/// Runs `sql`, a SELECT of the eight Book columns in table order ("_id", "canonicalTitle",
/// "color", "price", "publishDate", "title", "uuid", "author"), and reads every column of
/// every row as raw_fetch_all does. Returns 0 or an SQLite result code.
int raw_fetch_query(const char *path, const char *sql, int64_t *rows, int64_t *checksum);

#endif
