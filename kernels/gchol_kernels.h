/*
 * gchol_kernels.h -- C-callable launchers of gchol's CUDA kernels.
 * The line between the portable host drivers (src/) and the hardware kernels
 * (kernels/): drivers see only these functions. Each returns a cudaError_t
 * value (0 on success) after checking the launch.
 */
#ifndef GCHOL_KERNELS_H
#define GCHOL_KERNELS_H

#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest diagonal tile the fused potf2 kernel factors in one launch. */
#define GCHOL_POTF2_MAX_N 128

/*
 * Fused, internally blocked potf2 on one diagonal tile of order n <= 128.
 *   dA     the tile's first element; column-major with ldda
 *   upper  0: the tile's lower triangle holds A and receives L (A = L L^T);
 *          1: its upper triangle holds A and receives U (A = U^T U).
 *          The other triangle is neither read nor written.
 *   col0   0-based global column of the tile's first column, for info
 *   dinfo  device info word: the kernel does nothing when it is already
 *          non-zero, and stores col0 + j (1-based) at the first pivot that is
 *          <= 0 or NaN.
 */
int gchol_dpotf2_launch(int64_t n, double *dA, int64_t ldda, int upper,
                        int64_t col0, int64_t *dinfo, cudaStream_t stream);
int gchol_spotf2_launch(int64_t n, float *dA, int64_t ldda, int upper,
                        int64_t col0, int64_t *dinfo, cudaStream_t stream);

/* The single-kernel tiled Cholesky (potrf_tiled.cu): tile order and the
 * largest n it takes. Its sync workspace holds GCHOL_TILED_SYNC_WORDS ints,
 * its tile workspace GCHOL_TILED_WORK_ELEMS elements of the precision. */
#define GCHOL_TILED_NB    64
#define GCHOL_TILED_MAX_N 16384
#define GCHOL_TILED_SYNC_WORDS (2 + (GCHOL_TILED_MAX_N / GCHOL_TILED_NB) * (GCHOL_TILED_MAX_N / GCHOL_TILED_NB))
#define GCHOL_TILED_WORK_ELEMS (GCHOL_TILED_MAX_N * GCHOL_TILED_NB)

/* The kernels' GPU-dependent choices. The tuning module (src/tune/) fills one
 * per architecture; launchers that need a choice take it as an argument, and
 * take the built-in choices below where it is NULL. */
typedef struct {
    int64_t tiled_one_block_up_to; /* tiled kernel, whole factorizations: one
                                      block per SM up to this n, two above */
    int     tiled_cluster_helper;  /* 1: the chain block gets a helper block
                                      (thread block clusters, sm_90 code only;
                                      elsewhere ignored) */
    double  syrk_diag_flops_per_byte[2]; /* [0] double, [1] single: the kernel's
                                            flop rate over the memory bandwidth
                                            (gchol_syrk_diag_splits_at; a value
                                            <= 0 takes the built-in one) */
    int     batched_reg_max_n;  /* batched potrf / potrs: a lane group per
                                   matrix in registers up to this n (<= 32) */
    int     batched_warp_max_n[2]; /* batched potrf: [0] double, [1] single:
                                   a warp per matrix, left-looking by block
                                   columns of 32 in registers, past the
                                   lane groups and the rows kernel up to
                                   this n (<= 256; 0: none) */
    int     batched_rows_max_n[2]; /* batched potrf: [0] double, [1] single:
                                   a block per matrix, a row a thread in
                                   registers, up to this n (<= 64; 0:
                                   none) */
    int     batched_rows_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: the rows kernel from this n
                                   (0: past batched_reg_max_n) */
    int     batched_mma_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: beyond the rows kernel, a block
                                   per matrix, left-looking with the updates
                                   as multiply-accumulate tiles, from this n
                                   (0: from the first order past the rows
                                   kernel) ... */
    int     batched_mma_max_n[2]; /* ... up to this n (<= 512; 0: none) */
    int     batched_mma_buffers; /* that kernel's chunk buffers: 0 two
                                   where two blocks an SM still fit, else
                                   one; 1 one; 2 two wherever a block's
                                   shared memory holds them              */
    int     batched_potrs_direct_from_n[2]; /* batched potrs: [0] double,
                                   [1] single: from this n the blocked
                                   solves read L where they use it rather
                                   than staging its panels in shared
                                   memory (0: never) */
    int     batched_smem_max_n; /* batched potrf: a block per matrix in
                                   shared memory up to this n (0: as far as
                                   the device's shared memory goes) */
    int     batched_hybrid_max_n; /* beyond, the same kernel with its first
                                   columns in global memory up to this n
                                   (0: none; then the left-looking panel
                                   kernel) */
    int     batched_tiles_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: a block per matrix, its
                                   triangle of 32 x 32 tiles in shared
                                   memory, right-looking, from this n ... */
    int     batched_tiles_max_n[2]; /* ... up to this n (0: none; as far as
                                   the tiles fit in shared memory), ahead
                                   of the kernels above and of the cuBLAS
                                   block columns */
    int     batched_dmma_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: a warp per matrix, left-looking
                                   by block columns of 32 with the updates
                                   on the FP64 tensor cores, from this n ... */
    int     batched_dmma_max_n[2]; /* ... up to this n (<= 512; 0: none),
                                   ahead of every kernel above and of the
                                   cuBLAS block columns */
    int     batched_dmma_blocks[2]; /* ... its blocks of four warps an SM:
                                   4 (128 registers a thread), else 3 */
    int     batched_panels_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: four warps per matrix, right-
                                   looking by panels of 8 columns, from
                                   this n to 32 (0: never), ahead of the
                                   rows kernel and the lane groups */
    int     batched_replica_from_n[2]; /* batched potrf: [0] double, [1]
                                   single: a warp per 8 columns, each lane
                                   factoring the panel's diagonal block
                                   itself, from this n ... */
    int     batched_replica_max_n[2]; /* ... up to this n (<= 64; 0: none),
                                   ahead of every kernel above but the FP64
                                   tensor cores' warp kernel */
} gchol_kernel_tune_t;

