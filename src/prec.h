/*
 * prec.h -- the precision switch of the precision-generic C sources.
 * Each generic source is compiled twice: with -DGCHOL_PREC_D and with
 * -DGCHOL_PREC_S. PFX(potrf_gpu) names gchol_dpotrf_gpu or gchol_spotrf_gpu.
 */
#ifndef GCHOL_PREC_H
#define GCHOL_PREC_H

#if defined(GCHOL_PREC_D)
typedef double FLOAT;
#define PREC_CHAR       'd'
#define PFX(name)       gchol_d##name
#define BLAS_SYRK       cublasDsyrk_64
#define BLAS_GEMM       cublasDgemm_64
#define BLAS_GEMV       cublasDgemv_64
#define SCALE_ROWS_SQ_LAUNCH gchol_dscale_rows_sq_launch
#define POTF2_LAUNCH    gchol_dpotf2_launch
#define POTRF_TILED_LAUNCH gchol_dpotrf_tiled_launch
#define TRSM_LEAF_LAUNCH gchol_dtrsm_rlt_launch
#define TRI_SUB_LAUNCH  gchol_dtri_sub_launch
#define BLAS_TRSM       cublasDtrsm_64
#define BLAS_TRSV       cublasDtrsv_64
#define SYRK_DIAG_LAUNCH gchol_dsyrk_diag_launch
#define RFP_CONVERT_LAUNCH gchol_drfp_convert_launch
#define ROTATE_COLUMNS_LAUNCH gchol_drotate_columns_launch
#define SWAP_TRIANGLES_LAUNCH gchol_dswap_triangles_launch
/* cuBLAS dsyrk runs at ~40 TFLOP/s on the left-looking diagonal update:
 * better than gemm on the full square, which does twice the flops. */
#define SYRK_VIA_GEMM   0
/* The last term of a block column's update stays two cuBLAS calls. */
#define LAST_TERM_UPDATE_MIN_K INT64_MAX
/* The gemm updates are not split (see the single case). */
#define GEMM_UPPER_CHUNK 0
#define GEMM_LOWER_CHUNK 0
/* The updates' gemms on cublasLt's 128 x 128 tiles
 * (gemm_lt.c) where the leading dimension or the matrix's order is at least
 * _LD (the order: RFP 'T''s blocks have ld about n / 2, and took the tiles
 * from n = 36864 only: pftrf T,L / T,U 2-3% / 6.5% faster at 32768 with
 * them, docs/results/s32/c2/), the inner size at least _K and the columns
 * 16-byte aligned. At n = 40960 cuBLAS dgemm's
 * 64 x 64 tiles run every other update at 37-48 TFLOP/s once k passes
 * ~26000, the 128 x 128 ones at 52-57 (docs/results/s15/c2/: the bulk
 * updates with k >= 8192 from ld 36864, fifteenth session). Timed apart,
 * the wide tiles lost 0-7% at 16384-32768; inside the factorization, every
 * update on them (the panel stream's last terms too) runs 2-5% faster from
 * n = 18432 (ms, lower, two rounds: 18432 43.1 / 42.9 -> 42.2 / 42.2,
 * 20480 58.4 / 59.1 -> 55.9 / 56.4, 24576 100.1 / 101.5 -> 96.3 / 97.2,
 * 32768 234.4 / 238.4 -> 225.8 / 228.3, 40960 445.1 / 450.0 -> 439.9 /
 * 441.3 against the k >= 8192 rule), within the spread at 16384-17408 and
 * 2-3% slower at 8192-12288 (docs/results/s30/c1/-c4/). */
#ifndef GCHOL_WIDE_TILE_LD /* (overridable for A/B and test builds) */
#define GCHOL_WIDE_TILE_LD 18432
#endif
#ifndef GCHOL_WIDE_TILE_K
#define GCHOL_WIDE_TILE_K 0
#endif
/* Every operand layout: the upper view's updates (T, N) 0.5-4% faster
 * from 18432 (ms, two rounds, cuBLAS / wide tiles: 18432 44.1, 43.4 /
 * 43.3, 43.2; 20480 62.0, 62.6 / 60.2, 61.3; 32768 237.4, 240.0 / 228.4,
 * 229.7; 40960 460.3, 463.7 / 443.8, 447.3; docs/results/s30/c9/, c10/);
 * RFP's updates whose operands are stored unlike each other (pftrf N,L and
 * T,L 1.5-3.5% and 2.5-5% faster at 24576 / 32768, the 'U' variants
 * unchanged; docs/results/s32/c3/). */
