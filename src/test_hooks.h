/*
 * test_hooks.h -- the library's internal test entry point: values that tests
 * set in place of the tuned ones, to reach paths that the default sizes
 * reach only with very large inputs (many blocks of a streamed host form,
 * the two-block tiled kernel at small n, many chunks of the pinned staging),
 * and a failure injected into one allocation, to reach the out-of-memory
 * paths. An internal symbol of libgchol.a and libgchol.so, not in gchol.h.
 * Set them while no gchol call runs.
 */
#ifndef GCHOL_TEST_HOOKS_H
#define GCHOL_TEST_HOOKS_H

#include <stddef.h>
#include <stdint.h>

/* 0 in a field: the library's own value. */
typedef struct {
    int64_t host_chunk_bytes;      /* streamed host forms: bytes of the largest
                                      block of A's columns (read per call)   */
    int64_t host_parts_from_m;     /* streamed host forms: C back in parts from
                                      this m on (read per call)              */
    int64_t tiled_one_block_up_to; /* tiled kernel: one block per SM up to this
                                      n (read per launch)                    */
    int     tiled_cluster_helper;  /* tiled kernel: 1 without, 2 with the
                                      cluster helper (read per launch)      */
    size_t  stage_bytes;           /* pinned staging: bytes per buffer       */
    int64_t stage_parallel_min;    /* pinned staging: copies below this many
                                      bytes by the caller's thread alone (the
                                      staging's two are read when a queue
                                      first stages a copy)                  */
    int     syrk_diag_path;        /* syrk_diag, full storage: 1 always the
                                      kernel, 2 the cuBLAS composition
                                      wherever it may run (read per call)    */
    size_t  syrk_diag_scratch_bytes; /* the cuBLAS composition's chunk bytes */
    int64_t lowp_nb;               /* FP16 / BF16 Cholesky: block columns  */
    int     lowp_panel;            /* ... panels: 1 cublasStrsm, 2 through the
                                      inverted diagonal block on TF32, 3 the
                                      same in single, 4 on FP16 / BF16
                                      (tune.h)                               */
    int     lowp_keep_inverse;     /* ... inverted diagonal blocks for the
                                      solves: 1 no, 2 yes (tune.h)           */
    int     lowp_lookahead;        /* ... lookahead: 1 off, 2 on, 3 on with the
                                      chain at high priority, 4 on with the
                                      bulk two panels at a time (tune.h)   */
    int64_t lowp_update_leaf;      /* ... trailing updates: -1 one gemm per
                                      block column, L > 0 split down to
                                      squares of at most L (tune.h)        */
    int     xposv_auto_time;       /* mixed-precision solve's automatic
                                      ladder, its time below double: 1 no
                                      limit, 2 none at all (tune.h)        */
    int     xposv_auto_fp32;       /* mixed-precision solve's automatic
                                      ladder: 1 without, 2 with the FP32 rung */
    int64_t xposv_auto_lowp_from_n; /* ... its FP16 rung from this n: -1
                                      every n, > 0 that n (tune.h)         */
    int     xposv_symv;            /* mixed-precision solve's residual and
                                      A z: 1 gchol's symv kernel, 2 cuBLAS
                                      dsymv (tune.h)                       */
    int     batched_kernel;        /* batched potrf past the register kernel:
                                      1 the blocked kernel (shared memory,
                                      then its global-memory head, to 512),
                                      2 the left-looking panel kernel,
                                      3 the rows kernel from 17 to 64, then
                                      the panel kernel, 4 the tiled
                                      left-looking kernel to 512, 5 the same
                                      with one chunk buffer, 6 with two
                                      wherever they fit, 7 block columns on
                                      cuBLAS's batched products past their
                                      width, fixed-order forms, 8 the warp
                                      kernel from 33 to 256, then the panel
                                      kernel, 9 the tiles kernel past the
                                      lane groups wherever its tiles fit,
                                      10 the FP64 tensor cores' warp kernel
                                      from 33 to 512, 11 the live tiles
                                      kernel to 256, 12 the replica kernel
                                      to 64, 13 the panels kernel from 17
                                      to 32 (read per call)                 */
    int64_t batched_cublas_nb;     /* ... those block columns' width (at
                                      most 32)                             */
    int     batched_dmma_blocks;   /* > 0: the FP64 tensor cores' warp
                                      kernel at this many blocks an SM (3 or
                                      4), whatever the table says          */
    int     batched_warp_max_n;    /* > 0: the warp kernel up to this
                                      order (both precisions), whatever the
                                      table says (hooks 1-6 still run their
                                      own kernels)                         */
    int64_t batched_cublas_work_bytes; /* ... their workspace's cap (bytes;
                                      0: 1 GiB): smaller, more chunks       */
    int     batched_cublas_fused;  /* ... their panel step: 1 in one launch
                                      with the whole panel's sums, 2 in two
                                      launches, 0 the table's choice        */
    int64_t batched_cublas_tail;   /* ... their trailing matrix on the live
                                      tiles kernel: > 0 of at most this
                                      order, < 0 none, 0 the table's        */
    int     batched_potrs_kernel;  /* batched potrs past the register
                                      kernel: 1 L's panels staged in shared
                                      memory, 2 read where used (the direct
                                      form; read per call)                  */
    int64_t alloc_fail_at;         /* the k-th device or pinned host
                                      allocation after the set fails
                                      (k = 1, 2, ...), as out of memory;
                                      the others succeed (alloc.h)          */
} gchol_test_hooks_t;

/* Sets the hooks (copied) and restarts the allocation count; NULL restores
 * the library's values. */
void gchol_test_hooks_set(const gchol_test_hooks_t *h);

/* The hooks in force (never NULL; all zero unless a test set them). */
const gchol_test_hooks_t *gchol_test_hooks(void);

/* Device and pinned host allocations the library has asked for since the
 * hooks were last set (each cudaMalloc, cudaMallocAsync, cudaMallocHost and
 * cuBLAS / cublasLt handle counts one; the failed one included), from any
 * thread. */
int64_t gchol_test_alloc_count(void);

/* Counts one allocation; 1 if it is the one alloc_fail_at makes fail
 * (alloc.c asks before each). */
int gchol_test_alloc_fails(void);

/* The GPU engine of the LAPACK shim (libgchol_lapack_gpu.so) holds its own
 * copy of the library: it exports these two for testers, reached with
 * dlsym, which set and count that copy's hooks (lapack_engine.c). */
#define GCHOL_ENGINE_TEST_HOOKS_SET   "gchol_lapack_engine_test_hooks_set"
#define GCHOL_ENGINE_TEST_ALLOC_COUNT "gchol_lapack_engine_test_alloc_count"
typedef void    gchol_test_hooks_set_fn(const gchol_test_hooks_t *h);
typedef int64_t gchol_test_alloc_count_fn(void);

#endif