/* The built-in choices, for kt == NULL: measured on the H100. */
#define GCHOL_KT_DEFAULT_ONE_BLOCK_UP_TO 5376
#define GCHOL_KT_DEFAULT_CLUSTER_HELPER  1
#define GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_D 15.0 /* 45 TFLOP/s on DMMA */
#define GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_S 23.0 /* 68 TFLOP/s on 3xTF32 */
#define GCHOL_KT_DEFAULT_BATCHED_REG_MAX_N  32

/*
 * The Cholesky factorization of the leading ncols columns of the n x n view
 * at dA in one launch, tiles scheduled by data flow: ncols = n factors the
 * whole matrix (n <= GCHOL_TILED_MAX_N); ncols < n (a multiple of
 * GCHOL_TILED_NB, at most GCHOL_TILED_MAX_N) factors the panel of the n
 * rows by ncols columns, the diagonal block and the solve below it, and
 * leaves the columns right of it alone (n / GCHOL_TILED_NB * ncols /
 * GCHOL_TILED_NB <= GCHOL_TILED_SYNC_WORDS - 2). upper, col0 and dinfo as for
 * potf2 (dinfo receives col0 + k for the first failing pivot k, 1-based; the
 * kernel does nothing if it is already non-zero). dsync: device workspace of
 * GCHOL_TILED_SYNC_WORDS ints, owned by the stream for the launch (it is
 * cleared here, in stream order). dwork: device workspace of
 * GCHOL_TILED_WORK_ELEMS elements, 16-byte aligned, owned by the stream for
 * the launch (the inverse transposes of the diagonal tiles). kt: its
 * tiled_one_block_up_to and tiled_cluster_helper, or the built-in choices
 * where NULL.
 */
int gchol_dpotrf_tiled_launch(int64_t n, int64_t ncols, double *dA, int64_t ldda, int upper,
                              int64_t col0, int64_t *dinfo, int *dsync, double *dwork,
                              const gchol_kernel_tune_t *kt, cudaStream_t stream);
int gchol_spotrf_tiled_launch(int64_t n, int64_t ncols, float *dA, int64_t ldda, int upper,
                              int64_t col0, int64_t *dinfo, int *dsync, float *dwork,
                              const gchol_kernel_tune_t *kt, cudaStream_t stream);

/* Largest k of the tile trsm. */
#define GCHOL_TRSM_MAX_K 128

/*
 * X := B * L^{-T}: B is the m x k lower view at dB (leading dimension ld), L
 * the k x k lower view at dL (ldl; its lower triangle is read, unit diagonal
 * not assumed); upper_l / upper select each view (1: element (i,j) at
 * p[j + i*ld]). Rows of B are solved independently; k <= 128.
 */
