// The FTS5 trigram search index, kept in step by the raw side (internal to RawSQLite).
#ifndef RAW_SEARCH_INDEX_H
#define RAW_SEARCH_INDEX_H

#include "RawSQLite.h"
#include <sqlite3.h>

/// Prepared statements maintaining the index of Book (1) and Author (0).
typedef struct {
    raw_search_shape shape;
    sqlite3_stmt *insert[2];
    sqlite3_stmt *remove[2];
} raw_index_writer;

int raw_fail(sqlite3 *db, int rc, const char *what);
int raw_exec(sqlite3 *db, const char *sql);
int raw_open(const char *path, int flags, sqlite3 **db);

int raw_search_probe(sqlite3 *db, raw_search_shape *shape);
int raw_search_create(sqlite3 *db, raw_search_shape shape);
int raw_search_prepare(sqlite3 *db, raw_search_shape shape, raw_index_writer *index);
int raw_search_insert(raw_index_writer *index, int book, int64_t key, const char *canonical);
/// Removes a row's entry; `old_canonical` is the text that was indexed.
int raw_search_remove(raw_index_writer *index, int book, int64_t key, const char *old_canonical);
void raw_search_finalize(raw_index_writer *index);

#endif
