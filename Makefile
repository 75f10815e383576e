# gchol -- GPU-only dense Cholesky for NVIDIA GPUs.
#
#   make -j              libraries, testers and benchmarks, all under build/
#   make test            every test this machine can run (GPU cases "skipped" without a GPU)
#   make install         PREFIX=/usr/local, DESTDIR honoured; `make uninstall` undoes it
#   make help            every target and variable
#
# Outputs: build/lib (libgchol.a, libgchol.so.X.Y.Z with its SONAME and dev links,
# the LAPACK shim libgchol_lapack.so and its GPU engine libgchol_lapack_gpu.so),
# build/include/gchol_version.h (from the file VERSION), build/testing,
# build/benchmarks, build/obj (objects and header dependencies).

# ---- testers and benchmarks (one list a line; add names here) -----------------
# TESTERS_DS: testing/testing_<X>.c, precision-generic: testing_d<X> and testing_s<X>.
# TESTERS:    testing/testing_<X>.c, built once as testing_<X>.
# BENCHES:    benchmarks/<X>.c, built as build/benchmarks/<X>.
TESTERS_DS := potrf potrs posv pftrf pftrs trttf tfttr syrk_diag host_bounds potrf_batched posv_batched
TESTERS    := dsposv wls options rfp_index util host_stage batched_cublas_host lowp_host lapack_shim alloc_fail threads special partial refine_engine refine_block dxposv lansy symv
BENCHES    := bench_potrf bench_syrk_diag bench_syrk_diag_host bench_pftrf bench_posv bench_xposv bench_xposv_phases bench_potrf_batched bench_wls bench_wls_seed bench_lapack_shim demo_potrf timeline_potrf

# ---- configuration --------------------------------------------------------------
CUDA_HOME  ?= $(shell dirname $$(dirname $$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)))
# Compute capabilities of the fatbinary (SASS for each; the last also as PTX, so
# newer GPUs can JIT it). GPU_ARCH=NN builds for that one architecture.
GPU_ARCHS  ?= 80 90
ifdef GPU_ARCH
GPU_ARCHS  := $(GPU_ARCH)
endif
PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
NVCC       ?= $(CUDA_HOME)/bin/nvcc
CFLAGS     ?= -O2
NVFLAGS    ?= -O3
LDFLAGS    ?=
# Host-compiler flags of the links that nvcc drives (libgchol.so, the GPU engine).
NVLDFLAGS  ?=
V          ?= 0
# The output tree, and where the CUDA objects go (make test-asan builds a
# second tree, build/asan, over the CUDA objects of build/obj).
BUILD_DIR  := build
CU_OBJ_DIR := $(BUILD_DIR)/obj

CUDA_INC := $(CUDA_HOME)/include
CUDA_LIB := $(CUDA_HOME)/lib64

GCHOL_VERSION := $(strip $(shell cat VERSION))
VERSION_WORDS := $(subst ., ,$(GCHOL_VERSION))
VERSION_MAJOR := $(word 1,$(VERSION_WORDS))
VERSION_MINOR := $(word 2,$(VERSION_WORDS))
VERSION_PATCH := $(word 3,$(VERSION_WORDS))
SONAME        := libgchol.so.$(VERSION_MAJOR)

GENCODE := $(foreach a,$(GPU_ARCHS),-gencode=arch=compute_$(a),code=sm_$(a)) \
           -gencode=arch=compute_$(lastword $(GPU_ARCHS)),code=compute_$(lastword $(GPU_ARCHS))

INC         := -Iinclude -I$(BUILD_DIR)/include -Isrc -I$(CUDA_INC)
ALL_CFLAGS   = -std=c11 -Wall -Wextra -fPIC $(INC) $(CPPFLAGS) $(CFLAGS)
ALL_NVFLAGS  = -std=c++17 $(GENCODE) -Xcompiler -fPIC -Xcompiler -Wall --expt-relaxed-constexpr \
               -Iinclude -I$(BUILD_DIR)/include -Ikernels $(NVFLAGS)
# Header dependencies: build/obj/.../X.d beside each X.o. The source gets an
# empty rule of its own there too, as -MP gives the headers, so that a
# renamed or removed source (or header) rebuilds instead of stopping make.
DEPFLAGS     = -MMD -MP -MF $(patsubst %.o,%.d,$@)
SRCDEP       = && printf '%s:\n' '$<' >> $(patsubst %.o,%.d,$@)
TEST_INC    := -Itesting -Itesting/util
BENCH_INC   := -Ibenchmarks -Itesting/util
LDCUDA      := -L$(CUDA_LIB) -Wl,-rpath,$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread
LDLAPACK    := -llapacke -lopenblas -lm -lpthread

# V=1 prints every command; the default prints one short line per output.
ifeq ($(V),0)
Q   := @
msg  = printf '  %-7s %s\n' '$(1)' '$(2)';
else
Q   :=
msg  =
endif

# ---- sources (found by wildcard) -------------------------------------------------
# A C source that includes "prec.h" is precision-generic: compiled twice, with
# -DGCHOL_PREC_D (object _d) and -DGCHOL_PREC_S (object _s); the others once.
is_generic = $(shell grep -lE '^[[:space:]]*.[[:space:]]*include[[:space:]]*"([^"]*/)?prec\.h"' $(1) /dev/null)

