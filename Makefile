# gchol -- GPU-only dense Cholesky.  `make` builds the libraries, the testing
# executables and the benchmarks; `make test` runs every test this machine can
# run; `make demo` is the main job (needs a GPU).
#
#   make GPU_ARCH=90            # sm_90 (H100) is the default
#   make install PREFIX=/usr/local

CUDA_HOME ?= $(shell dirname $$(dirname $$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)))
GPU_ARCH  ?= 90
PREFIX    ?= /usr/local

CC    ?= gcc
NVCC  ?= $(CUDA_HOME)/bin/nvcc

CUDA_INC := $(CUDA_HOME)/include
CUDA_LIB := $(CUDA_HOME)/lib64

CFLAGS    ?= -O2
CFLAGS    += -std=c11 -Wall -Wextra -fPIC -Iinclude -Isrc -I$(CUDA_INC)
NVFLAGS   ?= -O3
NVFLAGS   += -std=c++17 -gencode=arch=compute_$(GPU_ARCH),code=sm_$(GPU_ARCH) \
             -Xcompiler -fPIC -Xcompiler -Wall -Iinclude -Ikernels --expt-relaxed-constexpr \
             -DGCHOL_GPU_ARCH=$(GPU_ARCH)
LDCUDA    := -L$(CUDA_LIB) -Wl,-rpath,$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread
LDLAPACK  := -llapacke -lopenblas -lm -lpthread

# Precision-generic C sources: each is compiled once per precision.
GENERIC_SRC := src/potrf_driver.c src/potrf_host.c src/syrk_diag.c src/syrk_diag_host.c src/host_stream.c src/rfp_convert.c \
               src/pftrf.c src/pftrs.c src/potrs.c src/trsm_rec.c \
               src/syrk_rec.c src/gemm_lt.c src/wls.c src/posv_host.c
