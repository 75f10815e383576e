/*
 * tune.h -- every size threshold and block-size table of the library, per
 * GPU architecture. One table per measured architecture (sm90.c), chosen
 * by compute capability when a queue is created (queue->tune); every reader
 * of a threshold goes through the queue's table. Not installed.
 *
 * Fields that differ by precision live in prec[GCHOL_TUNE_D] (double) and
 * prec[GCHOL_TUNE_S] (single); a precision-generic source (after prec.h)
 * reaches its own through GCHOL_PTUNE(queue).
 */
#ifndef GCHOL_TUNE_H
#define GCHOL_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "gchol.h"
#include "../../kernels/gchol_kernels.h"

/* Bounds of the variable-length parts of a table. */
enum {
    GCHOL_TUNE_AUTO_ROWS = 8, /* rows of potrf's automatic table            */
    GCHOL_TUNE_MAX_PARTS = 8, /* host_parts                                 */
    GCHOL_TUNE_MAX_SLOTS = 8, /* host_slots                                 */
    GCHOL_TUNE_MAX_LAG   = 4, /* host_lag                                   */
    GCHOL_XPOSV_DOUBLE_POINTS = 6 /* xposv_auto_double_ms: n = 1024 .. 32768 */
};
enum { GCHOL_TUNE_D = 0, GCHOL_TUNE_S = 1 };

/* One row of potrf's automatic table: the choice for n < n_below. */
typedef struct {
    int64_t n_below;
    int     variant;   /* gchol_variant_t */
    int64_t nb, recnb;
    int     lookahead; /* gchol_lookahead_t */
} gchol_auto_row_t;

/* The choices of one precision. */
typedef struct {
    /* potrf's automatic options (options.c): rows by ascending n_below, the
     * last with n_below = INT64_MAX; the first also serves a blocked variant
     * asked for below the tiled switch. */
    gchol_auto_row_t auto_rows[GCHOL_TUNE_AUTO_ROWS];
    int64_t tiled_below;      /* auto: the single-kernel tiled potrf for n < this */
    int64_t upper_swap_from;  /* auto 'U': swap the triangles from this n, where the
                                 left-looking lookahead runs (INT64_MAX: never) */
    int64_t io_tiled_below;   /* host interface's auto, and pftrf's fused form:
                                 left-looking from this n                    */
    int64_t io_nb, io_nb_from; /* host interface: nb = io_nb from io_nb_from on
                                 (left-looking, nb automatic; INT64_MAX: never) */

    /* the blocked drivers' updates (potrf_driver.c) */
    int     syrk_via_gemm;    /* 1: diagonal updates as gemm into scratch, then
                                 C -= W on the triangle; 0: cuBLAS syrk      */
    int64_t last_term_update_min_k; /* lookahead's last term through the bulk
                                 update (op_update) from this inner size on */
    int64_t gemm_upper_chunk; /* tall gemm updates in pieces of this many rows, */
    int64_t gemm_lower_chunk; /* C stored transposed / as is (0: unsplit)   */
    int64_t gemm_wide_tile_ld; /* gemms on cublasLt's 128 x 128 tiles where ld or
                                 n is at least this (INT64_MAX: never)      */
    int64_t gemm_wide_tile_k; /* ... and the inner size at least this       */
    int     tf32_syrk_update; /* single: bulk update on gchol's 3xTF32 syrk kernel */
    int     tf32_update_min_fill_pct; /* ... where its tiles fill the last wave
                                 of one block per SM at least this much     */

    /* pftrf (pftrf.c): transr 'N', even n, in the fused form, factors on the
     * realigned layout from this n on (INT64_MAX: never) */
    int64_t rfp_realign_from;

    /* syrk_diag (syrk_diag.c), full storage: the cuBLAS composition (dgmm
     * then syrk) instead of gchol's kernel where syrk_diag_cublas_from_m <=
     * m < syrk_diag_cublas_below_m (from INT64_MAX: never) */
    int64_t syrk_diag_cublas_from_m;
    int64_t syrk_diag_cublas_below_m;
} gchol_prec_tune_t;

