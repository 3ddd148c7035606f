# Keccak (kernels/keccak): per-folder and per-file ISA flags of
# kernels/keccak/x86_64. Each table runs only where the CPU has its
# features (cs_keccak_impl.cpu_features). The AVX2 table needs AVX2, and
# every AVX2 CPU has BMI1, BMI2 and POPCNT, so the whole folder is built with
# them (the scalar f1600_bmi.c is the portable rounds with ANDN). The
# AVX-512 permutations are used only by the "avx512" table, whose
# features name AVX-512F and VL (these flags). The portable
# folder and kernels/keccak/s390x (CPACF through .insn) need no flags.
# Tests: tests/unit/kernel_keccak.c (the Makefile's kernel_* pattern);
# the AVX-512 files are also built emulated for valgrind (mk/ctemu.mk).
ifeq ($(ARCH),x86_64)
# Functions start on a cache line: with cs_keccakf1600_x4x1_avx2 at 32 mod 64
# (where an edit of an earlier file can move it), ML-DSA-65 keygen and
# verify ran 3.5% slower (docs/benchmarks.md, "Code placement"). The
# AVX2 x4 and x4+1 permutations are assembly (x4_planes_avx2.S,
# x4x1_planes_avx2.S) and align their entries and loops themselves.
KECCAK_X86_FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt -falign-functions=64
KECCAK_AVX512_FLAGS := -mavx512f -mavx512vl
$(BUILD)/obj/kernels/keccak/x86_64/%.o: OBJ_CFLAGS += $(KECCAK_X86_FLAGS)
$(BUILD)/obj/kernels/keccak/x86_64/x4_avx512.o: OBJ_CFLAGS += $(KECCAK_AVX512_FLAGS)
$(BUILD)/obj/kernels/keccak/x86_64/x8_avx512.o: OBJ_CFLAGS += $(KECCAK_AVX512_FLAGS)
$(BUILD)/obj/kernels/keccak/x86_64/x8x1_avx512.o: OBJ_CFLAGS += $(KECCAK_AVX512_FLAGS)
endif
