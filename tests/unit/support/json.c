#include "json.h"

#include <stdlib.h>
#include <string.h>

struct parser {
    const char *p;
};

static json *parse_value(struct parser *ps);

static void skip_ws(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')
        ps->p++;
}

static json *node(enum json_type t)
{
    json *j = calloc(1, sizeof *j);
    if (j)
        j->type = t;
    return j;
}

/* Appends a UTF-8 encoding of code point cp. */
static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 63));
        return 2;
    }
    out[0] = (char)(0xE0 | cp >> 12);
    out[1] = (char)(0x80 | ((cp >> 6) & 63));
    out[2] = (char)(0x80 | (cp & 63));
    return 3;
}

/* Parses a string token at ps->p (which is '"'); returns malloc'd text. */
static char *parse_string(struct parser *ps, size_t *lenp)
{
    const char *s = ++ps->p;
    size_t cap = 0;
    while (s[cap] && s[cap] != '"')
        cap += s[cap] == '\\' && s[cap + 1] ? 2 : 1;
    char *out = malloc(cap + 1), *o = out;
    if (!out)
        return NULL;
    while (*ps->p && *ps->p != '"') {
        char c = *ps->p++;
        if (c != '\\') {
            *o++ = c;
            continue;
        }
        c = *ps->p++;
        switch (c) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u': {
            unsigned cp = 0;
            for (int i = 0; i < 4; i++) {
                char h = *ps->p++;
                cp = cp * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 32) - 'a' + 10);
            }
            o += put_utf8(o, cp);
            break;
        }
        case 0: free(out); return NULL;
        default: *o++ = c; break;
        }
    }
    if (*ps->p != '"') {
        free(out);
        return NULL;
    }
    ps->p++;
    *o = 0;
    *lenp = (size_t)(o - out);
    return out;
}

/* Parses '[' ... ']' or '{' ... '}' into j. */
static int parse_container(struct parser *ps, json *j, int obj)
{
    char close = obj ? '}' : ']';
    size_t cap = 0;
    ps->p++;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(ps);
        if (obj) {
            size_t klen;
            if (*ps->p != '"' || !(key = parse_string(ps, &klen)))
                return -1;
            skip_ws(ps);
            if (*ps->p++ != ':') {
                free(key);
                return -1;
            }
        }
        json *v = parse_value(ps);
        if (!v) {
            free(key);
            return -1;
        }
        if (j->n == cap) {
            cap = cap ? cap * 2 : 8;
            j->items = realloc(j->items, cap * sizeof *j->items);
            if (obj)
                j->keys = realloc(j->keys, cap * sizeof *j->keys);
        }
        j->items[j->n] = v;
        if (obj)
            j->keys[j->n] = key;
        j->n++;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == close) {
            ps->p++;
            return 0;
        }
        return -1;
    }
}

static json *parse_value(struct parser *ps)
{
    json *j = NULL;
    skip_ws(ps);
    switch (*ps->p) {
    case '{':
    case '[':
        j = node(*ps->p == '{' ? JSON_OBJ : JSON_ARR);
        if (j && parse_container(ps, j, j->type == JSON_OBJ)) {
            json_free(j);
            return NULL;
        }
        return j;
    case '"':
        j = node(JSON_STR);
        if (j && !(j->str = parse_string(ps, &j->len))) {
            free(j);
            return NULL;
        }
        return j;
    case 't':
    case 'f':
    case 'n': {
        static const char *const words[] = {"true", "false", "null"};
        for (int w = 0; w < 3; w++) {
            size_t n = strlen(words[w]);
            if (!strncmp(ps->p, words[w], n)) {
                ps->p += n;
                j = node(w == 2 ? JSON_NULL : JSON_BOOL);
                if (j)
                    j->num = w == 0;
                return j;
            }
        }
        return NULL;
    }
    default: {
        char *end;
        double d = strtod(ps->p, &end);
        if (end == ps->p)
            return NULL;
        ps->p = end;
        j = node(JSON_NUM);
        if (j)
            j->num = d;
        return j;
    }
    }
}

json *json_parse(const char *text)
{
    struct parser ps = {text};
    json *j = parse_value(&ps);
    if (!j)
        return NULL;
    skip_ws(&ps);
    if (*ps.p) {
        json_free(j);
        return NULL;
    }
    return j;
}

void json_free(json *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        json_free(j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->str);
    free(j);
}

const json *json_get(const json *j, const char *key)
{
    if (!j || j->type != JSON_OBJ)
        return NULL;
    for (size_t i = 0; i < j->n; i++)
        if (!strcmp(j->keys[i], key))
            return j->items[i];
    return NULL;
}

const char *json_get_str(const json *j, const char *key)
{
    const json *v = json_get(j, key);
    return v && v->type == JSON_STR ? v->str : NULL;
}