LIB_SRC     := $(filter-out src/mp/%,$(sort $(wildcard src/*.c src/*/*.c)))
LIB_GENERIC := $(call is_generic,$(LIB_SRC))
KERNEL_SRC  := $(sort $(wildcard kernels/*.cu))
KERNEL_OBJ  := $(patsubst %.cu,$(CU_OBJ_DIR)/%.cu.o,$(KERNEL_SRC))
LIB_OBJ     := $(patsubst %.c,$(BUILD_DIR)/obj/%_d.o,$(LIB_GENERIC)) \
               $(patsubst %.c,$(BUILD_DIR)/obj/%_s.o,$(LIB_GENERIC)) \
               $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(filter-out $(LIB_GENERIC),$(LIB_SRC))) \
               $(KERNEL_OBJ)

# The LAPACK shim (lapack_api/): dpotrf_ & co. over gchol, with the CPU LAPACK
# behind it. Its generic sources are built four times: d and s, LP64 (dpotrf_)
# and ILP64 (dpotrf_64_, objects _64_d/_64_s). Only its LAPACK symbols and
# controls are exported (lapack_shim.map); it links neither a LAPACK nor CUDA.
# gchol and CUDA are its engine, libgchol_lapack_gpu.so (lapack_engine.c over
# libgchol.a), which the shim opens at its first call routed to the GPU.
ENGINE_SRC   := lapack_api/lapack_engine.c
SHIM_SRC     := $(filter-out $(ENGINE_SRC),$(sort $(wildcard lapack_api/*.c)))
SHIM_GENERIC := $(call is_generic,$(SHIM_SRC))
SHIM_OBJ     := $(foreach p,_d _s _64_d _64_s,$(patsubst %.c,$(BUILD_DIR)/obj/%$(p).o,$(SHIM_GENERIC))) \
                $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(filter-out $(SHIM_GENERIC),$(SHIM_SRC)))
ENGINE_OBJ   := $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(ENGINE_SRC))

# The distributed layer (src/mp/, gchol_mp.h): libgchol_mp.so over libgchol.so,
# built with MPI's compiler wrapper when there is one (MPICC). Its testers run
# the drivers with CPU local operations (testing/mp/) under mpirun.
MPICC        ?= mpicc
LDSCALAPACK  := -lscalapack-openmpi
# MPI counts as found when its wrapper builds a program that includes mpi.h (a
# wrapper without MPI's headers is not enough); ScaLAPACK, which the MPI
# testers and bench_scalapack_llt link, when that program links with it too.
mpi_probe = printf '\#include <mpi.h>\nint main(void) { return MPI_Init(0, 0); }\n' | \
            $(MPICC) -x c - -o /dev/null $(1) >/dev/null 2>&1 && echo 1
HAVE_MPI       := $(shell $(call mpi_probe,))
HAVE_SCALAPACK := $(if $(HAVE_MPI),$(shell $(call mpi_probe,$(LDSCALAPACK))))
MP_SRC       := $(sort $(wildcard src/mp/*.c))
MP_GENERIC   := $(call is_generic,$(MP_SRC))
MP_OBJ       := $(patsubst %.c,$(BUILD_DIR)/obj/%_d.o,$(MP_GENERIC)) \
                $(patsubst %.c,$(BUILD_DIR)/obj/%_s.o,$(MP_GENERIC)) \
                $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(filter-out $(MP_GENERIC),$(MP_SRC)))
MP_TEST_OBJ  := $(BUILD_DIR)/obj/testing/mp/mp_ops_cpu_d.o $(BUILD_DIR)/obj/testing/mp/mp_ops_cpu_s.o
# The ScaLAPACK drop-in (scalapack_api/): pdpotrf_ and pspotrf_ over the
# distributed drivers, ScaLAPACK (the program's own, found at run time) behind.
SCAL_SRC     := $(sort $(wildcard scalapack_api/*.c))
SCAL_GENERIC := $(call is_generic,$(SCAL_SRC))
SCAL_OBJ     := $(patsubst %.c,$(BUILD_DIR)/obj/%_d.o,$(SCAL_GENERIC)) \
                $(patsubst %.c,$(BUILD_DIR)/obj/%_s.o,$(SCAL_GENERIC)) \
                $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(filter-out $(SCAL_GENERIC),$(SCAL_SRC)))

# The test library, shared by testers and benchmarks: testing/util/*.c.
TESTLIB_SRC     := $(sort $(wildcard testing/util/*.c))
TESTLIB_GENERIC := $(call is_generic,$(TESTLIB_SRC))
TESTLIB_OBJ     := $(patsubst %.c,$(BUILD_DIR)/obj/%_d.o,$(TESTLIB_GENERIC)) \
                   $(patsubst %.c,$(BUILD_DIR)/obj/%_s.o,$(TESTLIB_GENERIC)) \
                   $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(filter-out $(TESTLIB_GENERIC),$(TESTLIB_SRC)))
# The benchmarks' own helpers: every benchmarks/*.c that is not in BENCHES.
BENCHLIB_SRC := $(filter-out $(BENCHES:%=benchmarks/%.c) benchmarks/bench_mp_potrf.c benchmarks/bench_scalapack_llt.c,$(sort $(wildcard benchmarks/*.c)))
BENCHLIB_OBJ := $(patsubst %.c,$(BUILD_DIR)/obj/%.o,$(BENCHLIB_SRC))

# An archive or shared library must be relinked when a source is added or
# removed, not only when an object changes: each object list is kept in
# build/obj/<name>.objs, rewritten only when it changes, and is a prerequisite.
# (Not for goals that build nothing.)
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out clean help version uninstall,$(MAKECMDGOALS)),)
NO_BUILD := 1
endif
endif
ifeq ($(NO_BUILD),1)
objlist =
else
objlist = $(shell mkdir -p $(BUILD_DIR)/obj && f=$(BUILD_DIR)/obj/$(1).objs && n='$(strip $(2))' && \
            { [ -f $$f ] && [ "$$(cat $$f)" = "$$n" ] || echo "$$n" > $$f; } && echo $$f)
endif
LIB_LIST     := $(call objlist,libgchol,$(LIB_OBJ))
SHIM_LIST    := $(call objlist,libgchol_lapack,$(SHIM_OBJ))
TESTLIB_LIST := $(call objlist,libtest,$(TESTLIB_OBJ))
BENCHLIB_LIST := $(call objlist,libbench,$(BENCHLIB_OBJ))

# ---- outputs ----------------------------------------------------------------------
VERSION_HDR := $(BUILD_DIR)/include/gchol_version.h
LIB_A       := $(BUILD_DIR)/lib/libgchol.a
LIB_SO_REAL := $(BUILD_DIR)/lib/libgchol.so.$(GCHOL_VERSION)
LIB_SO      := $(LIB_SO_REAL) $(BUILD_DIR)/lib/$(SONAME) $(BUILD_DIR)/lib/libgchol.so
SHIM_SO     := $(BUILD_DIR)/lib/libgchol_lapack.so
ENGINE_SO   := $(BUILD_DIR)/lib/libgchol_lapack_gpu.so
TESTLIB     := $(BUILD_DIR)/obj/libtest.a
BENCHLIB    := $(BUILD_DIR)/obj/libbench.a
MP_SO       := $(BUILD_DIR)/lib/libgchol_mp.so
SCAL_SO     := $(BUILD_DIR)/lib/libgchol_scalapack.so
LIBS        := $(LIB_A) $(LIB_SO) $(SHIM_SO) $(ENGINE_SO) $(if $(HAVE_MPI),$(MP_SO) $(SCAL_SO))

TEST_HELPERS := $(BUILD_DIR)/testing/preload_probe $(BUILD_DIR)/testing/shim_probe $(BUILD_DIR)/testing/shim_plugin.so \
                $(BUILD_DIR)/testing/fault_engine.so $(BUILD_DIR)/testing/cpu64_lapack.so
TESTER_BINS  := $(foreach t,$(TESTERS_DS),$(BUILD_DIR)/testing/testing_d$(t) $(BUILD_DIR)/testing/testing_s$(t)) \
                $(foreach t,$(TESTERS),$(BUILD_DIR)/testing/testing_$(t)) $(TEST_HELPERS) \
                $(if $(HAVE_SCALAPACK),$(BUILD_DIR)/testing/testing_mp_dpotrf $(BUILD_DIR)/testing/testing_mp_spotrf \
                  $(BUILD_DIR)/testing/testing_scalapack_ddropin $(BUILD_DIR)/testing/testing_scalapack_sdropin)
BENCH_BINS   := $(foreach b,$(BENCHES),$(BUILD_DIR)/benchmarks/$(b)) \
                $(if $(HAVE_MPI),$(BUILD_DIR)/benchmarks/bench_mp_potrf) \
                $(if $(HAVE_SCALAPACK),$(BUILD_DIR)/benchmarks/bench_scalapack_llt)

.PHONY: all lib testers benches test test-asan test-gpu test-large sanitize demo bench bench-report \
        deps install uninstall clean help version
.DEFAULT_GOAL := all
all: lib testers benches
lib: $(LIBS)
testers: $(TESTER_BINS)
benches: $(BENCH_BINS)

# ---- compile rules ------------------------------------------------------------------
$(VERSION_HDR): VERSION include/gchol_version.h.in
	@mkdir -p $(@D)
	$(Q)$(call msg,GEN,$@)sed -e 's/@GCHOL_VERSION_MAJOR@/$(VERSION_MAJOR)/' \
	    -e 's/@GCHOL_VERSION_MINOR@/$(VERSION_MINOR)/' -e 's/@GCHOL_VERSION_PATCH@/$(VERSION_PATCH)/' \
	    -e 's/@GCHOL_VERSION@/$(GCHOL_VERSION)/' include/gchol_version.h.in > $@.tmp && mv $@.tmp $@

$(BUILD_DIR)/obj/%_d.o: %.c | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -DGCHOL_PREC_D $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/obj/%_s.o: %.c | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -DGCHOL_PREC_S $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/obj/%_64_d.o: %.c | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -DGCHOL_PREC_D -DGCHOL_SHIM_ILP64 $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/obj/%_64_s.o: %.c | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) -DGCHOL_PREC_S -DGCHOL_SHIM_ILP64 $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/obj/%.o: %.c | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(CC) $(ALL_CFLAGS) $(EXTRA_CFLAGS) $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(CU_OBJ_DIR)/%.cu.o: %.cu | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,NVCC,$@)$(NVCC) $(ALL_NVFLAGS) $(DEPFLAGS) -c $< -o $@ $(SRCDEP)

# Include paths of the test and benchmark objects (set on objects only, so
# that they never reach the library's objects through prerequisites).
$(TESTLIB_OBJ): EXTRA_CFLAGS := $(TEST_INC)
$(BENCHLIB_OBJ) $(BENCHES:%=$(BUILD_DIR)/obj/benchmarks/%.o): EXTRA_CFLAGS := $(BENCH_INC)

# ---- libraries ----------------------------------------------------------------------
$(LIB_A): $(LIB_OBJ) $(LIB_LIST)
	@mkdir -p $(@D)
	$(Q)$(call msg,AR,$@)rm -f $@ && ar rcs $@ $(LIB_OBJ)
# libgchol.so exports the functions the public headers declare and nothing
# else: the library's internal gchol_* functions stay out of its ABI.
$(BUILD_DIR)/obj/libgchol.map: include/gchol.h include/gchol_wls.h include/gchol_mixed.h \
                               include/gchol_batched.h $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q){ echo 'GCHOL_$(VERSION_MAJOR) {'; echo '  global:'; \
	  grep -ohE '\bgchol_[a-z0-9_]+[[:space:]]*\(' $^ | sed 's/[[:space:]]*($$//' | sort -u | \
	  sed 's/.*/    &;/'; echo '  local: *;'; echo '};'; } > $@
$(LIB_SO_REAL): $(LIB_OBJ) $(LIB_LIST) $(BUILD_DIR)/obj/libgchol.map
	@mkdir -p $(@D)
	$(Q)$(call msg,LD,$@)$(NVCC) -shared -o $@ $(LIB_OBJ) -Xlinker -soname=$(SONAME) -Xlinker --no-undefined \
	    -Xlinker --version-script=$(BUILD_DIR)/obj/libgchol.map \
	    -L$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread $(NVLDFLAGS)
$(BUILD_DIR)/lib/$(SONAME): $(LIB_SO_REAL)
	$(Q)ln -sf $(notdir $<) $@
$(BUILD_DIR)/lib/libgchol.so: $(BUILD_DIR)/lib/$(SONAME)
	$(Q)ln -sf $(notdir $<) $@

$(SHIM_SO): $(SHIM_OBJ) $(SHIM_LIST) lapack_api/lapack_shim.map
	@mkdir -p $(@D)
	$(Q)$(call msg,LD,$@)$(CC) -shared -o $@ $(SHIM_OBJ) -Wl,--version-script=lapack_api/lapack_shim.map \
	    -Wl,-soname=libgchol_lapack.so -Wl,-rpath,'$$ORIGIN' $(LDFLAGS) -lpthread -ldl
$(ENGINE_SO): $(ENGINE_OBJ) $(LIB_A) lapack_api/lapack_engine.map
	@mkdir -p $(@D)
	$(Q)$(call msg,LD,$@)$(NVCC) -shared -o $@ $(ENGINE_OBJ) $(LIB_A) \
	    -Xlinker --version-script=lapack_api/lapack_engine.map -Xlinker -soname=libgchol_lapack_gpu.so \
	    -Xlinker -rpath -Xlinker $(CUDA_LIB) -L$(CUDA_LIB) -lcublasLt -lcublas -lcudart -lpthread $(NVLDFLAGS)

# libgchol_mp.so exports what gchol_mp.h declares.
$(MP_OBJ) $(MP_TEST_OBJ) $(SCAL_OBJ): CC := $(MPICC)
$(MP_OBJ) $(SCAL_OBJ): EXTRA_CFLAGS := -Isrc
$(MP_TEST_OBJ): EXTRA_CFLAGS := -Isrc $(TEST_INC)
$(BUILD_DIR)/obj/libgchol_mp.map: include/gchol_mp.h
	@mkdir -p $(@D)
	$(Q){ echo 'GCHOL_MP_$(VERSION_MAJOR) {'; echo '  global:'; \
	  grep -ohE '\bgchol_mp_[a-z0-9_]+[[:space:]]*\(' $^ | sed 's/[[:space:]]*($$//' | sort -u | \
	  sed 's/.*/    &;/'; echo '  local: *;'; echo '};'; } > $@
$(MP_SO): $(MP_OBJ) $(LIB_SO) $(BUILD_DIR)/obj/libgchol_mp.map
	@mkdir -p $(@D)
	$(Q)$(call msg,LD,$@)$(MPICC) -shared -o $@ $(MP_OBJ) -Wl,-soname=libgchol_mp.so \
	    -Wl,--version-script=$(BUILD_DIR)/obj/libgchol_mp.map -Wl,--no-undefined \
	    -L$(BUILD_DIR)/lib -lgchol -Wl,-rpath,'$$ORIGIN' $(LDCUDA) -ldl $(LDFLAGS)

# the drop-in carries the drivers' objects (their internal entry points)
$(SCAL_SO): $(SCAL_OBJ) $(MP_OBJ) $(LIB_SO) scalapack_api/scalapack_api.map
	@mkdir -p $(@D)
	$(Q)$(call msg,LD,$@)$(MPICC) -shared -o $@ $(SCAL_OBJ) $(MP_OBJ) -Wl,-soname=libgchol_scalapack.so \
	    -Wl,--version-script=scalapack_api/scalapack_api.map -Wl,--no-undefined \
	    -L$(BUILD_DIR)/lib -lgchol -Wl,-rpath,'$$ORIGIN' $(LDCUDA) -ldl $(LDFLAGS)

$(TESTLIB): $(TESTLIB_OBJ) $(TESTLIB_LIST)
	@mkdir -p $(@D)
	$(Q)$(call msg,AR,$@)rm -f $@ && ar rcs $@ $(TESTLIB_OBJ)
$(BENCHLIB): $(BENCHLIB_OBJ) $(BENCHLIB_LIST)
	@mkdir -p $(@D)
	$(Q)$(call msg,AR,$@)rm -f $@ && ar rcs $@ $(BENCHLIB_OBJ)

# ---- testers --------------------------------------------------------------------------
# Testers link libgchol.a, the test library, CUDA and LAPACKE/OpenBLAS.
# Per tester: LDPRE_<bin> (link flags ahead of the libraries), DEPS_<bin>
# (more prerequisites).
# The shim ahead of LAPACKE and OpenBLAS, so that their dpotrf_ & co. are the shim's.
LDSHIM              := -L$(BUILD_DIR)/lib -lgchol_lapack -Wl,-rpath,'$$ORIGIN/../lib'
LDPRE_testing_lapack_shim := $(LDSHIM)
DEPS_testing_lapack_shim  := $(SHIM_SO) $(ENGINE_SO)
LDPRE_bench_lapack_shim   := $(LDSHIM)
DEPS_bench_lapack_shim    := $(SHIM_SO) $(ENGINE_SO)

# $(1): binary name, $(2): source, $(3): precision flag
define TESTER_rule
$(BUILD_DIR)/obj/testing/$(1).o: $(2) | $$(VERSION_HDR)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,CC,$$@)$$(CC) $$(ALL_CFLAGS) $$(TEST_INC) $(3) $$(DEPFLAGS) -c $$< -o $$@ $$(SRCDEP)
$(BUILD_DIR)/testing/$(1): $(BUILD_DIR)/obj/testing/$(1).o $$(TESTLIB) $$(LIB_A) $$(DEPS_$(1))
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,LINK,$$@)$$(CC) $$(LDFLAGS) $$< -o $$@ $$(LDPRE_$(1)) $$(TESTLIB) $$(LIB_A) \
	    $$(LDCUDA) $$(LDLAPACK) -ldl -lstdc++
