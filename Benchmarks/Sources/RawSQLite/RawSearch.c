// Searching: through the FTS5 trigram index, and the baseline that folds every title at
// query time.
#include "RawSQLite.h"
#include "RawSearchIndex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct raw_searcher {
    sqlite3 *db;
    sqlite3_stmt *index;
    sqlite3_stmt *scan;
    raw_fold_fn fold;
};

static void canonical_function(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    raw_fold_fn fold = (raw_fold_fn)sqlite3_user_data(context);
    const char *text = (const char *)sqlite3_value_text(argv[0]);
    if (!text) { sqlite3_result_null(context); return; }
    char *result = fold(text, sqlite3_value_bytes(argv[0]));
    sqlite3_result_text(context, result, -1, free);
}

raw_searcher *raw_searcher_open(const char *path, raw_fold_fn fold) {
    raw_searcher *s = calloc(1, sizeof *s);
    s->fold = fold;
    if (raw_open(path, SQLITE_OPEN_READWRITE, &s->db)) { raw_searcher_close(s); return NULL; }
    sqlite3_create_function_v2(s->db, "canonical", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, (void *)fold,
                               canonical_function, NULL, NULL, NULL);
    int rc = sqlite3_prepare_v3(s->db,
        "SELECT \"_id\", \"title\" FROM \"Book\" WHERE \"_id\" IN "
        "(SELECT rowid FROM \"_search_Book\" WHERE \"_search_Book\" MATCH ?)",
        -1, SQLITE_PREPARE_PERSISTENT, &s->index, NULL);
    if (rc) raw_fail(s->db, rc, "prepare index search");  // no index: only the scan works
    rc = sqlite3_prepare_v3(s->db,
        "SELECT \"_id\", \"title\" FROM \"Book\" WHERE instr(canonical(\"title\"), ?) > 0",
        -1, SQLITE_PREPARE_PERSISTENT, &s->scan, NULL);
    if (rc) { raw_fail(s->db, rc, "prepare scan"); raw_searcher_close(s); return NULL; }
    return s;
}

void raw_searcher_close(raw_searcher *s) {
    if (!s) return;
    sqlite3_finalize(s->index);
    sqlite3_finalize(s->scan);
    sqlite3_close_v2(s->db);
    free(s);
}

static int64_t count_rows(sqlite3_stmt *statement, const char *argument) {
    if (!statement) return -1;
    sqlite3_bind_text(statement, 1, argument, -1, SQLITE_TRANSIENT);
    int64_t rows = 0, sum = 0;
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
        rows++;
        sum += sqlite3_column_bytes(statement, 1);
    }
    sqlite3_reset(statement);
    if (rc != SQLITE_DONE) { raw_fail(sqlite3_db_handle(statement), rc, "search"); return -1; }
    return rows + (sum < 0);
}

int64_t raw_search_index(raw_searcher *s, const char *term) {
    // A phrase query: the term is text, never FTS5 syntax.
    size_t length = strlen(term);
    char *phrase = malloc(2 * length + 3), *p = phrase;
    *p++ = '"';
    for (const char *c = term; *c; c++) { if (*c == '"') *p++ = '"'; *p++ = *c; }
    *p++ = '"';
    *p = 0;
    int64_t rows = count_rows(s->index, phrase);
    free(phrase);
    return rows;
}

int64_t raw_search_scan(raw_searcher *s, const char *term) { return count_rows(s->scan, term); }
