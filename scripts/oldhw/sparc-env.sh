# Sourced by the SPARC end-to-end scripts and tests: paths of the v7 OpenSSL,
# the 32-bit SPARC shim, the QEMU plugin, and a sysroot for qemu-sparc32plus
# (Debian's 32-bit SPARC C library from libc6-dev-sparc-sparc64-cross,
# exposed as /lib inside it).
ROOT=${ROOT:-$(pwd)}
V7=$ROOT/build/oldhw/openssl-v7/install/usr/local
SPARC_SHIM=$ROOT/build/cross-sparc32/libcryptoshim.so
SPARC_PLUGIN=$ROOT/build/oldhw/plugin/insn_count.so
SPARC_SYSROOT=$ROOT/build/oldhw/sysroot-sparc32
if [ ! -e "$SPARC_SYSROOT/lib/ld-linux.so.2" ] && [ -d /usr/sparc64-linux-gnu/lib32 ]; then
    mkdir -p "$SPARC_SYSROOT"
    ln -sfn /usr/sparc64-linux-gnu/lib32 "$SPARC_SYSROOT/lib"
fi
export V7 SPARC_SHIM SPARC_PLUGIN SPARC_SYSROOT