typedef struct gchol_tune_s {
    const char *name; /* "sm_90", "default" */
    gchol_prec_tune_t prec[2];

    /* syrk_diag's cuBLAS composition: scratch for A*D, in column chunks of
     * at least min_kc columns and otherwise at most scratch_bytes */
    size_t  syrk_diag_cublas_scratch_bytes;
    int64_t syrk_diag_cublas_min_kc;

    /* pinned staging of pageable host memory (host_stage.c) */
    size_t  stage_bytes;        /* per buffer                                */
    size_t  stage_parallel_min; /* copies below this many bytes: the caller alone */
    int     host_threads;       /* copy threads (caller included), at most the
                                   cores; GCHOL_HOST_THREADS sets it instead */

    /* streamed host forms (host_stream.c): blocks of A's columns */
    int64_t host_block_max_bytes;   /* the largest block at most this many bytes */
    int64_t host_block_min_cols;    /* ... and max(m / 2, this) columns */
    int     host_first_block_frac;  /* the first block 1 / this of the largest,
                                       each next twice the last          */
    int     host_parts;             /* C back in this many parts beside the last */
    int64_t host_parts_from_m;      /* block's product, from this m on   */

    /* host-memory potrf (potrf_host.c) */
    int64_t host_copy_nb; /* diagonal blocks copied back through staging    */
    int64_t host_band;    /* view columns copied back per band              */
    int     host_lag;     /* final columns copied back this many steps later */
    int     host_slots;   /* pinned slots for the bands' diagonal blocks    */

    /* the mixed-precision solve's FP16 / BF16 factorization (potrf_lowp.c) */
    int64_t lowp_nb_small;      /* block columns of this width ...          */
    int64_t lowp_nb_large_from; /* ... below this n, from it on:            */
    int64_t lowp_nb_large;
    int     lowp_keep_inverse;  /* 1: the diagonal blocks inverted (strsm on
                                   I), the preconditioner's solves then gemv
                                   only; 0: strsv on the factor's blocks    */
    int     lowp_panel_inverse; /* panels as S21 inv(L11)^T (the inverses
                                   kept): 1 on the TF32 tensor cores, 2 in
                                   single (FP32 sums of FP32 products), 3
                                   on the FP16 / BF16 tensor cores (both
                                   operands scaled, FP32 sums);
                                   0: cublasStrsm                          */
    int     lowp_lookahead;     /* 1: each update's bulk on a second stream
                                   beside the next diagonal block, panel;
                                   2: those on the high-priority stream;
                                   3: as 1, the bulk two panels at a time
                                   (inner dimension 2 nb; no split)       */
    int64_t lowp_update_leaf;   /* 0: the trailing updates one gemm per
                                   block column; L > 0: each update's
                                   triangle split in halves on block
                                   columns' edges down to squares of at
                                   most L (or one block column)           */

    /* the mixed-precision solve's automatic ladder (dxposv.c): FP16, then
     * FP32 when xposv_auto_fp32, then double. The rungs below double may
     * take xposv_auto_share of the double solve's time (0: no limit), as
     * measured at n = 1024 << k (xposv_auto_double_ms[k], one right-hand
     * side), each further right-hand side 8 n^2 bytes at solve_gbs GB/s.
     * Below n = xposv_auto_lowp_from_n it answers in double at once (0:
     * FP16 first at every n) */
    int64_t xposv_auto_lowp_from_n;
    int     xposv_auto_fp32;
    double  xposv_auto_share;
    double  xposv_auto_double_ms[GCHOL_XPOSV_DOUBLE_POINTS];
    double  xposv_auto_solve_gbs;

    /* the mixed-precision solve's one-column residual and GMRES matvec:
     * 1 gchol's symv kernel (kernels/symv.cu; workspace about n^2 / 85
     * doubles), 0 cuBLAS dsymv */
    int     xposv_symv;

    /* batched potrf, the fixed-order forms: from order
     * batched_cublas_from_n[p] ([0] double, [1] single; 0: never) by block
     * columns of batched_cublas_nb (at most GCHOL_BATCHED_PANEL_MAX, 32) on
     * cuBLAS's batched products (potrf_batched_cublas.c) instead of a
     * thread block per matrix */
    int64_t batched_cublas_from_n[2];
    int64_t batched_cublas_nb;
    /* ... and only for batches of at least batched_cublas_min_bytes of
     * matrices (batch n^2 elements; 0: any): on fewer, the block columns'
     * launches wait on each other and a kernel per matrix is ahead */
    int64_t batched_cublas_min_bytes;
    /* ... and on batches below batched_cublas_fused_max_bytes[p] (0:
     * never) each block column in two launches, one product for the whole
     * panel's sums and the panel step in one kernel, instead of four */
    int64_t batched_cublas_fused_max_bytes[2];
    /* ... and on those batches (panel step in one launch) the last block
     * columns, a trailing matrix of order at most batched_cublas_tail_n[p]
     * (0: none; at most GCHOL_BATCHED_LIVE_MAX_N), by one product and the
     * live tiles kernel */
    int64_t batched_cublas_tail_n[2];
    /* ... and, at the orders the tiles kernel takes (kernel.batched_tiles_*),
     * only for batches of at least batched_tiles_max_bytes (0: any): below,
     * the tiles kernel */
    int64_t batched_tiles_max_bytes;
    /* ... and on batches below batched_tiles_small_bytes (0: never), every
     * form, the tiles kernel from batched_tiles_small_from_n[p] (0: its
     * tuned order) instead, ahead of the rows kernel */
    int64_t batched_tiles_small_from_n[2];
    int64_t batched_tiles_small_bytes;
    /* ... and on those batches the panels kernel
     * (kernel.batched_panels_from_n) from batched_panels_small_from_n[p]
     * to 32 (0: never), ahead of the rows kernel and the lane groups */
    int64_t batched_panels_small_from_n[2];
    /* ... and on batches of at most batched_replica_per_sm[p] matrices an
     * SM (0: never), every form, the replica kernel
     * (kernel.batched_replica_*) from batched_replica_from_n[p] to
     * batched_replica_max_n[p] (<= 64), ahead of the kernels above but
     * the FP64 tensor cores' warp kernel */
    int64_t batched_replica_per_sm[2];
    int64_t batched_replica_from_n[2];
    int64_t batched_replica_max_n[2];
    /* ... and the FP64 tensor cores' warp kernel (kernel.batched_dmma_*),
     * every form, only on batches of at least batched_dmma_min_bytes[p]
     * (0: any), ahead of the block columns and of the kernels above */
    int64_t batched_dmma_min_bytes[2];
    /* ... and the live tiles kernel (potrf_batched_live.cu) from
     * batched_live_from_n[p] to batched_live_max_n[p] (0: never; at most
     * GCHOL_BATCHED_LIVE_MAX_N), every form, on batches below
     * batched_live_max_bytes[p] (0: any), ahead of all the above */
    int64_t batched_live_from_n[2];
    int64_t batched_live_max_n[2];
    int64_t batched_live_max_bytes[2];

    gchol_kernel_tune_t kernel; /* the kernels' choices (gchol_kernels.h) */
} gchol_tune_t;