endef
$(foreach t,$(TESTERS_DS),\
  $(eval $(call TESTER_rule,testing_d$(t),testing/testing_$(t).c,-DGCHOL_PREC_D))\
  $(eval $(call TESTER_rule,testing_s$(t),testing/testing_$(t).c,-DGCHOL_PREC_S)))
$(foreach t,$(filter-out host_stage batched_cublas_host lowp_host,$(TESTERS)),\
  $(eval $(call TESTER_rule,testing_$(t),testing/testing_$(t).c,)))

# testing_mp_?potrf: the distributed drivers (objects, for their internal
# entry points) with the CPU local operations, under MPI.
define MP_TESTER_rule
$(BUILD_DIR)/obj/testing/$(1).o: testing/mp/testing_mp_potrf.c | $$(VERSION_HDR)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,CC,$$@)$$(MPICC) $$(ALL_CFLAGS) -Isrc -Itesting/mp $$(TEST_INC) $(2) $$(DEPFLAGS) -c $$< -o $$@ $$(SRCDEP)
$(BUILD_DIR)/testing/$(1): $(BUILD_DIR)/obj/testing/$(1).o $$(MP_OBJ) $$(MP_TEST_OBJ) $$(TESTLIB) $$(LIB_A)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,LINK,$$@)$$(MPICC) $$(LDFLAGS) $$< -o $$@ $$(MP_OBJ) $$(MP_TEST_OBJ) $$(TESTLIB) \
	    $$(LIB_A) $$(LDSCALAPACK) $$(LDCUDA) $$(LDLAPACK) -ldl -lstdc++
