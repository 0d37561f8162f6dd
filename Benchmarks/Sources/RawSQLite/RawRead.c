// Reading books: every column of every row, and the month-grouped sorted list.
#include "RawSQLite.h"
#include "RawSearchIndex.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *select_books =
    "SELECT \"_id\", \"canonicalTitle\", \"color\", \"price\", \"publishDate\", \"title\", \"uuid\", "
    "\"author\" FROM \"Book\"";

/// Reads the current row's columns the way an app would use them, into a checksum.
static int64_t read_row(sqlite3_stmt *s, double *date) {
    int64_t sum = sqlite3_column_int64(s, 0);
    for (int column = 1; column <= 7; column++) {
        switch (column) {
        case 2: sum += sqlite3_column_bytes(s, 2); if (sqlite3_column_blob(s, 2)) sum += 1; break;
        case 4: *date = sqlite3_column_double(s, 4); sum += (int64_t)*date; break;
        case 7: sum += sqlite3_column_int64(s, 7); break;
        default: {
            const unsigned char *text = sqlite3_column_text(s, column);
            if (text) sum += text[0] + sqlite3_column_bytes(s, column);
        }
        }
    }
    return sum;
}

int raw_fetch_all(const char *path, int64_t *rows, int64_t *checksum) {
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, select_books, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare select");
    *rows = 0;
    *checksum = 0;
    double date;
    while (!rc && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        *checksum += read_row(s, &date);
        *rows += 1;
        rc = 0;
    }
    if (rc == SQLITE_DONE) rc = 0; else if (rc) rc = raw_fail(db, rc, "step select");
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc;
}

/// One book as a C program would keep it.
typedef struct {
    int64_t id, author, price_digits, title_length;
    double publish_date;
    char *title, *canonical_title;
    int price_exponent, color_length;
    unsigned char uuid[16], color[5];
} kept_book;

static char *copy_text(sqlite3_stmt *s, int column) {
    const unsigned char *text = sqlite3_column_text(s, column);
    if (!text) return NULL;
    size_t length = (size_t)sqlite3_column_bytes(s, column);
    char *copy = malloc(length + 1);
    memcpy(copy, text, length + 1);
    return copy;
}

static int hex_digit(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/// The 36-character canonical form into 16 bytes; 0 when it is not one.
static int parse_uuid(const unsigned char *text, int length, unsigned char out[16]) {
    if (!text || length != 36) return 0;
    for (int i = 0, j = 0; i < 16; i++, j += 2) {
        if (j == 8 || j == 13 || j == 18 || j == 23) j++;
        int high = hex_digit(text[j]), low = hex_digit(text[j + 1]);
        if (high < 0 || low < 0) return 0;
        out[i] = (unsigned char)(high << 4 | low);
    }
    return 1;
}

/// Plain decimal text ("45.25") into digits and a power of ten (4525, -2).
static void parse_price(const unsigned char *text, int64_t *digits, int *exponent) {
    *digits = 0;
    *exponent = 0;
    int negative = text && *text == '-', after_point = 0;
    for (const unsigned char *c = text + negative; text && *c; c++) {
        if (*c == '.') { after_point = 1; continue; }
        *digits = *digits * 10 + (*c - '0');
        if (after_point) *exponent -= 1;
    }
    if (negative) *digits = -*digits;
}

int raw_fetch_all_kept(const char *path, int64_t *rows, int64_t *checksum) {
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, select_books, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare select");
    size_t capacity = 1024, count = 0;
    kept_book *books = malloc(capacity * sizeof *books);
    while (!rc && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (count == capacity) books = realloc(books, (capacity *= 2) * sizeof *books);
        kept_book *b = &books[count++];
        b->id = sqlite3_column_int64(s, 0);
        b->canonical_title = copy_text(s, 1);
        b->color_length = sqlite3_column_bytes(s, 2);
        if (b->color_length > 5) b->color_length = 5;
        if (b->color_length > 0) memcpy(b->color, sqlite3_column_blob(s, 2), (size_t)b->color_length);
        parse_price(sqlite3_column_text(s, 3), &b->price_digits, &b->price_exponent);
        b->publish_date = sqlite3_column_double(s, 4);
        b->title = copy_text(s, 5);
        b->title_length = sqlite3_column_bytes(s, 5);
        if (!parse_uuid(sqlite3_column_text(s, 6), sqlite3_column_bytes(s, 6), b->uuid)) memset(b->uuid, 0, 16);
        b->author = sqlite3_column_int64(s, 7);
        rc = 0;
    }
    if (rc == SQLITE_DONE) rc = 0; else if (rc) rc = raw_fail(db, rc, "step select");
    // Every value read, as the Persistence side reads every attribute; then all freed.
    *checksum = 0;
    for (size_t i = 0; i < count; i++) {
        kept_book *b = &books[i];
        *checksum += b->id + b->uuid[0] + b->color[0] + b->price_digits + (int64_t)b->publish_date + b->author;
        *checksum += b->title_length + (b->canonical_title ? b->canonical_title[0] : 0);
        free(b->title);
        free(b->canonical_title);
    }
    free(books);
    *rows = (int64_t)count;
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc;
}

/// `year * 1000 + month` of a UTC instant (days to civil date, Howard Hinnant's algorithm).
static int64_t month_id(double seconds) {
    int64_t z = (int64_t)floor(seconds / 86400.0) + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t month = mp < 10 ? mp + 3 : mp - 9;
    int64_t year = yoe + era * 400 + (month <= 2);
    return year * 1000 + month;
}

int raw_fetch_months(const char *path, int64_t *sections, int64_t *rows) {
    sqlite3 *db = NULL;
    sqlite3_stmt *s = NULL;
    char sql[512];
    // `+` keeps SQLite from walking the date index (a table page read per row): it reads the
    // table in order and sorts, as Persistence's streamed sorted reads do.
    snprintf(sql, sizeof sql, "%s ORDER BY +\"publishDate\" DESC, \"title\" ASC", select_books);
    int rc = raw_open(path, SQLITE_OPEN_READWRITE, &db);
    if (!rc && (rc = sqlite3_prepare_v2(db, sql, -1, &s, NULL))) rc = raw_fail(db, rc, "prepare sorted select");
    *sections = 0;
    *rows = 0;
    int64_t current = -1, checksum = 0;
    // Each section keeps its rows' keys, as a list view would.
    size_t capacity = 1024, count = 0;
    int64_t *members = malloc(capacity * sizeof(int64_t));
    double date = 0;
    while (!rc && (rc = sqlite3_step(s)) == SQLITE_ROW) {
        checksum += read_row(s, &date);
        int64_t id = month_id(date);
        if (id != current) {
            current = id;
            *sections += 1;
            count = 0;
        }
        if (count == capacity) members = realloc(members, (capacity *= 2) * sizeof(int64_t));
        members[count++] = sqlite3_column_int64(s, 0);
        *rows += 1;
        rc = 0;
    }
    if (rc == SQLITE_DONE) rc = 0; else if (rc) rc = raw_fail(db, rc, "step sorted select");
    free(members);
    sqlite3_finalize(s);
    sqlite3_close_v2(db);
    return rc + (checksum == -1);
}
