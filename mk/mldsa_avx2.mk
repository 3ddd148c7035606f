# ML-DSA AVX2 backend (kernels/mldsa/x86_64): built with AVX2 code
# generation for the whole folder; it runs only where the dispatcher saw
# AVX2 (cs_mldsa_avx2.cpu_features = CS_CPU_AVX2; BMI1, BMI2, POPCNT come
# with every AVX2 CPU).
ifeq ($(ARCH),x86_64)
$(BUILD)/obj/kernels/mldsa/x86_64/%.o: OBJ_CFLAGS += -mavx2 -mbmi -mbmi2 -mpopcnt
# The AVX-512 Keccaks and samplers (used only by the "avx512" table).
$(BUILD)/obj/kernels/mldsa/x86_64/keccak_x4_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
$(BUILD)/obj/kernels/mldsa/x86_64/keccak_x8_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
$(BUILD)/obj/kernels/mldsa/x86_64/keccak_x8x1_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
$(BUILD)/obj/kernels/mldsa/x86_64/expand_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl
endif
