// The raw side of the benchmarks: the SQLite C API used directly, the way a careful C
// programmer would: statements prepared once, values bound with SQLITE_STATIC, one
// transaction per unit of work. See RawSQLite.h.
#include "RawSQLite.h"
#include "RawSearchIndex.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char last_error[512];

const char *raw_last_error(void) { return last_error; }

int raw_fail(sqlite3 *db, int rc, const char *what) {
    snprintf(last_error, sizeof last_error, "%s: %s (%d)", what, db ? sqlite3_errmsg(db) : "no connection", rc);
    return rc ? rc : SQLITE_ERROR;
}

int raw_exec(sqlite3 *db, const char *sql) {
    char *message = NULL;
    int rc = sqlite3_exec(db, sql, NULL, NULL, &message);
    if (rc != SQLITE_OK) {
        snprintf(last_error, sizeof last_error, "%s: %s", sql, message ? message : "?");
        sqlite3_free(message);
    }
    return rc;
}

/// Opens like Persistence does: WAL, foreign keys on, busy timeout.
int raw_open(const char *path, int flags, sqlite3 **db) {
    int rc = sqlite3_open_v2(path, db, flags, NULL);
    if (rc != SQLITE_OK) return raw_fail(*db, rc, path);
    sqlite3_busy_timeout(*db, 10000);
    if (!(flags & SQLITE_OPEN_READONLY) && (rc = raw_exec(*db, "PRAGMA journal_mode=WAL"))) return rc;
    return raw_exec(*db, "PRAGMA foreign_keys=ON");
}

static const char *schema_sql =
    "CREATE TABLE \"Author\" (\"_id\" INTEGER PRIMARY KEY, \"canonicalName\" TEXT, \"name\" TEXT);"
    "CREATE TABLE \"Book\" (\"_id\" INTEGER PRIMARY KEY, \"canonicalTitle\" TEXT, \"color\" BLOB, "
    "\"price\" TEXT, \"publishDate\" REAL, \"title\" TEXT, \"uuid\" TEXT, \"author\" INTEGER);"
    "CREATE UNIQUE INDEX \"Author_unique_name\" ON \"Author\" (\"name\");"
    "CREATE INDEX \"Book_publishDate_index\" ON \"Book\" (\"publishDate\");"
    "CREATE INDEX \"Book_title_index\" ON \"Book\" (\"title\");"
    "CREATE INDEX \"Book_author_index\" ON \"Book\" (\"author\");"
    "CREATE UNIQUE INDEX \"Book_unique_uuid\" ON \"Book\" (\"uuid\");";

static char *folded(raw_fold_fn fold, const char *given, const char *text) {
    if (given) return (char *)given;
    return fold(text, (int32_t)strlen(text));
}

static int64_t max_key(sqlite3 *db, const char *table) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT coalesce(max(_id), 0) FROM \"%s\"", table);
    sqlite3_stmt *s = NULL;
    int64_t key = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
        key = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return key;
}

int raw_insert(const char *path, int create_schema, raw_search_shape shape,
               const raw_author *authors, int32_t author_count,
               const raw_book *books, int32_t book_count, raw_fold_fn fold) {
    sqlite3 *db = NULL;
    sqlite3_stmt *author_insert = NULL, *book_insert = NULL;
    raw_index_writer index = {0};
    int64_t *author_keys = malloc(sizeof(int64_t) * (author_count ? author_count : 1));
    int rc = raw_open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db);
    if (rc) goto done;
    if ((rc = raw_exec(db, "BEGIN IMMEDIATE"))) goto done;
    if (create_schema) {
        if ((rc = raw_exec(db, schema_sql))) goto done;
        if ((rc = raw_search_create(db, shape))) goto done;
    }
    if ((rc = raw_search_prepare(db, shape, &index))) goto done;
    rc = sqlite3_prepare_v3(db, "INSERT INTO \"Author\" (\"_id\", \"canonicalName\", \"name\") VALUES (?, ?, ?)",
                            -1, SQLITE_PREPARE_PERSISTENT, &author_insert, NULL);
    if (rc) { rc = raw_fail(db, rc, "prepare author insert"); goto done; }
    rc = sqlite3_prepare_v3(db,
        "INSERT INTO \"Book\" (\"_id\", \"canonicalTitle\", \"color\", \"price\", \"publishDate\", "
        "\"title\", \"uuid\", \"author\") VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        -1, SQLITE_PREPARE_PERSISTENT, &book_insert, NULL);
    if (rc) { rc = raw_fail(db, rc, "prepare book insert"); goto done; }

    int64_t next = max_key(db, "Author") + 1;
    for (int32_t i = 0; i < author_count; i++) {
        char *canonical = folded(fold, authors[i].canonical_name, authors[i].name);
        author_keys[i] = next++;
        sqlite3_bind_int64(author_insert, 1, author_keys[i]);
        sqlite3_bind_text(author_insert, 2, canonical, -1, SQLITE_STATIC);
        sqlite3_bind_text(author_insert, 3, authors[i].name, -1, SQLITE_STATIC);
        rc = sqlite3_step(author_insert);
        sqlite3_reset(author_insert);
        if (rc == SQLITE_DONE) rc = raw_search_insert(&index, 0, author_keys[i], canonical);
        else rc = raw_fail(db, rc, "insert author");
        if (canonical != authors[i].canonical_name) free(canonical);
        if (rc) goto done;
    }
    next = max_key(db, "Book") + 1;
    for (int32_t i = 0; i < book_count; i++) {
        const raw_book *b = &books[i];
        char *canonical = folded(fold, b->canonical_title, b->title);
        int64_t key = next++;
        sqlite3_bind_int64(book_insert, 1, key);
        sqlite3_bind_text(book_insert, 2, canonical, -1, SQLITE_STATIC);
        sqlite3_bind_blob(book_insert, 3, b->color, 5, SQLITE_STATIC);
        sqlite3_bind_text(book_insert, 4, b->price, -1, SQLITE_STATIC);
        sqlite3_bind_double(book_insert, 5, b->publish_date);
        sqlite3_bind_text(book_insert, 6, b->title, -1, SQLITE_STATIC);
        sqlite3_bind_text(book_insert, 7, b->uuid, -1, SQLITE_STATIC);
        if (b->author >= 0 && b->author < author_count) sqlite3_bind_int64(book_insert, 8, author_keys[b->author]);
        else sqlite3_bind_null(book_insert, 8);
        rc = sqlite3_step(book_insert);
        sqlite3_reset(book_insert);
        if (rc == SQLITE_DONE) rc = raw_search_insert(&index, 1, key, canonical);
        else rc = raw_fail(db, rc, "insert book");
        if (canonical != b->canonical_title) free(canonical);
        if (rc) goto done;
    }
    rc = raw_exec(db, "COMMIT");
done:
    if (rc && db) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    raw_search_finalize(&index);
    sqlite3_finalize(author_insert);
    sqlite3_finalize(book_insert);
    sqlite3_close_v2(db);
    free(author_keys);
    return rc;
}

int raw_probe_search(const char *path, raw_search_shape *shape) {
    sqlite3 *db = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READONLY, &db);
    if (!rc) rc = raw_search_probe(db, shape);
    sqlite3_close_v2(db);
    return rc;
}
