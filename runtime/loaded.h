/* Symbols of a library already loaded in the process, found without any
 * filesystem search (a later-dlopened libcrypto may be outside the global
 * scope; sshd's sandboxed child would be killed for an open() there). */
#ifndef CRYPTOSHIM_LOADED_H
#define CRYPTOSHIM_LOADED_H

/* A handle (dlclose it) on the loaded object whose file name is soname
 * (e.g. "libcrypto.so.3"), or NULL if none is loaded. Loads nothing. */
void *cs_loaded_open(const char *soname);

/* name@version from the loaded object whose file name is soname (e.g.
 * "libcrypto.so.3"), else from any loaded object defining name@version
 * (a libcrypto under another file name); NULL if none. Loads nothing. */
void *cs_loaded_sym(const char *soname, const char *name, const char *version);

#endif