int gchol_dtrsm_rlt_launch(int64_t m, int64_t k, const double *dL, int64_t ldl, int upper_l,
                           double *dB, int64_t ld, int upper, cudaStream_t stream);
int gchol_strsm_rlt_launch(int64_t m, int64_t k, const float *dL, int64_t ldl, int upper_l,
                           float *dB, int64_t ld, int upper, cudaStream_t stream);

/* C := C - W on the referenced triangle of the nn x nn view at dC (upper
 * selects the view); W is symmetric, column-major with ldw. */
int gchol_dtri_sub_launch(int64_t nn, const double *dW, int64_t ldw, double *dC, int64_t ldc,
                          int upper, cudaStream_t stream);
int gchol_stri_sub_launch(int64_t nn, const float *dW, int64_t ldw, float *dC, int64_t ldc,
                          int upper, cudaStream_t stream);

/* A(i, j) <-> A(j, i) for the pairs i > j of the n x n matrix at dA (ldda)
 * with ilo <= i < ihi and jlo <= j < jhi (0 <= ilo, jlo; ihi, jhi <= n).
 * Over (0, n, 0, n) the strictly lower and strictly upper triangles trade
 * places, transposed. The diagonal and the padding rows are untouched, and
 * each pair swapped twice comes back bit for bit. */
int gchol_dswap_triangles_launch(int64_t n, double *dA, int64_t ldda, int64_t ilo, int64_t ihi,
                                 int64_t jlo, int64_t jhi, cudaStream_t stream);
int gchol_sswap_triangles_launch(int64_t n, float *dA, int64_t ldda, int64_t ilo, int64_t ihi,
                                 int64_t jlo, int64_t jhi, cudaStream_t stream);

/* Where the symmetric result of syrk_diag goes: element (i, j), i >= j, is
 * stored at ldc-addressed full storage of the `upper` triangle (rfp = 0), or
 * at gchol_rfp_offset(transposed, upper, m, i, j) (rfp = 1). */
typedef struct {
    int     rfp, upper, transposed;
    int64_t ldc;
} gchol_outmap_t;

/* How syrk_diag runs (m, n) on the current device: the number of splits of
 * the long dimension n and the workspace they need (0 when splits = 1).
 * kt: its syrk_diag_flops_per_byte, or the built-in rates where NULL. */
int gchol_syrk_diag_plan(int64_t m, int64_t n, size_t elsize, const gchol_kernel_tune_t *kt,
                         int *splits, size_t *work_bytes);

/* The batched replica kernel's warps per matrix for largest order n <= 64:
 * the fewest of 4, 6 and 8 whose 8 columns each hold n. */
static inline int gchol_batched_replica_warps(int64_t n)
{
    return n <= 32 ? 4 : n <= 48 ? 6 : 8;
}

/*
 * The split count behind gchol_syrk_diag_plan, for `tiles` thread blocks of
 * which `slots` run at once, a long dimension n and elements of elsize bytes
 * (pure, so that it is tested without a GPU). Picks s <= 16, each chunk at
 * least 1024 columns, minimizing waves(s) / s * (1 + r elsize s / n): the
 * time of one split relative to no split, times the partial tiles' write
 * and read against the chunk's flops, r = flops_per_byte being the
 * kernel's flop rate over the memory bandwidth. Splits only where whole
 * waves are few: m = 1024 on 132 SMs, not a large triangle with a ragged
 * last wave. gchol_syrk_diag_splits takes the built-in rates.
 */
static inline int gchol_syrk_diag_splits_at(int64_t tiles, int64_t slots, int64_t n,
                                            size_t elsize, double flops_per_byte)
{
    int best_s = 1;
    double best = 1e300;
    if (tiles <= 0 || slots <= 0 || n <= 0) return 1;
    for (int s = 1; s <= 16; ++s) {
        if (s > 1 && n / s < 1024) break;
        const double waves = (double)((tiles * s + slots - 1) / slots);
        const double traffic = s > 1 ? flops_per_byte * (double)elsize * s / (double)n : 0.0;
        const double cost = waves / s * (1.0 + traffic);
        if (cost < best - 1e-9) {
            best = cost;
            best_s = s;
        }
    }
    return best_s;
}
static inline int gchol_syrk_diag_splits(int64_t tiles, int64_t slots, int64_t n, size_t elsize)
{
    return gchol_syrk_diag_splits_at(tiles, slots, n, elsize,
                                     elsize == 8 ? GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_D
                                                 : GCHOL_KT_DEFAULT_SYRK_FLOPS_PER_BYTE_S);
}

