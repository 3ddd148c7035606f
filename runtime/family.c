/* libcrypto families (family.h). */
#include <string.h>

#include "family.h"

long cs_node_rank(const char *n)
{
    long part[3] = {0, 0, 0};
    int i = 0;
    if (strncmp(n, "OPENSSL_", 8))
        return -1;
    for (n += 8; *n && i < 3; n++) {
        if (*n >= '0' && *n <= '9')
            part[i] = part[i] * 10 + (*n - '0');
        else if (*n == '.' || *n == '_')
            i++;
        else
            break;
    }
    return part[0] * 1000000 + part[1] * 1000 + part[2];
}

int cs_family_of_node(const char *newest)
{
    long r = newest && *newest ? cs_node_rank(newest) : -1;
    if (r < 0)
        return CS_FAMILY_NEWEST;
    if (r < cs_node_rank("OPENSSL_3.0.0"))
        return CS_FAMILY_11;
    if (r < cs_node_rank("OPENSSL_3.2.0"))
        return CS_FAMILY_30;
    return CS_FAMILY_32;
}

static const char *const names[CS_FAMILY_COUNT] = {
    [CS_FAMILY_11] = "1.1",
    [CS_FAMILY_30] = "3.0",
    [CS_FAMILY_32] = "3.2+",
};

const char *cs_family_name(int family)
{
    return family >= 0 && family < CS_FAMILY_COUNT ? names[family] : NULL;
}

int cs_family_by_name(const char *s, size_t len)
{
    for (int f = 0; f < CS_FAMILY_COUNT; f++)
        if (strlen(names[f]) == len && !memcmp(names[f], s, len))
            return f;
    return -1;
}
