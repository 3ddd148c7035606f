# ML-KEM (kernels/mlkem): the ISA flags of its folders in one place (the
# sources are picked up by the Makefile's KERNEL_SRCS wildcard); its tests'
# rules are in mk/tests.mk, Keccak's flags in mk/kernels_keccak.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/mlkem/x86_64: AVX2 code generation for the whole folder; it runs
# only where the dispatcher saw AVX2 (cs_mlkem_avx2.cpu_features =
# CS_CPU_AVX2). The *_avx512.c files are used only by the "avx512" table,
# whose features name AVX-512F, VL and BW (these flags; no IFMA).
ifeq ($(ARCH),x86_64)
MLKEM_X86_FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt
$(BUILD)/obj/kernels/mlkem/x86_64/%.o: OBJ_CFLAGS += $(MLKEM_X86_FLAGS)
$(BUILD)/obj/kernels/mlkem/x86_64/%_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
endif