endef
$(eval $(call MP_TESTER_rule,testing_mp_dpotrf,-DGCHOL_PREC_D))
$(eval $(call MP_TESTER_rule,testing_mp_spotrf,-DGCHOL_PREC_S))
# testing_scalapack_?dropin: the drop-in ahead of ScaLAPACK, as under LD_PRELOAD
define DROPIN_TESTER_rule
$(BUILD_DIR)/obj/testing/$(1).o: testing/mp/testing_scalapack_dropin.c | $$(VERSION_HDR)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,CC,$$@)$$(MPICC) $$(ALL_CFLAGS) -Isrc $$(TEST_INC) $(2) $$(DEPFLAGS) -c $$< -o $$@ $$(SRCDEP)
$(BUILD_DIR)/testing/$(1): $(BUILD_DIR)/obj/testing/$(1).o $$(SCAL_SO) $$(MP_SO) $$(TESTLIB) $$(LIB_SO)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,LINK,$$@)$$(MPICC) $$(LDFLAGS) $$< -o $$@ -L$$(BUILD_DIR)/lib -lgchol_scalapack -lgchol_mp \
	    $$(LDSCALAPACK) $$(TESTLIB) -lgchol -Wl,-rpath,'$$$$ORIGIN/../lib' $$(LDCUDA) $$(LDLAPACK) -ldl
