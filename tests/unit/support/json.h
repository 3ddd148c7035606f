/* A tiny JSON reader for test vectors (Wycheproof files): parses a whole
 * document into a tree. Strings are kept as UTF-8 with escapes resolved;
 * numbers as double. Not for untrusted or huge input. */
#ifndef CRYPTOSHIM_TEST_JSON_H
#define CRYPTOSHIM_TEST_JSON_H

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

typedef struct json {
    enum json_type type;
    double num;          /* JSON_NUM, JSON_BOOL (0/1) */
    char *str;           /* JSON_STR, NUL-terminated */
    size_t len;          /* JSON_STR length */
    size_t n;            /* JSON_ARR / JSON_OBJ item count */
    struct json **items; /* JSON_ARR / JSON_OBJ values */
    char **keys;         /* JSON_OBJ keys */
} json;

/* Parses text; NULL on a syntax error. Free with json_free. */
json *json_parse(const char *text);
void json_free(json *j);
/* Member of an object by key, NULL if absent or j is not an object. */
const json *json_get(const json *j, const char *key);
/* String member, NULL if absent or not a string. */
const char *json_get_str(const json *j, const char *key);

#endif
