# Paired AVX-512 IFMA exponentiation (kernels/bn/x86_64/ifma_x2.c): IFMA
# flags; it runs only when the CPU has AVX512IFMA (the IFMA kernel's exp_x2).
ifeq ($(ARCH),x86_64)
$(BUILD)/obj/kernels/bn/x86_64/ifma_x2.o: OBJ_CFLAGS += -mavx2 -mbmi2 -mavx512f -mavx512vl -mavx512ifma
endif