/*
 * potrf's block-column update in single precision, on the syrk_diag kernel
 * (3xTF32): C -= A A^T on the lower triangle of an m x m C restricted to its
 * first ncols columns (the diagonal block and the rows below it), A m x k.
 * A's element (i, k) is at dA[i + k*ldda], or at dA[k + i*ldda] with
 * trans_a (the transposed view of an upper factorization, or a transposed
 * RFP block); C's (i, j) at dC[i + j*lddc], or dC[j + i*lddc] with trans_c.
 * One launch of gchol_syrk_update_tiles(m, ncols) thread blocks, no split
 * of k. tf32: one TF32 product instead of three (gchol_products_t).
 */
int64_t gchol_syrk_update_tiles(int64_t m, int64_t ncols);
int gchol_ssyrk_update_launch(int64_t m, int64_t ncols, int64_t k, const float *dA, int64_t ldda,
                              int trans_a, float *dC, int64_t lddc, int trans_c, int tf32,
                              cudaStream_t stream);

/*
 * C := alpha * A * diag(d)^2 * A^T + beta * C on the lower-triangle tiles of
 * C's first ncols columns (ncols = m: the whole triangle; fewer: the
 * trapezoid of those columns, every row), C addressed through *map. A is
 * m x n (ldda); dd has n entries or is NULL (D = I); with beta = 0 C is not
 * read. splits and dwork from the plan (which sizes them for the whole
 * triangle). tf32 (single only; must be 0 in double): one TF32 product
 * instead of three (gchol_products_t).
 */
int gchol_dsyrk_diag_launch(int64_t m, int64_t ncols, int64_t n, double alpha, const double *dA,
                            int64_t ldda, const double *dd, double beta, double *dC,
                            const gchol_outmap_t *map, int splits, double *dwork, int tf32,
                            cudaStream_t stream);
int gchol_ssyrk_diag_launch(int64_t m, int64_t ncols, int64_t n, float alpha, const float *dA,
                            int64_t ldda, const float *dd, float beta, float *dC,
                            const gchol_outmap_t *map, int splits, float *dwork, int tf32,
                            cudaStream_t stream);

/*
 * Conversions between a full triangle (ldda) and RFP, in either direction
 * (to_rfp = 1: trttf, 0: tfttr). Only the uplo triangle of the full matrix is
 * read or written.
 */
int gchol_drfp_convert_launch(int to_rfp, int transposed, int upper, int64_t n, double *dA,
                              int64_t ldda, double *dARF, cudaStream_t stream);
int gchol_srfp_convert_launch(int to_rfp, int transposed, int upper, int64_t n, float *dA,
                              int64_t ldda, float *dARF, cudaStream_t stream);

/*
 * Rotates each of the ncols columns (len elements each, contiguous) of dA in
 * place: column j left by s_j = (s0 + ds*j) mod len, new[i] = old[(i + s_j)
 * mod len]. pftrf's realigned RFP layout (rfp_index.h). method: auto (the
 * smaller piece through shared memory where it fits, else reversals) or one
 * of the two forced (tests, benchmarks).
 */
enum { GCHOL_ROTATE_AUTO = 0, GCHOL_ROTATE_REVERSALS = 1, GCHOL_ROTATE_SMEM = 2 };
int gchol_drotate_columns_launch(double *dA, int64_t len, int64_t ncols, int64_t s0, int64_t ds,
                                 int method, cudaStream_t stream);
int gchol_srotate_columns_launch(float *dA, int64_t len, int64_t ncols, int64_t s0, int64_t ds,
                                 int method, cudaStream_t stream);

