// Issue #47's app-shaped comparison, raw side: see RawApp.h.
#include "RawSQLite.h"
#include "RawSearchIndex.h"

#include <sqlite3.h>
#include <stdio.h>

static const char *app_schema =
    "CREATE TABLE \"appBook\" (\"id\" INTEGER PRIMARY KEY, \"title\" TEXT NOT NULL, \"canonicalTitle\" TEXT, "
    "\"publishDate\" DOUBLE NOT NULL, \"price\" TEXT NOT NULL, \"color\" BLOB)";

int raw_app_insert(const char *path, const raw_app_book *books, int32_t count) {
    sqlite3 *db = NULL;
    sqlite3_stmt *insert = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &db);
    if (!rc) rc = raw_exec(db, "PRAGMA synchronous = FULL");
    if (!rc) rc = raw_exec(db, "BEGIN IMMEDIATE");
    if (!rc) rc = raw_exec(db, app_schema);
    if (!rc && (rc = sqlite3_prepare_v3(db,
            "INSERT INTO \"appBook\" (\"title\", \"canonicalTitle\", \"publishDate\", \"price\", \"color\") "
            "VALUES (?, ?, ?, ?, ?)", -1, SQLITE_PREPARE_PERSISTENT, &insert, NULL)))
        rc = raw_fail(db, rc, "prepare insert");
    for (int32_t i = 0; !rc && i < count; i++) {
        const raw_app_book *b = &books[i];
        sqlite3_bind_text(insert, 1, b->title, -1, SQLITE_STATIC);
        if (b->canonical_title) sqlite3_bind_text(insert, 2, b->canonical_title, -1, SQLITE_STATIC);
        else sqlite3_bind_null(insert, 2);
        sqlite3_bind_double(insert, 3, b->publish_date);
        sqlite3_bind_text(insert, 4, b->price, -1, SQLITE_STATIC);
        if (b->color) sqlite3_bind_blob(insert, 5, b->color, b->color_length, SQLITE_STATIC);
        else sqlite3_bind_null(insert, 5);
        rc = sqlite3_step(insert);
        sqlite3_reset(insert);
        rc = rc == SQLITE_DONE ? 0 : raw_fail(db, rc, "insert");
    }
    if (!rc) rc = raw_exec(db, "COMMIT");
    if (rc && db) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_finalize(insert);
    sqlite3_close_v2(db);
    return rc;
}

int raw_app_fetch(const char *path, const char *where, int64_t *rows, int64_t *checksum) {
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT \"id\", \"title\", \"canonicalTitle\", \"publishDate\", \"price\", \"color\" FROM \"appBook\" %s",
             where ? where : "");
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare select");
    *rows = 0;
    *checksum = 0;
    while (!rc && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t sum = sqlite3_column_int64(s, 0);
        for (int column = 1; column <= 4; column += 1) {
            if (column == 3) { sum += (int64_t)sqlite3_column_double(s, 3); continue; }
            const unsigned char *text = sqlite3_column_text(s, column);
            if (text) sum += text[0] + sqlite3_column_bytes(s, column);
        }
        const unsigned char *color = sqlite3_column_blob(s, 5);
        if (color) sum += color[1] + sqlite3_column_bytes(s, 5);
        *checksum += sum;
        *rows += 1;
        rc = 0;
    }
    if (rc == SQLITE_DONE) rc = 0; else if (rc) rc = raw_fail(db, rc, "step select");
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc;
}

int raw_count_rows(const char *path, const char *table, int64_t *count) {
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM \"%s\"", table);
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare count");
    if (!rc) rc = sqlite3_step(s) == SQLITE_ROW ? 0 : raw_fail(db, SQLITE_ERROR, "count");
    *count = rc ? 0 : sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc;
}