endef
$(eval $(call DROPIN_TESTER_rule,testing_scalapack_ddropin,-DGCHOL_PREC_D))
$(eval $(call DROPIN_TESTER_rule,testing_scalapack_sdropin,-DGCHOL_PREC_S))

# bench_mp_potrf: the distributed Cholesky under mpirun (libgchol_mp.so); with
# CUSOLVERMP_HOME (include/cusolverMp.h, lib/libcusolverMp.so*: for example the
# nvidia-cusolvermp wheel's directory) also cuSOLVERMp's potrf as its peer, over
# NCCL from NCCL_HOME (include/nccl.h, lib/libnccl.so*; default the CUDA toolkit's,
# else the system's -lnccl)
CUSOLVERMP_HOME ?=
NCCL_HOME       ?= $(CUDA_HOME)
ifneq ($(CUSOLVERMP_HOME),)
MP_PEER_CFLAGS := -DGCHOL_BENCH_CUSOLVERMP -I$(CUSOLVERMP_HOME)/include -I$(NCCL_HOME)/include
MP_PEER_LIBS   := $(firstword $(wildcard $(CUSOLVERMP_HOME)/lib/libcusolverMp.so*)) \
                  $(or $(firstword $(wildcard $(NCCL_HOME)/lib/libnccl.so* $(NCCL_HOME)/lib64/libnccl.so*)),-lnccl) \
                  -Wl,-rpath,$(CUSOLVERMP_HOME)/lib -Wl,-rpath,$(NCCL_HOME)/lib
endif
# The peer's flags are kept in a file that changes only when they do, so that
# setting or dropping CUSOLVERMP_HOME rebuilds the benchmark.
MP_PEER_FLAGS := $(BUILD_DIR)/obj/benchmarks/bench_mp_potrf.peer
$(MP_PEER_FLAGS): FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(MP_PEER_CFLAGS) $(MP_PEER_LIBS)' > $@.new; \
	 cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@
FORCE:
.PHONY: FORCE
$(BUILD_DIR)/obj/benchmarks/bench_mp_potrf.o: benchmarks/bench_mp_potrf.c $(MP_PEER_FLAGS) | $(VERSION_HDR)
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(MPICC) $(ALL_CFLAGS) $(BENCH_INC) $(MP_PEER_CFLAGS) $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/benchmarks/bench_mp_potrf: $(BUILD_DIR)/obj/benchmarks/bench_mp_potrf.o $(MP_SO) $(BENCHLIB) $(TESTLIB) $(LIB_SO)
	@mkdir -p $(@D)
	$(Q)$(call msg,LINK,$@)$(MPICC) $(LDFLAGS) $< -o $@ $(BENCHLIB) $(TESTLIB) -L$(BUILD_DIR)/lib \
	    -lgchol_mp -lgchol -Wl,-rpath,'$$ORIGIN/../lib' $(MP_PEER_LIBS) $(LDCUDA) -lcusolver $(LDLAPACK) -ldl

