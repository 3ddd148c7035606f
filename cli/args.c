/* Strict parsing of numeric command-line arguments, shared by the CLI
 * commands: plain decimal only, so "-1", "1e3", "12abc" or a value past
 * the range is an error instead of a wrapped or truncated number. */
#include "cli.h"

int cli_parse_number(const char *s, unsigned long lo, unsigned long hi, unsigned long *out)
{
    unsigned long v = 0;
    if (!s || !*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        if (v > (hi - (unsigned long)(*s - '0')) / 10)
            return 0; /* would exceed hi (and never wraps) */
        v = v * 10 + (unsigned long)(*s - '0');
    }
    if (v < lo)
        return 0;
    *out = v;
    return 1;
}
