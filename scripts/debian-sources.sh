#!/usr/bin/env bash
# Prints "URI SUITE COMPONENTS KEYRING" (components comma-separated,
# keyring "-" when the entry names none) for each "deb" entry of the
# machine's apt sources: one-line *.list files and deb822 *.sources
# stanzas (disabled ones left out). Which entries to use (the Debian
# archive, its keyring) is the caller's choice (scripts/fetch-debian-
# openssl.sh, scripts/oldhw/apt-private.sh).
set -eu
# One-line format: deb [opts] URI SUITE COMPONENTS...
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk '$1 == "deb" {
            i = 2; signed = "-"
            if ($2 ~ /^\[/) {
                while (i <= NF) {
                    if ($i ~ /signed-by=/) { s = $i; sub(/.*signed-by=/, "", s); sub(/\]$/, "", s); signed = s }
                    if ($i ~ /\]$/) { i++; break }
                    i++
                }
            }
            uri = $i; suite = $(i + 1); comps = ""
            for (j = i + 2; j <= NF; j++) comps = comps (comps == "" ? "" : ",") $j
            print uri, suite, comps, signed
        }' "$f"
done
# deb822 format: stanzas separated by blank lines.
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'function flush() {
            if (types ~ /(^| )deb( |$)/ && enabled != "no")
                for (u = 1; u <= nu; u++) for (s = 1; s <= ns; s++)
                    print uris[u], suites[s], comps, (signed == "" ? "-" : signed)
            types = ""; nu = 0; ns = 0; comps = ""; signed = ""; enabled = ""
        }
        /^[ \t]*#/ { next }
        /^[ \t]*$/ { flush(); next }
        {
            key = $1; sub(/:$/, "", key); key = tolower(key)
            if (key == "types") { types = ""; for (j = 2; j <= NF; j++) types = types " " $j; types = types " " }
            else if (key == "uris") { for (j = 2; j <= NF; j++) uris[++nu] = $j }
            else if (key == "suites") { for (j = 2; j <= NF; j++) suites[++ns] = $j }
            else if (key == "components") { comps = ""; for (j = 2; j <= NF; j++) comps = comps (comps == "" ? "" : ",") $j }
            else if (key == "signed-by") signed = $2
            else if (key == "enabled") enabled = tolower($2)
        }
        END { flush() }' "$f"
done