# bench_scalapack_llt: a plain ScaLAPACK client (xdllt at large n), linked
# without gchol: run it with LD_PRELOAD=libgchol_scalapack.so for the GPUs.
$(BUILD_DIR)/obj/benchmarks/bench_scalapack_llt.o: benchmarks/bench_scalapack_llt.c
	@mkdir -p $(@D)
	$(Q)$(call msg,CC,$@)$(MPICC) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@ $(SRCDEP)
$(BUILD_DIR)/benchmarks/bench_scalapack_llt: $(BUILD_DIR)/obj/benchmarks/bench_scalapack_llt.o
	@mkdir -p $(@D)
	$(Q)$(call msg,LINK,$@)$(MPICC) $(LDFLAGS) $< -o $@ $(LDSCALAPACK) $(LDLAPACK) -lm

# Host-side testers of one source file each, its CUDA (and cuBLAS, launcher)
# calls mocked by the tester, LAPACK as the reference; without libgchol and a
# GPU. $(1): the tester; $(2): the library objects it tests.
define HOST_TESTER_rule
$(BUILD_DIR)/obj/testing/$(1).o: testing/$(1).c | $$(VERSION_HDR)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,CC,$$@)$$(CC) $$(ALL_CFLAGS) $$(TEST_INC) $$(DEPFLAGS) -c $$< -o $$@ $$(SRCDEP)
$(BUILD_DIR)/testing/$(1): $(BUILD_DIR)/obj/testing/$(1).o $(2) $$(TESTLIB)
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,LINK,$$@)$$(CC) $$(LDFLAGS) $(BUILD_DIR)/obj/testing/$(1).o $(2) -o $$@ \
	    $$(TESTLIB) $$(LDLAPACK) -lm -lpthread
endef
# src/host_stage.c: the pinned chunked copies
$(eval $(call HOST_TESTER_rule,testing_host_stage,$(BUILD_DIR)/obj/src/host_stage.o))
# src/potrf_batched_cublas.c, both precisions
$(eval $(call HOST_TESTER_rule,testing_batched_cublas_host,$(BUILD_DIR)/obj/src/potrf_batched_cublas_d.o $(BUILD_DIR)/obj/src/potrf_batched_cublas_s.o))
# src/potrf_lowp.c, the FP16 / BF16 factorization: every panel form, lookahead
# and split; the streams' work runs in the orders their events allow
$(eval $(call HOST_TESTER_rule,testing_lowp_host,$(BUILD_DIR)/obj/src/potrf_lowp.o))

# Helpers of testing_preload.sh and run_tests.sh.
DEP1 = -MMD -MP -MF $(BUILD_DIR)/obj/testing/$(@F).d
SRCDEP1 = && printf '%s:\n' '$<' >> $(BUILD_DIR)/obj/testing/$(@F).d
# An ordinary LAPACKE program, without gchol: run under LD_PRELOAD of the shim.
$(BUILD_DIR)/testing/preload_probe: testing/preload_probe.c | $(VERSION_HDR)
	@mkdir -p $(@D) $(BUILD_DIR)/obj/testing
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(DEP1) $< -o $@ $(LDFLAGS) $(LDLAPACK) $(SRCDEP1)
# A caller linked with the shim and no LAPACK, and a plugin (dlopen RTLD_LOCAL)
# that calls LAPACK itself: the shim must still find the CPU LAPACK.
$(BUILD_DIR)/testing/shim_probe: testing/shim_probe.c $(SHIM_SO) $(ENGINE_SO) | $(VERSION_HDR)
	@mkdir -p $(@D) $(BUILD_DIR)/obj/testing
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(DEP1) $< -o $@ $(LDFLAGS) $(LDSHIM) -ldl -lm $(SRCDEP1)
$(BUILD_DIR)/testing/shim_plugin.so: testing/shim_probe.c | $(VERSION_HDR)
	@mkdir -p $(@D) $(BUILD_DIR)/obj/testing
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(DEP1) -shared -DSHIM_PLUGIN $< -o $@ $(LDFLAGS) \
	    -Wl,--no-as-needed $(LDLAPACK) $(SRCDEP1)
# A stand-in GPU engine that fails on purpose.
$(BUILD_DIR)/testing/fault_engine.so: testing/fault_engine.c | $(VERSION_HDR)
	@mkdir -p $(@D) $(BUILD_DIR)/obj/testing
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(DEP1) -shared $< -o $@ $(LDFLAGS) $(SRCDEP1)
# A stand-in ILP64 CPU LAPACK that counts its calls.
$(BUILD_DIR)/testing/cpu64_lapack.so: testing/cpu64_lapack.c | $(VERSION_HDR)
	@mkdir -p $(@D) $(BUILD_DIR)/obj/testing
	$(Q)$(call msg,CCLD,$@)$(CC) $(ALL_CFLAGS) $(DEP1) -shared $< -o $@ $(LDFLAGS) -ldl $(SRCDEP1)

# ---- benchmarks -----------------------------------------------------------------------
# Benchmarks link their helpers (build/obj/libbench.a), what testers link, and
# cuSOLVER (the baseline).
define BENCH_rule
$(BUILD_DIR)/benchmarks/$(1): $(BUILD_DIR)/obj/benchmarks/$(1).o $$(BENCHLIB) $$(TESTLIB) $$(LIB_A) $$(DEPS_$(1))
	@mkdir -p $$(@D)
	$$(Q)$$(call msg,LINK,$$@)$$(CC) $$(LDFLAGS) $$< -o $$@ $$(LDPRE_$(1)) $$(BENCHLIB) $$(TESTLIB) \
	    $$(LIB_A) $$(LDCUDA) -lcusolver $$(LDLAPACK) -ldl -lstdc++