/*
 * Mixed-precision refinement (mixed_prec.cu, src/sposv.c).
 * d2s: S := (float) A on the m x n rectangle (tri 0), its lower (1) or upper
 * (2) triangle; *dflag := 1 if an entry is beyond FLT_MAX in magnitude
 * (dlag2s / dlat2s's overflow; NaN converts). add_s_to_d: X += (double) S.
 * ?lansy_inf: *dnorm := the infinity norm (in double) of the symmetric n x n
 * matrix stored in A's lower (upper = 0) or upper triangle, NaN if an entry
 * is NaN, in one pass over the triangle by square tiles; dwork holds
 * gchol_lansy_inf_work(n) doubles (about n * n / tile). The _tile forms take
 * the tile side (64, 128, 256 or 512; 0: the one ?lansy_inf picks from n,
 * anything else cudaErrorInvalidValue) and dwork of
 * gchol_lansy_inf_tile_work(n, tile) doubles, so that testers reach every
 * tile at small n. drow_wabs_max: *dnorm
 * := ||A D^2||_inf = max_i sum_k |a_ik| d_k^2 (d NULL: D = I) for the m x n
 * A; dwork holds gchol_row_wabs_max_work(m, n) doubles. Both deterministic.
 * dcol_absmax: dout[j] := max |A(:, j)| for the n columns of the m x n A
 * (NaN if one is NaN). ?scale_rows_sq: X(i, j) *= d_i^2 on the m x n X.
 */
int gchol_d2s_launch(int64_t m, int64_t n, const double *A, int64_t lda, float *S, int64_t lds,
                     int tri, int *dflag, cudaStream_t stream);
int gchol_add_s_to_d_launch(int64_t m, int64_t n, const float *S, int64_t lds, double *X,
                            int64_t ldx, cudaStream_t stream);
size_t gchol_lansy_inf_work(int64_t n);
int gchol_dlansy_inf_launch(int64_t n, const double *A, int64_t lda, int upper, double *dwork,
                            double *dnorm, cudaStream_t stream);
int gchol_slansy_inf_launch(int64_t n, const float *A, int64_t lda, int upper, double *dwork,
                            double *dnorm, cudaStream_t stream);
size_t gchol_lansy_inf_tile_work(int64_t n, int64_t tile);
int gchol_dlansy_inf_tile_launch(int64_t n, const double *A, int64_t lda, int upper, int64_t tile,
                                 double *dwork, double *dnorm, cudaStream_t stream);
int gchol_slansy_inf_tile_launch(int64_t n, const float *A, int64_t lda, int upper, int64_t tile,
                                 double *dwork, double *dnorm, cudaStream_t stream);
size_t gchol_row_wabs_max_work(int64_t m, int64_t n);
int gchol_drow_wabs_max_launch(int64_t m, int64_t n, const double *A, int64_t lda,
                               const double *d, double *dwork, double *dnorm,
                               cudaStream_t stream);
int gchol_dscale_rows_sq_launch(int64_t m, int64_t n, const double *d, double *X, int64_t ldx,
                                cudaStream_t stream);
int gchol_sscale_rows_sq_launch(int64_t m, int64_t n, const float *d, float *X, int64_t ldx,
                                cudaStream_t stream);
int gchol_dcol_absmax_launch(int64_t m, int64_t n, const double *A, int64_t lda, double *dout,
                             cudaStream_t stream);

/*
 * The symmetric matrix-vector product (symv.cu): y := alpha A x + beta y for
 * the symmetric n x n A stored in the lower (upper = 0) or upper (upper = 1)
 * triangle of dA (column-major, ldda >= max(1, n)); the other triangle is
 * never read. x and y have unit stride; beta = 0: y is not read; alpha = 0:
 * neither A nor x is read. Deterministic (the same inputs give the same
 * bits). dwork holds gchol_symv_work(n) elements of the precision (about
 * n^2 / 85: 12.6 M at n = 32768), owned by the stream for the launch.
 * cudaErrorInvalidValue for n < 0, n > 16776960 or a bad ldda.
 */
size_t gchol_symv_work(int64_t n);
int gchol_dsymv_launch(int64_t n, double alpha, const double *dA, int64_t ldda, int upper,
                       const double *dx, double beta, double *dy, double *dwork,
                       cudaStream_t stream);
int gchol_ssymv_launch(int64_t n, float alpha, const float *dA, int64_t ldda, int upper,
                       const float *dx, float beta, float *dy, float *dwork,
                       cudaStream_t stream);