#define GEMM_WIDE_TILE_LD GCHOL_WIDE_TILE_LD
#define GEMM_WIDE_TILE_K  GCHOL_WIDE_TILE_K
#define LT_DATA         CUDA_R_64F
#define LT_COMPUTE      CUBLAS_COMPUTE_64F
#elif defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC_CHAR       's'
#define PFX(name)       gchol_s##name
#define BLAS_SYRK       cublasSsyrk_64
#define BLAS_GEMM       cublasSgemm_64
#define BLAS_GEMV       cublasSgemv_64
#define SCALE_ROWS_SQ_LAUNCH gchol_sscale_rows_sq_launch
#define POTF2_LAUNCH    gchol_spotf2_launch
#define POTRF_TILED_LAUNCH gchol_spotrf_tiled_launch
#define TRSM_LEAF_LAUNCH gchol_strsm_rlt_launch
#define TRI_SUB_LAUNCH  gchol_stri_sub_launch
#define BLAS_TRSM       cublasStrsm_64
#define BLAS_TRSV       cublasStrsv_64
#define SYRK_DIAG_LAUNCH gchol_ssyrk_diag_launch
#define RFP_CONVERT_LAUNCH gchol_srfp_convert_launch
#define ROTATE_COLUMNS_LAUNCH gchol_srotate_columns_launch
#define SWAP_TRIANGLES_LAUNCH gchol_sswap_triangles_launch
/* cuBLAS ssyrk with small n and long k runs at ~6 TFLOP/s on the H100; sgemm
 * on the full square into scratch, then C -= W on the triangle, is faster. */
#define SYRK_VIA_GEMM   1
/* cuBLAS's sgemm for op (T, N), upper's update, picks a slow kernel at some
 * of the factorization's shapes (m = 19456, k = 12800: 1.32x lower's time);
 * gemms cut into 4096-wide pieces avoid them: spotrf 'U' at n = 32768 283
 * -> 262-267 ms, 24576 118-121 -> 114-116 (8192 or 12288 wide: less; double
 * gains nothing). */
#ifndef GCHOL_S_UPPER_CHUNK /* (overridable for A/B builds) */
#define GCHOL_S_UPPER_CHUNK 4096
#endif
#define GEMM_UPPER_CHUNK GCHOL_S_UPPER_CHUNK
/* Lower's (op N, T) gain too, less, with 8192-tall pieces: spotrf 'L' at
 * n = 24576 / 32768 / 40960 108.6 / 244.7 / 464.7 -> 107.2 / 241.8 /
 * 460.3 ms (two calls each; 4096: 1% less gain, 12288 / 16384: half;
 * docs/results/s5/lchunk/). */
#ifndef GCHOL_S_LOWER_CHUNK /* (overridable for A/B builds) */
#define GCHOL_S_LOWER_CHUNK 8192
#endif
#define GEMM_LOWER_CHUNK GCHOL_S_LOWER_CHUNK
/* The left-looking bulk update (syrk on the diagonal block and gemm below
 * it) in one launch of gchol's 3xTF32 syrk kernel, which runs at 65-70
 * TFLOP/s where cuBLAS sgemm runs at ~50 (kernels/syrk_diag.cu). */
#define SYRK_UPDATE_LAUNCH gchol_ssyrk_update_launch
#ifndef GCHOL_NO_TF32_UPDATE /* (1: cuBLAS as before, for A/B builds) */
#define GCHOL_NO_TF32_UPDATE 0
#endif
/* The last term of the update (the panel stream's, inner size nb) too, where
 * nb >= 1024: spotrf 8192 L 6.38 -> 5.83 ms, U 6.92 -> 6.56, 12288 15.7 ->
 * 15.2; with nb = 512 (n >= 20480) it gained nothing, and lower at 32768 /
 * 40960 lost 1-2% (docs/results/s8/c10/). */
#define LAST_TERM_UPDATE_MIN_K 1024
/* sgemm's updates mostly run on the 3xTF32 kernel: no wide-tile gemm. */
#define GEMM_WIDE_TILE_LD INT64_MAX
#define GEMM_WIDE_TILE_K  INT64_MAX
#define LT_DATA         CUDA_R_32F
#define LT_COMPUTE      CUBLAS_COMPUTE_32F
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#endif