endef
$(foreach b,$(BENCHES),$(eval $(call BENCH_rule,$(b))))

# ---- running --------------------------------------------------------------------------
# `make test`: checks the dependencies (installing missing Debian packages
# where it can), builds quietly (compiler output in build/build.log, shown on
# failure; in parallel on every core unless -j was given), then runs the
# testers of testing/testers.list: one line per tester, logs in
# build/testing/logs/, last line "N passed, N failed, N skipped".
NPROC := $(shell nproc 2>/dev/null || echo 2)
# shell: j= the -j for a sub-make, every core unless the command line gave -j
AUTOJ  = case "$$MAKEFLAGS" in *jobserver*|*-j*) j= ;; *) j=-j$(NPROC) ;; esac
# shell, after a failed build logged to $(1): its errors, then exit 1
build_failed = echo FAILED; grep -E -A3 'error:|undefined reference|multiple definition|\*\*\*' $(1) \
	  | head -n 60; echo "(full log: $(1))"; exit 1
deps:
	@sh tools/check_deps.sh --install --quiet

test: deps
	@mkdir -p build; $(AUTOJ); \
	printf 'building libraries and testers (log: build/build.log) ... '; \
	if $(MAKE) --no-print-directory $$j V=1 lib testers > build/build.log 2>&1; then echo ok; \
	else $(call build_failed,build/build.log); fi
	@sh testing/run_tests.sh

# `make test-asan`: the host code under AddressSanitizer and
# UndefinedBehaviorSanitizer. The C objects of the library, the LAPACK shim,
# its GPU engine, the testers and their helpers are compiled with ASAN_FLAGS
# into a tree of their own, build/asan/ (build/ stays as it is); the CUDA
# objects are build/obj's, linked in unchanged, as nvcc's device code cannot
# be instrumented. testing/run_asan.sh then runs the testers of
# testing/testers.list that this tree holds (their no-GPU cases without a
# GPU): one line per tester, logs in build/asan/testing/logs/, any sanitizer
# report a failure, last line "N passed, N failed, N skipped".
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -g
# the same runtimes for the links nvcc drives (nvcc splits -Xcompiler values at commas)
ASAN_NVLDFLAGS := -Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined
test-asan: deps
	@mkdir -p build/asan; $(AUTOJ); \
	printf 'building the ASan/UBSan testers (log: build/asan/build.log) ... '; \
	if $(MAKE) --no-print-directory $$j V=1 $(KERNEL_OBJ) > build/asan/build.log 2>&1 && \
	   $(MAKE) --no-print-directory $$j V=1 BUILD_DIR=build/asan CU_OBJ_DIR=build/obj \
	     CFLAGS='$(CFLAGS) $(ASAN_FLAGS)' LDFLAGS='$(LDFLAGS) $(ASAN_FLAGS)' \
	     NVLDFLAGS='$(NVLDFLAGS) $(ASAN_NVLDFLAGS)' testers >> build/asan/build.log 2>&1; \
	then echo ok; else $(call build_failed,build/asan/build.log); fi
	@sh testing/run_asan.sh

test-gpu: test

test-large: build/testing/testing_dpotrf
	./build/testing/testing_dpotrf --large

# The GPU testers' quick suites under compute-sanitizer memcheck (leaks
# included), racecheck, synccheck and initcheck; "skipped" without a GPU.
sanitize: $(TESTER_BINS)
	@sh testing/run_sanitize.sh

demo: deps
	@$(AUTOJ); $(MAKE) --no-print-directory $$j build/benchmarks/demo_potrf
	./build/benchmarks/demo_potrf

bench: build/benchmarks/bench_potrf
	./build/benchmarks/bench_potrf

bench-report: lib benches
	sh benchmarks/report.sh

version:
	@echo $(GCHOL_VERSION)

# ---- install ------------------------------------------------------------------------
# Headers (with the generated version header), the libraries with the SONAME
# and development links, pkg-config files (gchol: shared, gchol-static: the
# archive) and the CMake package (find_package(gchol): gchol::gchol,
# gchol::gchol_static). `make uninstall` with the same PREFIX/DESTDIR removes
# exactly these files, then the directories they leave empty.
I_INC   := $(DESTDIR)$(INCLUDEDIR)
I_LIB   := $(DESTDIR)$(LIBDIR)
I_PC    := $(I_LIB)/pkgconfig
I_CMAKE := $(I_LIB)/cmake/gchol
INSTALLED_HDR := gchol.h gchol_wls.h gchol_mixed.h gchol_batched.h gchol_lapack.h gchol_version.h
INSTALLED_LIB := libgchol.a libgchol.so.$(GCHOL_VERSION) $(SONAME) libgchol.so \
                 libgchol_lapack.so libgchol_lapack_gpu.so
SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
            -e 's|@CUDA_HOME@|$(CUDA_HOME)|g' -e 's|@CUDA_LIB@|$(CUDA_LIB)|g' -e 's|@CUDA_INC@|$(CUDA_INC)|g' \
            -e 's|@VERSION@|$(GCHOL_VERSION)|g' -e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g'
PC_CUDA        := -L$${cudalibdir} -Wl,-rpath,$${cudalibdir} -lcublasLt -lcublas -lcudart
PC_SYSTEM_LIBS := -lstdc++ -lpthread -lm -ldl -lrt

