# Big-number kernels (kernels/bn): per-file ISA flags of kernels/bn/x86_64
# (each kernel runs only when the CPU has them). SPARC and s390x flags are in
# mk/oldhw.mk; the tests' rules (the 32-bit-limb builds among them) in
# mk/tests.mk.
ifeq ($(ARCH),x86_64)
BN_IFMA_FLAGS := -mavx2 -mbmi2 -mavx512f -mavx512vl -mavx512ifma
$(BUILD)/obj/kernels/bn/x86_64/ifma.o: OBJ_CFLAGS += $(BN_IFMA_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/ifma_x2.o: OBJ_CFLAGS += $(BN_IFMA_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/avx2.o: OBJ_CFLAGS += -mavx2 -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/fma.o: OBJ_CFLAGS += -mavx2 -mfma
$(BUILD)/obj/kernels/bn/x86_64/fma_x2.o: OBJ_CFLAGS += -mavx2 -mfma
BN_FMA512_FLAGS := -mavx2 -mbmi2 -mfma -mavx512f
$(BUILD)/obj/kernels/bn/x86_64/fma512.o: OBJ_CFLAGS += $(BN_FMA512_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/fma512_x2.o: OBJ_CFLAGS += $(BN_FMA512_FLAGS)
$(BUILD)/obj/kernels/bn/x86_64/xv_select_avx2.o: OBJ_CFLAGS += -mavx2
$(BUILD)/obj/kernels/bn/x86_64/scalar.o: OBJ_CFLAGS += -mbmi2
$(BUILD)/obj/kernels/bn/x86_64/adx.o: OBJ_CFLAGS += -mbmi2 -madx
endif