/* The measured tables; the queues use the live copies that
 * gchol_tune_select returns (test hooks applied), and every other
 * architecture a copy of sm_90's without its sm_90-only choices. */
extern const gchol_tune_t gchol_tune_sm90_table;

/* The table for a device of compute capability cc_major.cc_minor: sm_90's
 * for 9.x, the defaults for anything else. Never NULL. */
const gchol_tune_t *gchol_tune_select(int cc_major, int cc_minor);

/* The table of device `device` (the defaults if its capability cannot be
 * had): what a queue on it uses. */
const gchol_tune_t *gchol_tune_for_device(int device);

/* The table of the current device (sm_90's when there is none: the
 * reference for the public gchol_options_resolve without a GPU). */
const gchol_tune_t *gchol_tune_current(void);

/* Re-derives the live tables from the measured ones and the test hooks
 * (test_hooks.c calls it). */
void gchol_tune_refresh(void);

/* The pinned staging's configuration (host_stage.h) from table t: its
 * buffer size and copy threshold, and GCHOL_HOST_THREADS or the table's
 * thread count (at most the cores). */
struct gchol_stage_config_s;
void gchol_tune_stage_config(const gchol_tune_t *t, struct gchol_stage_config_s *cfg);

static inline const gchol_prec_tune_t *gchol_tune_prec(const gchol_tune_t *t, char precision)
{
    return &t->prec[precision == 's' || precision == 'S' ? GCHOL_TUNE_S : GCHOL_TUNE_D];
}
/* In a precision-generic source (after prec.h): queue q's table of this precision. */
#define GCHOL_PTUNE(q) gchol_tune_prec((q)->tune, PREC_CHAR)

/* gchol_options_resolve and gchol_options_resolve_host (options.c) on table t. */
void gchol_options_resolve_tuned(gchol_options_t *opts, const gchol_tune_t *t, char precision,
                                 int64_t n);
void gchol_options_resolve_host_tuned(gchol_options_t *opts, const gchol_tune_t *t,
                                      char precision, int64_t n);
/* Where the host interface's auto leaves the tiled kernel, and pftrf's auto
 * takes its fused form. */
int64_t gchol_left_auto_from_tuned(const gchol_tune_t *t, char precision);

#endif
