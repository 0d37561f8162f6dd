// The FTS5 trigram index over canonical text, the same shape as the store's search index:
// an external-content FTS5 table per indexed entity, maintained in the same transaction.
#include "RawSearchIndex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *table_names[2] = {"_search_Author", "_search_Book"};
static const char *content_tables[2] = {"Author", "Book"};
static const char *columns[2] = {"canonicalName", "canonicalTitle"};

static int wanted(raw_search_shape shape, int book) { return book ? shape.book_index : shape.author_index; }

int raw_search_probe(sqlite3 *db, raw_search_shape *shape) {
    sqlite3_stmt *s = NULL;
    shape->book_index = shape->author_index = 0;
    int rc = sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%fts5%'", -1, &s, NULL);
    if (rc) return raw_fail(db, rc, "probe search index");
    while (sqlite3_step(s) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(s, 0);
        if (name && strcmp(name, table_names[1]) == 0) shape->book_index = 1;
        if (name && strcmp(name, table_names[0]) == 0) shape->author_index = 1;
    }
    sqlite3_finalize(s);
    return 0;
}

int raw_search_create(sqlite3 *db, raw_search_shape shape) {
    char sql[512];
    for (int book = 0; book < 2; book++) {
        if (!wanted(shape, book)) continue;
        // The content view gives each row's indexed form, as the store's does.
        snprintf(sql, sizeof sql,
                 "CREATE VIEW \"%s_content\" AS SELECT \"_id\", ' ' || \"%s\" || ' ' || CASE WHEN \"%s\" "
                 "GLOB '*[^ 0-9a-z]*' THEN char(1, 1, 1) ELSE '' END AS \"%s\" FROM \"%s\"",
                 table_names[book], columns[book], columns[book], columns[book], content_tables[book]);
        int rc = raw_exec(db, sql);
        if (rc) return rc;
        snprintf(sql, sizeof sql,
                 "CREATE VIRTUAL TABLE \"%s\" USING fts5(\"%s\", content='%s_content', content_rowid='_id', tokenize='trigram case_sensitive 1')",
                 table_names[book], columns[book], table_names[book]);
        rc = raw_exec(db, sql);
        if (rc) return rc;
    }
    return 0;
}

int raw_search_prepare(sqlite3 *db, raw_search_shape shape, raw_index_writer *index) {
    char sql[512];
    memset(index, 0, sizeof *index);
    index->shape = shape;
    for (int book = 0; book < 2; book++) {
        if (!wanted(shape, book)) continue;
        const char *t = table_names[book], *c = columns[book];
        snprintf(sql, sizeof sql, "INSERT INTO \"%s\" (rowid, \"%s\") VALUES (?, ?)", t, c);
        int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &index->insert[book], NULL);
        if (rc) return raw_fail(db, rc, sql);
        snprintf(sql, sizeof sql, "INSERT INTO \"%s\" (\"%s\", rowid, \"%s\") VALUES ('delete', ?, ?)", t, t, c);
        rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &index->remove[book], NULL);
        if (rc) return raw_fail(db, rc, sql);
    }
    return 0;
}

// The indexed form, as the store's index holds it: the canonical text between spaces, then
// three U+0001 when the text holds a byte other than a space, 0-9 or a-z.
static int run(sqlite3_stmt *s, int64_t key, const char *text, const char *what) {
    size_t length = strlen(text);
    char small[512], *form = length + 6 <= sizeof small ? small : malloc(length + 6);
    int exotic = 0;
    for (const char *c = text; *c; c++) {
        if (!(*c == ' ' || (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z'))) { exotic = 1; break; }
    }
    form[0] = ' ';
    memcpy(form + 1, text, length);
    form[length + 1] = ' ';
    size_t end = length + 2;
    if (exotic) { form[end++] = 1; form[end++] = 1; form[end++] = 1; }
    sqlite3_bind_int64(s, 1, key);
    sqlite3_bind_text(s, 2, form, (int)end, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s);
    sqlite3_reset(s);
    if (form != small) free(form);
    return rc == SQLITE_DONE ? 0 : raw_fail(sqlite3_db_handle(s), rc, what);
}

int raw_search_insert(raw_index_writer *index, int book, int64_t key, const char *canonical) {
    if (!wanted(index->shape, book) || !canonical) return 0;
    return run(index->insert[book], key, canonical, "insert search entry");
}

int raw_search_remove(raw_index_writer *index, int book, int64_t key, const char *old_canonical) {
    if (!wanted(index->shape, book) || !old_canonical) return 0;
    return run(index->remove[book], key, old_canonical, "remove search entry");
}

void raw_search_finalize(raw_index_writer *index) {
    for (int book = 0; book < 2; book++) {
        sqlite3_finalize(index->insert[book]);
        sqlite3_finalize(index->remove[book]);
        index->insert[book] = index->remove[book] = NULL;
    }
}