/*
 * The low-precision SPD solve's conversions (lowp_convert.cu).
 * diag_inv_sqrt: d_i := 1 / sqrt(A(i, i)); *dflag := 1 if a diagonal entry
 * is not positive and finite (d_i 0 then).
 * scale_lower_d2s: the lower triangle of the n x n single S := D A D, D =
 * diag(d), from A's lower (upper = 0) or upper (upper = 1) triangle; *dflag
 * := 1 for an entry that is NaN or beyond FLT_MAX.
 * panel_to_lowp: P := (FP16, or BF16 when bf16) scale * S, m x n; also
 * copy := S (ldc) unless copy is NULL.
 * scaled_d2s / scaled_s2d: t := (float)(2^-e d .* v), z := 2^e d .* (double) t,
 * 2^e near max |d_i v_i|, which scaled_d2s leaves in the 8 device bytes
 * amax for scaled_s2d.
 * inverse_to_lowp: Wh := (FP16, or BF16 when bf16) 2^f W, n x n, 2^f the
 * power of two that takes max |W| to [2^14, 2^15) (1 for 0, NaN or Inf,
 * which then reach Wh as they are); words (3 device words, none shared
 * with other work on the stream): the max's bits, then
 * 1 / (panel_scale 2^f) and 0 (float), the alpha and beta of the product
 * of Wh with a panel scaled by panel_scale.
 * s_add_diag: S(i, i) += shift.
 * s_unit_diag: e_i := S(i, i)^(-1/4) (1 where S(i, i) is not positive and
 * finite) and S := E^2 S E^2 on S's lower triangle, in place (a unit
 * diagonal), the strictly upper triangle zeroed; gchol_sscale_rows_sq_launch
 * with e then applies the same E^2.
 */
int gchol_diag_inv_sqrt_launch(int64_t n, const double *A, int64_t lda, double *d, int *dflag,
                               cudaStream_t stream);
int gchol_scale_lower_d2s_launch(int64_t n, const double *A, int64_t lda, int upper,
                                 const double *d, float *S, int64_t lds, int *dflag,
                                 cudaStream_t stream);
int gchol_panel_to_lowp_launch(int64_t m, int64_t n, const float *S, int64_t lds, void *P,
                               int64_t ldp, int bf16, float scale, float *copy, int64_t ldc,
                               cudaStream_t stream);
int gchol_inverse_to_lowp_launch(int64_t n, const float *W, int64_t ldw, void *Wh, int64_t ldh,
                                 int bf16, float panel_scale, void *words, cudaStream_t stream);
int gchol_scaled_d2s_launch(int64_t n, const double *d, const double *v, float *t, void *amax,
                            cudaStream_t stream);
int gchol_scaled_s2d_launch(int64_t n, const double *d, const float *t, double *z,
                            const void *amax, cudaStream_t stream);
int gchol_s_add_diag_launch(int64_t n, float *S, int64_t lds, float shift, cudaStream_t stream);
int gchol_s_unit_diag_launch(int64_t n, float *S, int64_t lds, float *e, cudaStream_t stream);

/*
 * Batched Cholesky (potrf_batched.cu): count matrices, the uplo triangle
 * (upper 0 'L', 1 'U'); matrix b at dA + b * stride of order n and leading
 * dimension ldda (dA_array and dn NULL), at dA_array[b] of order n (dn
 * NULL), or at dA_array[b] of order dn[b] <= n and leading dimension
 * dldda[b] (a matrix whose own order or leading dimension is bad gets
 * dinfo -1 or -2 and is not touched). dinfo[b] receives that matrix's info
 * (0, or k for the first pivot <= 0 or NaN). Nothing for count <= 0,
 * nor for n <= 0 in the fixed-order forms (the caller sets dinfo).
 */
int gchol_dpotrf_batched_launch(int64_t n, double *dA, double *const *dA_array, const int64_t *dn,
                                int64_t ldda, const int64_t *dldda, int64_t stride, int upper,
                                int64_t *dinfo, int64_t count, const gchol_kernel_tune_t *kt,
                                cudaStream_t stream);
int gchol_spotrf_batched_launch(int64_t n, float *dA, float *const *dA_array, const int64_t *dn,
                                int64_t ldda, const int64_t *dldda, int64_t stride, int upper,
                                int64_t *dinfo, int64_t count, const gchol_kernel_tune_t *kt,
                                cudaStream_t stream);

