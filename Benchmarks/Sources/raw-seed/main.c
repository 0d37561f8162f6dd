// raw-seed: the small C program `books seed --count N` is timed against. It reads the
// books (with their canonical forms, computed beforehand by books-bench) from a
// tab-separated file and inserts them with their search index into a new WAL-mode store.
//
//     raw-seed STORE DATA [book-index] [author-index]
//
// DATA: "A <n>" then n lines "name<TAB>canonical"; "B <n>" then n lines
// "uuid<TAB>title<TAB>canonical<TAB>date<TAB>price<TAB>rrggbbaa<TAB>author".
#include "RawSQLite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *next_field(char **cursor) {
    char *start = *cursor, *end = strpbrk(start, "\t\n");
    if (end) { *end = 0; *cursor = end + 1; } else *cursor = start + strlen(start);
    return start;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: raw-seed STORE DATA [book-index] [author-index]\n");
        return 64;
    }
    raw_search_shape shape = {0, 0};
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "book-index") == 0) shape.book_index = 1;
        if (strcmp(argv[i], "author-index") == 0) shape.author_index = 1;
    }
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 1; }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (fread(data, 1, (size_t)size, file) != (size_t)size) { perror(argv[2]); return 1; }
    data[size] = 0;
    fclose(file);

    char *cursor = data;
    int author_count = 0, book_count = 0;
    if (sscanf(cursor, "A %d", &author_count) != 1) { fprintf(stderr, "%s: bad header\n", argv[2]); return 1; }
    cursor = strchr(cursor, '\n') + 1;
    raw_author *authors = calloc((size_t)author_count + 1, sizeof *authors);
    for (int i = 0; i < author_count; i++) {
        authors[i].name = next_field(&cursor);
        authors[i].canonical_name = next_field(&cursor);
    }
    if (sscanf(cursor, "B %d", &book_count) != 1) { fprintf(stderr, "%s: bad book header\n", argv[2]); return 1; }
    cursor = strchr(cursor, '\n') + 1;
    raw_book *books = calloc((size_t)book_count + 1, sizeof *books);
    for (int i = 0; i < book_count; i++) {
        raw_book *b = &books[i];
        b->uuid = next_field(&cursor);
        b->title = next_field(&cursor);
        b->canonical_title = next_field(&cursor);
        b->publish_date = strtod(next_field(&cursor), NULL);
        b->price = next_field(&cursor);
        unsigned long rgba = strtoul(next_field(&cursor), NULL, 16);
        b->color[0] = 1;
        b->color[1] = (unsigned char)(rgba >> 24);
        b->color[2] = (unsigned char)(rgba >> 16);
        b->color[3] = (unsigned char)(rgba >> 8);
        b->color[4] = (unsigned char)rgba;
        b->author = (int32_t)strtol(next_field(&cursor), NULL, 10);
    }
    int rc = raw_insert(argv[1], 1, shape, authors, author_count, books, book_count, NULL);
    if (rc) { fprintf(stderr, "raw-seed: %s\n", raw_last_error()); return 1; }
    printf("Inserted %d books and %d authors.\n", book_count, author_count);
    free(books);
    free(authors);
    free(data);
    return 0;
}
