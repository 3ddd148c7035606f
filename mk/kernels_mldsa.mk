# ML-DSA (kernels/mldsa): the ISA flags of its folders in one place; its
# tests' rules are in mk/tests.mk, Keccak's flags in mk/kernels_keccak.mk.

# ---- ISA flags ---------------------------------------------------------
# kernels/mldsa/x86_64: AVX2 code generation for the whole folder; it runs
# only where the dispatcher saw AVX2 (cs_mldsa_avx2.cpu_features =
# CS_CPU_AVX2; BMI1, BMI2, POPCNT come with every AVX2 CPU). The AVX-512
# samplers, NTTs and elementwise hooks are used only by the "avx512" table, whose features
# name AVX-512F, BW and VL (these flags; no IFMA).
ifeq ($(ARCH),x86_64)
MLDSA_X86_FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt
$(BUILD)/obj/kernels/mldsa/x86_64/%.o: OBJ_CFLAGS += $(MLDSA_X86_FLAGS)
$(BUILD)/obj/kernels/mldsa/x86_64/expand_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
$(BUILD)/obj/kernels/mldsa/x86_64/rej_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/ntt_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/poly_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
$(BUILD)/obj/kernels/mldsa/x86_64/pack_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
endif
# kernels/mldsa/s390x: the z13 vector facility for the vx_* files only (the
# cross baseline is older; cs_mldsa_s390x_vx runs only where VX is seen).
$(BUILD)/obj/kernels/mldsa/s390x/vx_%.o: OBJ_CFLAGS += -march=z13 -mzvector
