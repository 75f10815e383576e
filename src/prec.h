/*
 * prec.h -- the precision switch of the precision-generic C sources.
 * Each generic source is compiled twice: with -DGCHOL_PREC_D and with
 * -DGCHOL_PREC_S. PFX(potrf_gpu) names gchol_dpotrf_gpu or gchol_spotrf_gpu;
 * the other names map to the cuBLAS routines and kernel launchers of the
 * precision. The sizes each precision runs with are in the tuning tables
 * (src/tune/).
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
#define BLAS_DGMM       cublasDdgmm_64
#define BLAS_TRSM       cublasDtrsm_64
#define BLAS_TRSV       cublasDtrsv_64
#define BLAS_GEAM       cublasDgeam_64
#define BLAS_TRTTP      cublasDtrttp
#define BLAS_TPTTR      cublasDtpttr
#define LT_DATA         CUDA_R_64F
#define LT_COMPUTE      CUBLAS_COMPUTE_64F
#define SCALE_ROWS_SQ_LAUNCH  gchol_dscale_rows_sq_launch
#define POTF2_LAUNCH          gchol_dpotf2_launch
#define POTRF_TILED_LAUNCH    gchol_dpotrf_tiled_launch
#define TRSM_LEAF_LAUNCH      gchol_dtrsm_rlt_launch
#define TRI_SUB_LAUNCH        gchol_dtri_sub_launch
#define SYRK_DIAG_LAUNCH      gchol_dsyrk_diag_launch
#define RFP_CONVERT_LAUNCH    gchol_drfp_convert_launch
#define ROTATE_COLUMNS_LAUNCH gchol_drotate_columns_launch
#define SWAP_TRIANGLES_LAUNCH gchol_dswap_triangles_launch
#define POTRF_BATCHED_LAUNCH  gchol_dpotrf_batched_launch
#define POTRF_BATCHED_LIVE_LAUNCH gchol_dpotrf_batched_live_launch
#define POTRS_BATCHED_LAUNCH  gchol_dpotrs_batched_launch
#define BATCHED_PTRS_LAUNCH   gchol_dbatched_ptrs_launch
#define BATCHED_PANEL_LAUNCH  gchol_dbatched_panel_launch
#define BATCHED_TRAILING_COPY_LAUNCH gchol_dbatched_trailing_copy_launch
#define POTRF_BATCHED_LIVE_TRAILING_LAUNCH gchol_dpotrf_batched_live_trailing_launch
#define BLAS_GEMM_BATCHED     cublasDgemmBatched_64
#define BLAS_GEMM_STRIDED     cublasDgemmStridedBatched_64
#define PREC_INDEX            0
/* (no SYRK_UPDATE_LAUNCH: the fused bulk-update kernel is single's) */
#elif defined(GCHOL_PREC_S)
typedef float FLOAT;
#define PREC_CHAR       's'
#define PFX(name)       gchol_s##name
#define BLAS_SYRK       cublasSsyrk_64
#define BLAS_GEMM       cublasSgemm_64
#define BLAS_GEMV       cublasSgemv_64
#define BLAS_DGMM       cublasSdgmm_64
#define BLAS_TRSM       cublasStrsm_64
#define BLAS_TRSV       cublasStrsv_64
#define BLAS_GEAM       cublasSgeam_64
#define BLAS_TRTTP      cublasStrttp
#define BLAS_TPTTR      cublasStpttr
#define LT_DATA         CUDA_R_32F
#define LT_COMPUTE      CUBLAS_COMPUTE_32F
#define SCALE_ROWS_SQ_LAUNCH  gchol_sscale_rows_sq_launch
#define POTF2_LAUNCH          gchol_spotf2_launch
#define POTRF_TILED_LAUNCH    gchol_spotrf_tiled_launch
#define TRSM_LEAF_LAUNCH      gchol_strsm_rlt_launch
#define TRI_SUB_LAUNCH        gchol_stri_sub_launch
#define SYRK_DIAG_LAUNCH      gchol_ssyrk_diag_launch
#define RFP_CONVERT_LAUNCH    gchol_srfp_convert_launch
#define ROTATE_COLUMNS_LAUNCH gchol_srotate_columns_launch
#define SWAP_TRIANGLES_LAUNCH gchol_sswap_triangles_launch
#define POTRF_BATCHED_LAUNCH  gchol_spotrf_batched_launch
#define POTRF_BATCHED_LIVE_LAUNCH gchol_spotrf_batched_live_launch
#define POTRS_BATCHED_LAUNCH  gchol_spotrs_batched_launch
#define BATCHED_PTRS_LAUNCH   gchol_sbatched_ptrs_launch
#define BATCHED_PANEL_LAUNCH  gchol_sbatched_panel_launch
#define BATCHED_TRAILING_COPY_LAUNCH gchol_sbatched_trailing_copy_launch
#define POTRF_BATCHED_LIVE_TRAILING_LAUNCH gchol_spotrf_batched_live_trailing_launch
#define BLAS_GEMM_BATCHED     cublasSgemmBatched_64
#define BLAS_GEMM_STRIDED     cublasSgemmStridedBatched_64
#define PREC_INDEX            1
/* The left-looking bulk update (syrk on the diagonal block and gemm below
 * it) in one launch of gchol's 3xTF32 syrk kernel (kernels/syrk_diag.cu);
 * where, the tuning table's tf32_syrk_update says. */
#define SYRK_UPDATE_LAUNCH    gchol_ssyrk_update_launch
#else
#error "compile with -DGCHOL_PREC_D or -DGCHOL_PREC_S"
#endif

#endif
