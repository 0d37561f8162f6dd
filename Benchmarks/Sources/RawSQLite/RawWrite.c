// Updating and deleting books, with the canonical title and search index kept in step.
#include "RawSQLite.h"
#include "RawSearchIndex.h"

#include <stdlib.h>
#include <string.h>

/// The indexed (canonical) title of a book, copied; NULL if none.
static char *old_canonical(sqlite3_stmt *select, int64_t key) {
    char *result = NULL;
    sqlite3_bind_int64(select, 1, key);
    if (sqlite3_step(select) == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(select, 0);
        if (text) result = strdup((const char *)text);
    }
    sqlite3_reset(select);
    return result;
}

int raw_update(const char *path, raw_search_shape shape, const int64_t *keys,
               const char *const *titles, const char *const *prices, int32_t count, raw_fold_fn fold) {
    sqlite3 *db = NULL;
    sqlite3_stmt *update = NULL, *select = NULL;
    raw_index_writer index = {0};
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (rc || (rc = raw_exec(db, "BEGIN IMMEDIATE"))) goto done;
    if ((rc = raw_search_prepare(db, shape, &index))) goto done;
    rc = sqlite3_prepare_v3(db, "UPDATE \"Book\" SET \"canonicalTitle\" = ?, \"price\" = ?, \"title\" = ? WHERE \"_id\" = ?",
                            -1, SQLITE_PREPARE_PERSISTENT, &update, NULL);
    if (!rc) rc = sqlite3_prepare_v3(db, "SELECT \"canonicalTitle\" FROM \"Book\" WHERE \"_id\" = ?",
                                     -1, SQLITE_PREPARE_PERSISTENT, &select, NULL);
    if (rc) { rc = raw_fail(db, rc, "prepare update"); goto done; }
    for (int32_t i = 0; i < count && !rc; i++) {
        char *old = shape.book_index ? old_canonical(select, keys[i]) : NULL;
        char *canonical = fold(titles[i], (int32_t)strlen(titles[i]));
        sqlite3_bind_text(update, 1, canonical, -1, SQLITE_STATIC);
        sqlite3_bind_text(update, 2, prices[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(update, 3, titles[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(update, 4, keys[i]);
        rc = sqlite3_step(update);
        sqlite3_reset(update);
        if (rc != SQLITE_DONE) rc = raw_fail(db, rc, "update book");
        else if (!(rc = raw_search_remove(&index, 1, keys[i], old))) rc = raw_search_insert(&index, 1, keys[i], canonical);
        free(old);
        free(canonical);
    }
    if (!rc) rc = raw_exec(db, "COMMIT");
done:
    if (rc && db) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    raw_search_finalize(&index);
    sqlite3_finalize(update);
    sqlite3_finalize(select);
    sqlite3_close_v2(db);
    return rc;
}

int raw_delete(const char *path, raw_search_shape shape, const int64_t *keys, int32_t count) {
    sqlite3 *db = NULL;
    sqlite3_stmt *delete = NULL, *select = NULL;
    raw_index_writer index = {0};
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (rc || (rc = raw_exec(db, "BEGIN IMMEDIATE"))) goto done;
    if ((rc = raw_search_prepare(db, shape, &index))) goto done;
    rc = sqlite3_prepare_v3(db, "DELETE FROM \"Book\" WHERE \"_id\" = ?", -1, SQLITE_PREPARE_PERSISTENT, &delete, NULL);
    if (!rc) rc = sqlite3_prepare_v3(db, "SELECT \"canonicalTitle\" FROM \"Book\" WHERE \"_id\" = ?",
                                     -1, SQLITE_PREPARE_PERSISTENT, &select, NULL);
    if (rc) { rc = raw_fail(db, rc, "prepare delete"); goto done; }
    for (int32_t i = 0; i < count && !rc; i++) {
        char *old = shape.book_index ? old_canonical(select, keys[i]) : NULL;
        rc = raw_search_remove(&index, 1, keys[i], old);
        free(old);
        if (rc) break;
        sqlite3_bind_int64(delete, 1, keys[i]);
        rc = sqlite3_step(delete);
        sqlite3_reset(delete);
        rc = rc == SQLITE_DONE ? 0 : raw_fail(db, rc, "delete book");
    }
    if (!rc) rc = raw_exec(db, "COMMIT");
done:
    if (rc && db) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    raw_search_finalize(&index);
    sqlite3_finalize(delete);
    sqlite3_finalize(select);
    sqlite3_close_v2(db);
    return rc;
}
