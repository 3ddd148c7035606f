/* The policy-file parser: a whole-file check, one error reported. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "runtime/policy.h"
#include "cpu.h"

/* Why kernel `name` cannot serve operation op's family (NULL: it can):
 * an implementation of that family in this build, or "libcrypto" (except
 * for Keccak, which the library does not offer the shim's callers). */
static const char *kernel_problem(const char *op, const char *name)
{
    int family = cs_policy_op_family(op);
    if (!strcmp(name, "libcrypto"))
        return family == CS_IMPL_KECCAK ? "Keccak has no libcrypto path: name an implementation"
                                        : NULL;
    return cs_impl_by_name(family, name) ? NULL : "unknown kernel (not in this build)";
}

/* Parses a plain decimal number (digits only) within 0..CS_POLICY_MAX_BITS. */
static int parse_bits(const char *s, unsigned *out)
{
    unsigned long v = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (unsigned long)(*s - '0');
        if (v > CS_POLICY_MAX_BITS)
            return 0;
    }
    *out = (unsigned)v;
    return 1;
}

/* Splits a line (comment removed) into at most max words; returns the count,
 * or max + 1 when there are more. */
static int split(char *line, char **words, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (n == max)
            return max + 1;
        words[n++] = w;
    }
    return n;
}

/* Whether every character of s is in the allowed set (and s is not empty). */
static int token_ok(const char *s, const char *extra)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr(extra, *s)))
            return 0;
    return 1;
}

/* A header line's one value (cpu, measured: the words w) into field (size
 * bytes, empty until set), made of token_ok's characters and extra: NULL,
 * or the error, usage for a malformed line, twice for a second one. */
static const char *header_value(char **w, int nw, char *field, size_t size, const char *extra,
                                const char *usage, const char *twice)
{
    if (nw != 2 || strlen(w[1]) >= size || !token_ok(w[1], extra))
        return usage;
    if (field[0])
        return twice;
    strcpy(field, w[1]);
    return NULL;
}

/* Appends feature name f to the comma list `list` of size cap; 0 if full. */
static int add_feature(char *list, size_t cap, const char *f)
{
    if (strlen(list) + strlen(f) + 2 > cap)
        return 0;
    if (*list)
        strcat(list, ",");
    strcat(list, f);
    return 1;
}

/* Parses a condition word "!adx,+avx512ifma" into r->without ("adx": the
 * CPU must lack it) and r->with ("avx512ifma": it must have it); NULL or
 * the error text. */
static const char *parse_condition(char *word, cs_policy_rule *r)
{
    char *save = NULL;
    for (char *tok = strtok_r(word, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if ((tok[0] != '!' && tok[0] != '+') || !tok[1])
            return "a condition is a list of !feature or +feature";
        if (!cs_cpu_feature_by_name(tok + 1, strlen(tok + 1)))
            return "unknown feature in a condition";
        char *list = tok[0] == '!' ? r->without : r->with;
        if (!add_feature(list, tok[0] == '!' ? sizeof r->without : sizeof r->with, tok + 1))
            return "condition too long";
    }
    return *r->without || *r->with ? NULL : "a condition is a list of !feature or +feature";
}

/* Parses a family word "@3.0,3.2+" (runtime/family.h) into r->families;
 * NULL or the error text. */
static const char *parse_families(const char *word, cs_policy_rule *r)
{
    const char *s = word + 1;
    r->families = 0;
    while (*s) {
        size_t len = strcspn(s, ",");
        int f = cs_family_by_name(s, len);
        if (f < 0)
            return "unknown libcrypto family (1.1, 3.0, 3.2+)";
        r->families |= CS_FAMILY_BIT(f);
        s += len;
        if (*s == ',' && !*++s)
            return "a family list is @family,family";
    }
    return r->families ? NULL : "a family list is @family,family";
}

/* Parses one rule's words into r; NULL or the error text. */
static const char *parse_rule(char **w, int n, cs_policy_rule *r)
{
    if (n < 4)
        return "a rule needs: operation min_bits max_bits kernel [!feature,+feature,...] [@family,...]";
    if (n > 6)
        return "extra words after the rule";
    if (strlen(w[0]) >= sizeof r->op || cs_policy_op_family(w[0]) < 0)
        return "unknown operation";
    if (!parse_bits(w[1], &r->min_bits) || !parse_bits(w[2], &r->max_bits))
        return "bits must be plain decimal numbers from 0 to 1000000";
    if (r->min_bits > r->max_bits)
        return "empty range (min_bits above max_bits)";
    if (strlen(w[3]) >= sizeof r->kernel)
        return "unknown kernel (not in this build)";
    const char *bad_kernel = kernel_problem(w[0], w[3]);
    if (bad_kernel)
        return bad_kernel;
    strcpy(r->op, w[0]);
    strcpy(r->kernel, w[3]);
    r->without[0] = r->with[0] = 0;
    r->families = 0;
    int seen_condition = 0, seen_families = 0;
    for (int i = 4; i < n; i++) {
        const char *why;
        if ((w[i][0] == '!' || w[i][0] == '+') && !seen_condition++ && !seen_families)
            why = parse_condition(w[i], r);
        else if (w[i][0] == '@' && !seen_families++)
            why = parse_families(w[i], r);
        else
            why = "extra words after the rule";
        if (why)
            return why;
    }
    return NULL;
}

int cs_policy_parse_text(const char *text, size_t len, cs_policy_rule *out, unsigned max,
                         cs_policy_meta *meta, char *err, size_t errlen)
{
    cs_policy_meta local;
    if (!meta)
        meta = &local;
    memset(meta, 0, sizeof *meta);
    unsigned n = 0, lineno = 0;
    const char *why = NULL;
    size_t pos = 0;
    while (pos < len && !why) {
        char line[CS_POLICY_MAX_LINE + 1];
        size_t l = 0;
        lineno++;
        for (; pos < len && text[pos] != '\n'; pos++, l++) {
            unsigned char c = (unsigned char)text[pos];
            if (c != '\t' && (c < 0x20 || c > 0x7e)) {
                why = "not text (a byte outside printable ASCII)";
                break;
            }
            if (l == CS_POLICY_MAX_LINE) {
                why = "line longer than 255 characters";
                break;
            }
            line[l] = (char)c;
        }
        if (why)
            break;
        pos++; /* the newline */
        line[l] = 0;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *w[7];
        int nw = split(line, w, 6);
        if (nw == 0)
            continue; /* blank or comment */
        if (meta->ended)
            why = "text after `end`";
        else if (!strcmp(w[0], "end")) {
            if (nw != 1)
                why = "`end` takes nothing";
            meta->ended = 1;
        }
        else if (!strcmp(w[0], "cpu"))
            why = header_value(w, nw, meta->cpu, sizeof meta->cpu, "-_.:+,",
                               "`cpu` takes one signature", "a second `cpu` line");
        else if (!strcmp(w[0], "measured"))
            why = header_value(w, nw, meta->measured, sizeof meta->measured, "-:TZ",
                               "`measured` takes one date (2026-12-01T05:40Z)",
                               "a second `measured` line");
        else if (n >= max)
            why = "too many rules";
        else if (!(why = parse_rule(w, nw, &out[n])))
            n++;
    }
    if (!why && meta->cpu[0] && !meta->ended) {
        why = "no `end` line: the file is truncated";
        lineno++;
    }
    if (why) {
        if (err)
            snprintf(err, errlen, "line %u: %s", lineno, why);
        return -1;
    }
    return (int)n;
}
