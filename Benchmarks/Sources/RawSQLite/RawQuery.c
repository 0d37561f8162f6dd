// Any SELECT of the books' columns, read the way raw_fetch_all reads them.
#include "RawQuery.h"
#include "RawSearchIndex.h"

#include <sqlite3.h>

int raw_fetch_query(const char *path, const char *sql, int64_t *rows, int64_t *checksum) {
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare query");
    *rows = 0;
    *checksum = 0;
    while (!rc && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t sum = sqlite3_column_int64(s, 0) + sqlite3_column_int64(s, 7);
        sum += sqlite3_column_bytes(s, 2) + (sqlite3_column_blob(s, 2) != NULL);
        sum += (int64_t)sqlite3_column_double(s, 4);
        static const int texts[] = {1, 3, 5, 6};  // canonicalTitle, price, title, uuid
        for (int i = 0; i < 4; i++) {
            const unsigned char *text = sqlite3_column_text(s, texts[i]);
            if (text) sum += text[0] + sqlite3_column_bytes(s, texts[i]);
        }
        *checksum += sum;
        *rows += 1;
        rc = 0;
    }
    if (rc == SQLITE_DONE) rc = 0; else if (rc) rc = raw_fail(db, rc, "step query");
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc;
}
