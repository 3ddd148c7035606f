# ML-DSA AVX-512 pieces of kernels/mldsa/x86_64 beyond the Keccaks (used
# only by the "avx512" table, whose CS_CPU_AVX512IFMA bit implies F, BW, VL).
ifeq ($(ARCH),x86_64)
$(BUILD)/obj/kernels/mldsa/x86_64/rej_avx512.o: OBJ_CFLAGS += -mavx512f -mavx512vl -mavx512bw
endif