/*
 * The batched Cholesky by block columns on cuBLAS's batched products
 * (potrf_batched_cublas.cu, for src/potrf_batched_cublas.c), count matrices
 * of a batch as above (dA + b * stride, or dA_array[b]; upper 0 'L', 1 'U'):
 *   ptrs   out[c * count + b] := the matrix b's base + off[c], c < noff
 *          (<= GCHOL_BATCHED_PTRS_MAX);
 *   panel  block column k..k+kb-1 (kb <= GCHOL_BATCHED_PANEL_MAX) of each
 *          matrix whose dinfo[b] is 0, its rows k..k+rows-1 of the lower
 *          view ((i, j) is A(i, j) for 'L', A(j, i) for 'U'): X := that
 *          panel plus the sums S_b (W non-NULL; S_b in the same view,
 *          (r, c) at W + b wstride + r + c ldw for 'L', + c + r ldw for
 *          'U'; only its top kb x kb rows are read unless fused), X's top
 *          factored, X_kk = L_kk L_kk^T, and the rows below solved,
 *          X_k+ := X_k+ L_kk^-T, into A's uplo triangle. fused: in one
 *          launch, a thread block per matrix (for batches that do not fill
 *          the GPU), else in two. At a pivot that is not positive (or
 *          NaN), the block's column f (1-based): dinfo[b] := k + f, the
 *          rows below solved for the columns before f only. Matrices with
 *          dinfo[b] != 0 are not touched; W is only read.
 *   trailing_copy  the n x n trailing matrix at A(k0, k0) of each matrix
 *          (n <= 256), its uplo triangle, to W + b wstride (leading
 *          dimension ldw >= n; column c of the triangle at column c of W).
 */
enum {
    GCHOL_BATCHED_PTRS_MAX = 4,
    GCHOL_BATCHED_PANEL_MAX = 32,
    GCHOL_BATCHED_PANEL_WORK = 32 * 32
};
int gchol_dbatched_ptrs_launch(int64_t count, double *dA, double *const *dA_array,
                               int64_t stride, const int64_t *off, int noff, double **out,
                               cudaStream_t stream);
int gchol_sbatched_ptrs_launch(int64_t count, float *dA, float *const *dA_array, int64_t stride,
                               const int64_t *off, int noff, float **out, cudaStream_t stream);
int gchol_dbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, double *dA,
                                double *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                const double *W, int64_t ldw, int64_t wstride, int fused,
                                int64_t *dinfo, cudaStream_t stream);
int gchol_sbatched_panel_launch(int64_t count, int64_t kb, int64_t rows, int upper, float *dA,
                                float *const *dA_array, int64_t stride, int64_t ldda, int64_t k,
                                const float *W, int64_t ldw, int64_t wstride, int fused,
                                int64_t *dinfo, cudaStream_t stream);
int gchol_dbatched_trailing_copy_launch(int64_t count, int64_t n, int upper, const double *dA,
                                        double *const *dA_array, int64_t stride, int64_t ldda,
                                        int64_t k0, double *W, int64_t ldw, int64_t wstride,
                                        cudaStream_t stream);
int gchol_sbatched_trailing_copy_launch(int64_t count, int64_t n, int upper, const float *dA,
                                        float *const *dA_array, int64_t stride, int64_t ldda,
                                        int64_t k0, float *W, int64_t ldw, int64_t wstride,
                                        cudaStream_t stream);

/*
 * Batched solves with Cholesky factors (potrs_batched.cu): count systems of
 * order n with nrhs right-hand sides; factor b at dA + b * strideA (dA_array
 * NULL) or dA_array[b], its B at dB + b * strideB (dB_array NULL) or
 * dB_array[b]; upper 0 'L', 1 'U'. With dinfo, a system whose dinfo[b] is
 * not 0 is skipped (its B untouched). Nothing for n, nrhs or count <= 0.
 */
int gchol_dpotrs_batched_launch(int64_t n, int64_t nrhs, const double *dA,
                                const double *const *dA_array, int64_t ldda, int64_t strideA,
                                double *dB, double *const *dB_array, int64_t lddb,
                                int64_t strideB, int upper, const int64_t *dinfo, int64_t count,
                                const gchol_kernel_tune_t *kt, cudaStream_t stream);
int gchol_spotrs_batched_launch(int64_t n, int64_t nrhs, const float *dA,
                                const float *const *dA_array, int64_t ldda, int64_t strideA,
                                float *dB, float *const *dB_array, int64_t lddb, int64_t strideB,
                                int upper, const int64_t *dinfo, int64_t count,
                                const gchol_kernel_tune_t *kt, cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