PLAIN_SRC   := src/queue.c src/errors.c src/sposv.c src/dswls.c src/refine.c src/host_call.c src/options.c src/host_default_queue.c src/host_stage.c
KERNEL_SRC  := $(wildcard kernels/*.cu)

LIB_OBJ := $(patsubst src/%.c,build/%_d.o,$(GENERIC_SRC)) \
           $(patsubst src/%.c,build/%_s.o,$(GENERIC_SRC)) \
           $(patsubst src/%.c,build/%.o,$(PLAIN_SRC)) \
           $(patsubst kernels/%.cu,build/%.cu.o,$(KERNEL_SRC))

TESTS := testing/testing_dpotrf testing/testing_spotrf testing/testing_host testing/testing_host_stage \
         testing/testing_dsyrk_diag testing/testing_ssyrk_diag \
         testing/testing_dpftrf testing/testing_spftrf testing/testing_dsposv testing/testing_wls \
         testing/testing_dhost_bounds testing/testing_shost_bounds \
         testing/testing_lapack_shim testing/preload_probe testing/shim_probe testing/shim_plugin.so \
         testing/fault_engine.so testing/cpu64_lapack.so
BENCH := benchmarks/bench_potrf benchmarks/demo_potrf benchmarks/timeline_potrf \
         benchmarks/bench_syrk_diag benchmarks/bench_pftrf benchmarks/bench_posv benchmarks/bench_wls \
         benchmarks/bench_lapack_shim benchmarks/bench_syrk_diag_host

.PHONY: all lib deps test test-gpu test-large sanitize demo bench install clean
all: lib $(TESTS) $(BENCH)
lib: lib/libgchol.a lib/libgchol.so lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so

build/%_d.o: src/%.c $(wildcard include/*.h) $(wildcard src/*.h) $(wildcard kernels/*.h)
	@mkdir -p build
	$(CC) $(CFLAGS) -DGCHOL_PREC_D -c $< -o $@
build/%_s.o: src/%.c $(wildcard include/*.h) $(wildcard src/*.h) $(wildcard kernels/*.h)
	@mkdir -p build
	$(CC) $(CFLAGS) -DGCHOL_PREC_S -c $< -o $@
build/%.o: src/%.c $(wildcard include/*.h) $(wildcard src/*.h)
	@mkdir -p build
	$(CC) $(CFLAGS) -c $< -o $@
build/%.cu.o: kernels/%.cu $(wildcard kernels/*.cuh) $(wildcard kernels/*.h) include/gchol.h
	@mkdir -p build
	$(NVCC) $(NVFLAGS) -c $< -o $@

lib/libgchol.a: $(LIB_OBJ)
	@mkdir -p lib
	ar rcs $@ $^
lib/libgchol.so: $(LIB_OBJ)
	@mkdir -p lib
	$(NVCC) -shared -o $@ $^ -L$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread

# The LAPACK shim: dpotrf_ & co. over gchol, with the CPU LAPACK behind it
# (lapack_route.c). Only its LAPACK symbols and controls are exported
# (lapack_shim.map); it links neither a LAPACK nor CUDA: gchol and its CUDA
# libraries are the engine, lib/libgchol_lapack_gpu.so, which the shim opens
# at its first call routed to the GPU (src/lapack_engine.h).
# lapack_shim.c is built four times: d and s, LP64 (dpotrf_) and ILP64
# (dpotrf_64_).
SHIM_OBJ := build/lapack_shim_d.o build/lapack_shim_s.o build/lapack_shim64_d.o \
            build/lapack_shim64_s.o build/lapack_route.o
build/lapack_shim64_%.o: src/lapack_shim.c $(wildcard include/*.h) $(wildcard src/*.h) $(wildcard kernels/*.h)
	@mkdir -p build
	$(CC) $(CFLAGS) -DGCHOL_PREC_$(shell echo $* | tr a-z A-Z) -DGCHOL_SHIM_ILP64 -c $< -o $@
lib/libgchol_lapack.so: $(SHIM_OBJ) src/lapack_shim.map
	@mkdir -p lib
	$(CC) -shared -o $@ $(SHIM_OBJ) -Wl,--version-script=src/lapack_shim.map \
	    -Wl,-soname=libgchol_lapack.so -Wl,-rpath,'$$ORIGIN' -lpthread -ldl
lib/libgchol_lapack_gpu.so: build/lapack_engine.o lib/libgchol.a src/lapack_engine.map
	@mkdir -p lib
	$(NVCC) -shared -o $@ build/lapack_engine.o lib/libgchol.a \
	    -Xlinker --version-script=src/lapack_engine.map -Xlinker -soname=libgchol_lapack_gpu.so \
	    -Xlinker -rpath -Xlinker $(CUDA_LIB) -L$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread

# Testing: testing_potrf.c is precision-generic, compiled once per precision.
# testing_host_stage builds src/host_stage.c against a mocked CUDA runtime.
testing/testing_host_stage: testing/testing_host_stage.c src/host_stage.c src/internal.h
	$(CC) $(CFLAGS) -DGCHOL_STAGE_BYTES=4096 -DGCHOL_STAGE_PARALLEL_MIN=64 testing/testing_host_stage.c src/host_stage.c -o $@ -lpthread
TEST_COMMON := testing/testing_common.c
TEST_HDR    := $(wildcard testing/*.h)
testing/testing_dpotrf: testing/testing_potrf.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -DGCHOL_PREC_D -Itesting testing/testing_potrf.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
testing/testing_spotrf: testing/testing_potrf.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -DGCHOL_PREC_S -Itesting testing/testing_potrf.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
# testing_syrk_diag.c and testing_pftrf.c are precision-generic as well.
testing/testing_%syrk_diag: testing/testing_syrk_diag.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -DGCHOL_PREC_$(shell echo $* | tr a-z A-Z) -Itesting testing/testing_syrk_diag.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
testing/testing_%pftrf: testing/testing_pftrf.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -DGCHOL_PREC_$(shell echo $* | tr a-z A-Z) -Itesting testing/testing_pftrf.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
# testing_host_bounds.c: host arrays against guard pages (testing_guard.c).
testing/testing_%host_bounds: testing/testing_host_bounds.c testing/testing_guard.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -DGCHOL_PREC_$(shell echo $* | tr a-z A-Z) -Itesting testing/testing_host_bounds.c testing/testing_guard.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
testing/testing_dsposv: testing/testing_sposv.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -Itesting testing/testing_sposv.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
testing/testing_wls: testing/testing_wls.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -Itesting testing/testing_wls.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++
testing/testing_host: testing/testing_host.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol.a
	$(CC) $(CFLAGS) -Itesting testing/testing_host.c $(TEST_COMMON) -o $@ lib/libgchol.a $(LDCUDA) $(LDLAPACK) -lstdc++

# The shim ahead of LAPACKE and OpenBLAS, so that their dpotrf_ & co. are the shim's.
LDSHIM := -Llib -lgchol_lapack -Wl,-rpath,'$$ORIGIN/../lib'
testing/testing_lapack_shim: testing/testing_lapack_shim.c testing/testing_guard.c $(TEST_COMMON) $(TEST_HDR) lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so lib/libgchol.a
	$(CC) $(CFLAGS) -Itesting testing/testing_lapack_shim.c testing/testing_guard.c $(TEST_COMMON) -o $@ $(LDSHIM) lib/libgchol.a $(LDCUDA) $(LDLAPACK) -ldl -lstdc++
# An ordinary LAPACKE program, without gchol: testing_preload.sh runs it under LD_PRELOAD.
testing/preload_probe: testing/preload_probe.c
	$(CC) $(CFLAGS) testing/preload_probe.c -o $@ $(LDLAPACK)
# A caller linked with the shim and no LAPACK, and a plugin (dlopen RTLD_LOCAL)
# that calls LAPACK itself: the shim must still find the CPU LAPACK.
testing/shim_probe: testing/shim_probe.c lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so
	$(CC) $(CFLAGS) testing/shim_probe.c -o $@ -Llib -lgchol_lapack -Wl,-rpath,'$$ORIGIN/../lib' -ldl -lm
# A stand-in GPU engine that fails on purpose (testing_preload.sh).
testing/fault_engine.so: testing/fault_engine.c src/lapack_engine.h include/gchol.h
	$(CC) $(CFLAGS) -shared testing/fault_engine.c -o $@
testing/cpu64_lapack.so: testing/cpu64_lapack.c
	$(CC) $(CFLAGS) -shared testing/cpu64_lapack.c -o $@ -ldl
testing/shim_plugin.so: testing/shim_probe.c
	$(CC) $(CFLAGS) -shared -DSHIM_PLUGIN testing/shim_probe.c -o $@ -Wl,--no-as-needed $(LDLAPACK)
benchmarks/bench_lapack_shim: benchmarks/bench_lapack_shim.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_lapack_shim.c benchmarks/bench_common.c -o $@ $(LDSHIM) lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -ldl -lstdc++

benchmarks/bench_potrf: benchmarks/bench_potrf.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_potrf.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/bench_syrk_diag: benchmarks/bench_syrk_diag.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_syrk_diag.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/bench_pftrf: benchmarks/bench_pftrf.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_pftrf.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/bench_posv: benchmarks/bench_posv.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_posv.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/bench_syrk_diag_host: benchmarks/bench_syrk_diag_host.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_syrk_diag_host.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/bench_wls: benchmarks/bench_wls.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/bench_wls.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/demo_potrf: benchmarks/demo_potrf.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/demo_potrf.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++
benchmarks/timeline_potrf: benchmarks/timeline_potrf.c benchmarks/bench_common.c benchmarks/bench_common.h lib/libgchol.a
	$(CC) $(CFLAGS) -Ibenchmarks benchmarks/timeline_potrf.c benchmarks/bench_common.c -o $@ lib/libgchol.a $(LDCUDA) -lcusolver $(LDLAPACK) -lstdc++

# Every test this machine can run; GPU tests report "skipped" without a GPU.
# The two README commands first check (and where possible install) what a
# fresh machine lacks, then build.
deps:
	@sh tools/check_deps.sh --install

test: deps
	@$(MAKE) --no-print-directory $(TESTS)
	@sh testing/run_tests.sh

test-gpu: test
test-large: testing/testing_dpotrf
	./testing/testing_dpotrf --large

# GPU tests under compute-sanitizer (memcheck and racecheck).
sanitize: $(TESTS)
	@sh testing/run_sanitize.sh

demo: deps
	@$(MAKE) --no-print-directory benchmarks/demo_potrf
	./benchmarks/demo_potrf

bench: benchmarks/bench_potrf
	./benchmarks/bench_potrf

install: lib
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/gchol.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 lib/libgchol.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 lib/libgchol.so $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/gchol_lapack.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 lib/libgchol_lapack.so lib/libgchol_lapack_gpu.so $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@CUDA_LIB@|$(CUDA_LIB)|g' \
	    -e 's|@VERSION@|0.3.1|g' gchol.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/gchol.pc

clean:
	rm -rf build lib $(TESTS) $(BENCH)