install: lib $(VERSION_HDR)
	install -d $(I_INC) $(I_LIB) $(I_PC) $(I_CMAKE)
	install -m 644 include/gchol.h include/gchol_wls.h include/gchol_mixed.h \
	    include/gchol_batched.h include/gchol_lapack.h $(VERSION_HDR) $(I_INC)/
	install -m 644 $(LIB_A) $(I_LIB)/
	install -m 755 $(LIB_SO_REAL) $(SHIM_SO) $(ENGINE_SO) $(I_LIB)/
	ln -sf libgchol.so.$(GCHOL_VERSION) $(I_LIB)/$(SONAME)
	ln -sf $(SONAME) $(I_LIB)/libgchol.so
	@echo 'writing $(I_PC)/gchol.pc, gchol-static.pc, $(I_CMAKE)/gcholConfig.cmake, gcholConfigVersion.cmake'
	@$(SUBST) -e 's|@PC_NAME@|gchol|g' -e 's|@PC_KIND@|shared|g' \
	    -e 's|@PC_LIBS@|-L$${libdir} -lgchol $(PC_CUDA)|' -e 's|@PC_LIBS_PRIVATE@|$(PC_SYSTEM_LIBS)|' \
	    gchol.pc.in > $(I_PC)/gchol.pc
	@$(SUBST) -e 's|@PC_NAME@|gchol-static|g' -e 's|@PC_KIND@|static|g' \
	    -e 's|@PC_LIBS@|$${libdir}/libgchol.a $(PC_CUDA) $(PC_SYSTEM_LIBS)|' -e '/^Libs.private:/d' \
	    gchol.pc.in > $(I_PC)/gchol-static.pc
	@$(SUBST) cmake/gcholConfig.cmake.in > $(I_CMAKE)/gcholConfig.cmake
	@$(SUBST) cmake/gcholConfigVersion.cmake.in > $(I_CMAKE)/gcholConfigVersion.cmake

uninstall:
	rm -f $(addprefix $(I_INC)/,$(INSTALLED_HDR)) $(addprefix $(I_LIB)/,$(INSTALLED_LIB)) \
	    $(I_PC)/gchol.pc $(I_PC)/gchol-static.pc \
	    $(I_CMAKE)/gcholConfig.cmake $(I_CMAKE)/gcholConfigVersion.cmake
	-@for d in $(I_CMAKE) $(I_LIB)/cmake $(I_PC) $(I_LIB) $(I_INC) $(DESTDIR)$(PREFIX); do \
	    [ -d "$$d" ] && rmdir "$$d" 2>/dev/null; done; true

clean:
	rm -rf build

help:
	@echo 'gchol $(GCHOL_VERSION) -- targets (outputs under build/):'
	@echo '  all (default)  libraries, testers and benchmarks; run with -j'
	@echo '  lib            build/lib: libgchol.a, libgchol.so.$(GCHOL_VERSION) (+ $(SONAME), libgchol.so),'
	@echo '                 libgchol_lapack.so (LAPACK shim), libgchol_lapack_gpu.so (its GPU engine)'
	@echo '  testers        build/testing/: the testers and their helpers'
	@echo '  benches        build/benchmarks/: the benchmarks and the demo'
	@echo '  test           checks dependencies, builds, runs testing/testers.list'
	@echo '                 (one line per tester; logs in build/testing/logs/)'
	@echo '  test-asan      test with the host code (library C objects, LAPACK shim, testers)'
	@echo '                 built with -fsanitize=address,undefined into build/asan/; any'
	@echo '                 ASan/UBSan/leak report fails (logs in build/asan/testing/logs/)'
	@echo '  test-gpu       same as test'
	@echo '  test-large     testing_dpotrf --large (needs a GPU)'
	@echo '  sanitize       compute-sanitizer memcheck/racecheck/synccheck/initcheck over'
	@echo '                 the quick suites of the GPU testers (needs a GPU)'
	@echo '  demo           builds and runs build/benchmarks/demo_potrf (needs a GPU)'
	@echo '  bench          runs build/benchmarks/bench_potrf (needs a GPU)'
	@echo '  bench-report   sh benchmarks/report.sh: the performance report (needs a GPU)'
	@echo '  deps           sh tools/check_deps.sh --install'
	@echo '  install        headers, libraries, pkg-config files, CMake package'
	@echo '  uninstall      removes what install put (same PREFIX/DESTDIR/LIBDIR/INCLUDEDIR)'
	@echo '  clean          removes build/'
	@echo '  version        prints the version ($(GCHOL_VERSION), from the file VERSION)'
	@echo 'variables (now):'
	@echo '  CUDA_HOME=$(CUDA_HOME)'
	@echo '  GPU_ARCHS=$(GPU_ARCHS)   compute capabilities (SASS each, PTX of the last)'
	@echo '  PREFIX=$(PREFIX)  LIBDIR=$(LIBDIR)  INCLUDEDIR=$(INCLUDEDIR)  DESTDIR=$(DESTDIR)'
	@echo '  CC=$(CC)  CPPFLAGS=$(CPPFLAGS)  CFLAGS=$(CFLAGS)  NVCC=$(NVCC)  NVFLAGS=$(NVFLAGS)  LDFLAGS=$(LDFLAGS)'
	@echo '  NVLDFLAGS=$(NVLDFLAGS)   host-compiler flags of the links nvcc drives (-Xcompiler ...)'
	@echo '  V=$(V)   V=1 prints every command'
	@echo '  TEST_TIMEOUT (environment, seconds per tester in make test; default 1800)'
	@echo '  TEST_JOBS (environment, testers run at once by make test; default 1)'
	@echo '  SANITIZE_JOBS (environment, compute-sanitizer runs at once by make sanitize; default 1)'

-include $(sort $(shell find $(BUILD_DIR)/obj -name '*.d' 2>/dev/null) $(wildcard $(KERNEL_OBJ:.o=.d)))
