/*
 * internal.h -- what the host drivers share: the queue's layout and the
 * status-checking helpers. Not installed.
 */
#ifndef GCHOL_INTERNAL_H
#define GCHOL_INTERNAL_H

#include "gchol.h"
#include "../kernels/rfp_index.h"

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* Order of the largest symmetric update done through scratch. */
#define GCHOL_SCRATCH_N 1024

struct gchol_tune_s;
struct gchol_queue_s {
    int            device;
    const struct gchol_tune_s *tune; /* the tables for this device (src/tune/) */
    cudaStream_t   stream;       /* main stream: updates, results ordered here */
    cudaStream_t   panel_stream; /* high priority: lookahead panels            */
    int            owns_stream;  /* 0 when created from the caller's stream    */
    cublasHandle_t blas;         /* bound to stream                            */
    cublasHandle_t panel_blas;   /* bound to panel_stream: a handle's workspace
                                    must not be shared by two streams at once */
    cublasLtHandle_t lt;         /* for gemm_lt.c (stream passed per call)     */
    cudaEvent_t    ev_fork, ev_join, ev_panel, ev_update;
    cudaStream_t   up_stream;    /* host interface: uploads, and downloads of */
    cudaStream_t   down_stream;  /* finished columns beside the factorization */
    int64_t       *dinfo;        /* device info word of the synchronous forms  */
    int64_t       *hinfo;        /* pinned copy of it                          */
    void          *dwork;        /* device matrix of the host interface        */
    size_t         dwork_bytes;
    void          *hstage;       /* pinned staging of diagonal blocks          */
    void          *dscratch[2];  /* per stream (main, panel): GCHOL_SCRATCH_N^2
                                    elements of double, for syrk via gemm and
                                    the tiled kernel's inverses (dwork) when
                                    it runs on that stream                   */
    size_t         hstage_bytes;
    struct gchol_stage_s *stager; /* pinned chunked copies (host_stage.c)     */
    int            stager_failed;
    int           *dtile_sync;   /* GCHOL_TILED_SYNC_WORDS: tickets and ready
                                    flags of the tiled kernel; one launch at
                                    a time uses them (whole matrix on the main
                                    stream, or each panel in turn)          */
};

/* Staged copies between pageable host memory and the device (host_stage.c).
 * h2d returns once the data is staged (the DMA runs on s); d2h once it is in
 * h. Pitches and width in bytes, height = number of runs. */
typedef struct gchol_stage_s gchol_stage_t;
int64_t     gchol_stage_create(gchol_stage_t **st);
void        gchol_stage_destroy(gchol_stage_t *st);
cudaError_t gchol_stage_h2d(gchol_stage_t *st, void *d, size_t dpitch, const void *h,
                            size_t hpitch, size_t width, size_t height, cudaStream_t s);
cudaError_t gchol_stage_d2h(gchol_stage_t *st, void *h, size_t hpitch, const void *d,
                            size_t dpitch, size_t width, size_t height, cudaStream_t s);

/* The stager for copies to or from host memory at h: NULL when h is pinned
 * (direct copies are faster there), when staging is off
 * (GCHOL_HOST_STAGE=0) or when its pinned buffers cannot be had; the
 * caller then copies directly. Created on first use, kept by the queue. */
gchol_stage_t *gchol_queue_stager(gchol_queue_t q, const void *h);

/* cudaMemcpy2DAsync between host and device memory (kind: HostToDevice or
 * DeviceToHost), through stager st (from gchol_queue_stager for the host
 * side; the caller asks once per host array, as the lookup asks the driver
 * about the pointer), or directly when st is NULL. Uploads may return
 * before the DMA ends, as cudaMemcpy2DAsync; before reading a download,
 * synchronize s, as with cudaMemcpy2DAsync. */
cudaError_t gchol_copy_2d(gchol_stage_t *st, enum cudaMemcpyKind kind, void *dst, size_t dpitch,
                          const void *src, size_t spitch, size_t width, size_t height,
                          cudaStream_t s);

/* cudaMallocAsync that leaves no error behind when it fails (the next
 * launcher's cudaGetLastError would report it again); *p NULL then. */
static inline cudaError_t gchol_malloc_async(void **p, size_t bytes, cudaStream_t s)
{
    cudaError_t e = cudaMallocAsync(p, bytes, s);
    if (e != cudaSuccess) {
        *p = NULL;
        (void)cudaGetLastError();
    }
    return e;
}

/* Maps a CUDA error to a gchol status. */
static inline int64_t gchol_from_cuda(cudaError_t e)
{
    switch (e) {
    case cudaSuccess:                return GCHOL_SUCCESS;
    case cudaErrorMemoryAllocation:  return GCHOL_ERR_DEVICE_ALLOC;
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInvalidDevice:     return GCHOL_ERR_NO_DEVICE;
    default:                         return GCHOL_ERR_CUDA;
    }
}

static inline int64_t gchol_from_cublas(cublasStatus_t s)
{
    if (s == CUBLAS_STATUS_SUCCESS) return GCHOL_SUCCESS;
    if (s == CUBLAS_STATUS_ALLOC_FAILED) return GCHOL_ERR_DEVICE_ALLOC;
    return GCHOL_ERR_CUBLAS;
}

/* Evaluate a CUDA / cuBLAS call; on failure store the status in `st` and jump
 * to the function's `done` label, where cleanup runs. */
#define GCHOL_CUDA(call)                                                     \
    do { cudaError_t e_ = (call);                                            \
         if (e_ != cudaSuccess) { st = gchol_from_cuda(e_); goto done; } } while (0)
#define GCHOL_BLAS(call)                                                     \
    do { cublasStatus_t s_ = (call);                                         \
         if (s_ != CUBLAS_STATUS_SUCCESS) { st = gchol_from_cublas(s_); goto done; } } while (0)
#define GCHOL_TRY(call)                                                      \
    do { int64_t t_ = (call); if (t_ != GCHOL_SUCCESS) { st = t_; goto done; } } while (0)

/* Makes the queue's device current; *prev receives the device to restore. */
int64_t gchol_queue_enter(gchol_queue_t q, int *prev);
void    gchol_queue_leave(int prev);

/* Grows the queue's device / pinned host buffers to at least `bytes`. */
int64_t gchol_queue_reserve_device(gchol_queue_t q, size_t bytes);
int64_t gchol_queue_reserve_host(gchol_queue_t q, size_t bytes);

/* The library-owned queue of the plain host interface, locked while used. */
int64_t gchol_default_queue_acquire(gchol_queue_t *q);
void    gchol_default_queue_release(void);

/* Where the host interface's auto (gchol_options_resolve_host) leaves the
 * tiled kernel, and pftrf's auto takes its fused form: 4608 double, 6144
 * single. */
int64_t gchol_left_auto_from(char precision);

/* Whether resolved options factor an n x n matrix with the left-looking
 * driver's lookahead over more than one block column: the only path that
 * swaps 'U' block by block beside its work, and that reports final columns
 * to the host interface (whose copies back then run beside it). */
int gchol_options_left_lookahead(const gchol_options_t *opts, int64_t n);

/* Checks an options struct; 1 if valid (NULL is valid), 0 if not. */
int gchol_options_valid(const gchol_options_t *opts);

static inline int gchol_uplo_valid(char uplo)
{
    return uplo == 'L' || uplo == 'l' || uplo == 'U' || uplo == 'u';
}
static inline int gchol_uplo_is_upper(char uplo) { return uplo == 'U' || uplo == 'u'; }

/* RFP's transr: 'N' (normal) or 'T' (transposed), either case. */
static inline int gchol_transr_valid(char t)
{
    return t == 'N' || t == 'n' || t == 'T' || t == 't';
}
static inline int gchol_transr_is_trans(char t) { return t == 'T' || t == 't'; }

/* The host interface's transfers, interleaved with a factorization of the
 * device matrix by the driver (potrf_driver.c, potrf_host.c). The driver
 * calls need(ctx, c) before it enqueues anything that touches view columns
 * below c: they must then be on the device, in the order of both streams.
 * The left-looking driver with lookahead calls it step by step, and
 * final(ctx, c, s) once columns below c are finished at the point just
 * enqueued on stream s; every other path calls need(ctx, n) first. */
typedef struct {
    void   *ctx;
    int64_t (*need)(void *ctx, int64_t col_end);
    int64_t (*final)(void *ctx, int64_t col_end, cudaStream_t s);
} gchol_host_io_t;

/* gchol_?potrf_expert_gpu with the host interface's transfers: synchronous,
 * returns 0, k > 0 or a gchol_status_t (arguments already checked). */
int64_t gchol_dpotrf_io(char uplo, int64_t n, double *dA, int64_t ldda,
                        const gchol_options_t *opts, const gchol_host_io_t *io,
                        gchol_queue_t queue);
int64_t gchol_spotrf_io(char uplo, int64_t n, float *dA, int64_t ldda,
                        const gchol_options_t *opts, const gchol_host_io_t *io,
                        gchol_queue_t queue);

/* The left-looking driver on the blocks of an RFP array (potrf_driver.c):
 * factors columns c0..n-1 of its lower view, those before being final;
 * synchronous; 0, k > 0 or a library error. */
int64_t gchol_dpotrf_blocks(const gchol_rfp_blocks_t *b, int64_t n, double *dA, int64_t c0,
                            const gchol_options_t *opts, gchol_queue_t queue);
int64_t gchol_spotrf_blocks(const gchol_rfp_blocks_t *b, int64_t n, float *dA, int64_t c0,
                            const gchol_options_t *opts, gchol_queue_t queue);

/* Recursive triangular solve (trsm_rec.c): cublas?trsm semantics, alpha = 1,
 * non-unit diagonal, gemm-rich. */
int64_t gchol_dtrsm_rec(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                        cublasOperation_t trans, int64_t k, int64_t nb, const double *A,
                        int64_t lda, double *B, int64_t ldb);
int64_t gchol_strsm_rec(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                        cublasOperation_t trans, int64_t k, int64_t nb, const float *A,
                        int64_t lda, float *B, int64_t ldb);
int64_t gchol_dtrsm_rec_leaf(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                             cublasOperation_t trans, int64_t k, int64_t nb, const double *A,
                             int64_t lda, double *B, int64_t ldb, int64_t leaf);
int64_t gchol_strsm_rec_leaf(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo,
                             cublasOperation_t trans, int64_t k, int64_t nb, const float *A,
                             int64_t lda, float *B, int64_t ldb, int64_t leaf);

/* Recursive symmetric rank-k update (syrk_rec.c): cublas?syrk semantics. */
int64_t gchol_dsyrk_rec(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,
                        int64_t n, int64_t k, double alpha, const double *A, int64_t lda,
                        double beta, double *C, int64_t ldc);
int64_t gchol_ssyrk_rec(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans,
                        int64_t n, int64_t k, float alpha, const float *A, int64_t lda,
                        float beta, float *C, int64_t ldc);

/* The host forms of the solves (host_call.c): acquires the library-owned
 * queue, reserves `bytes` of its device buffer, copies each array up (from
 * `up`, unless NULL) to its offset in the buffer (device leading dimension
 * `width` bytes), runs job(q, buffer, ctx, &download) on the queue, copies
 * each array down (to `down`, unless NULL or the job cleared download),
 * waits for the queue's stream and releases it. Host leading dimension `ld`
 * and column `width` in bytes, `cols` columns; only width x cols bytes of a
 * host array are ever written. */
typedef struct {
    const void *up;
    void       *down;
    size_t      ld, width, offset;
    int64_t     cols;
    char        tri;    /* 'L' / 'U': upload only that triangle of the square
                           (cols x cols) array, with whole diagonal blocks;
                           0: the whole array                              */
    size_t      elsize; /* element size, for tri                          */
} gchol_host_array_t;
/* The argument checks that LAPACK's ?potrs, ?posv and dsposv share: uplo (1),
 * n (2), nrhs (3), A (4), lda (5), B (6), ldb (7); 0 or -i. A and B may be
 * NULL only where the sizes leave them unused. The callers check the rest. */
static inline int64_t gchol_check_solve_args(char uplo, int64_t n, int64_t nrhs, const void *A,
                                             int64_t lda, const void *B, int64_t ldb)
{
    const int64_t ldmin = n > 1 ? n : 1;
    if (!gchol_uplo_valid(uplo)) return -1;
    if (n < 0) return -2;
    if (nrhs < 0) return -3;
    if (n > 0 && A == NULL) return -4;
    if (lda < ldmin) return -5;
    if (n > 0 && nrhs > 0 && B == NULL) return -6;
    if (ldb < ldmin) return -7;
    return 0;
}

/* The argument checks of syrk_diag (rfp = 0) and sfrk_diag (rfp = 1), device
 * and host forms, in their order: full uplo (1), m (2), n (3), alpha (4),
 * A (5), lda (6), d (7), beta (8), C (9), ldc (10); RFP has transr first and
 * no ldc, so its arguments 2-10 are the full form's 1-9. 0 or -i; the device
 * forms check their queue (11) after. A may be NULL where the sizes or
 * alpha = 0 leave it unread, C where m = 0. */
static inline int64_t gchol_check_syrk_diag_args(int rfp, char transr, char uplo, int64_t m,
                                                 int64_t n, int alpha_nonzero, const void *A,
                                                 int64_t lda, const void *C, int64_t ldc)
{
    const int64_t s = rfp ? 1 : 0, mmin = m > 1 ? m : 1;
    if (rfp && !gchol_transr_valid(transr)) return -1;
    if (!gchol_uplo_valid(uplo)) return -(1 + s);
    if (m < 0) return -(2 + s);
    if (n < 0) return -(3 + s);
    if (m > 0 && n > 0 && alpha_nonzero && A == NULL) return -(5 + s);
    if (lda < mmin) return -(6 + s);
    if (m > 0 && C == NULL) return -(9 + s);
    if (!rfp && ldc < mmin) return -10;
    return 0;
}

/* The host-memory potrf on a queue the caller has entered, leaving the
 * factor on the device (potrf_host.c; used by posv_host.c). */
int64_t gchol_dpotrf_host_on_queue(char uplo, int64_t n, double *A, int64_t lda, size_t extra,
                                   const gchol_options_t *opts, gchol_queue_t queue, double **dA,
                                   int64_t *ldda, void **dextra);
int64_t gchol_spotrf_host_on_queue(char uplo, int64_t n, float *A, int64_t lda, size_t extra,
                                   const gchol_options_t *opts, gchol_queue_t queue, float **dA,
                                   int64_t *ldda, void **dextra);

/* potrf of a device matrix with its triangle copied back into a host array
 * as its columns become final (potrf_host.c; used by wls.c). */
int64_t gchol_dpotrf_device_to_host(char uplo, int64_t n, double *dA, int64_t ldda, double *A,
                                    int64_t lda, gchol_queue_t queue);
int64_t gchol_spotrf_device_to_host(char uplo, int64_t n, float *dA, int64_t ldda, float *A,
                                    int64_t lda, gchol_queue_t queue);
/* Whether ?potrf_device_to_host copies the triangle back beside the
 * factorization (1) or after it (0). */
int gchol_dpotrf_device_to_host_overlaps(char uplo, int64_t n);
int gchol_spotrf_device_to_host_overlaps(char uplo, int64_t n);

/* Set (to 1) on the calling thread once a host-memory form has begun writing
 * an array that is also its input (potrf's A, potrs's B, pftrf's A, pftrs's
 * B): from then on a failed call cannot be redone from the caller's arrays.
 * Never cleared by the library; the LAPACK shim (lapack_route.c) clears it
 * before each call and reads it after a failure (host_call.c). */
extern _Thread_local int gchol_host_inout_written;
/* Copies the upper or lower triangle of an n x n array between host (h,
 * hpitch bytes per column) and device (d, dpitch) in either direction
 * (kind), through the stager (NULL: pinned host memory), in block columns
 * of 256 that include their whole diagonal block: the other triangle's part
 * of those blocks is copied too. A download therefore leaves the host's
 * other triangle as it was only if the device holds it there: after a
 * triangle upload, or after gchol_host_upload_diag_blocks. Nothing outside
 * the diagonal blocks and the triangle is written. */
cudaError_t gchol_host_copy_triangle(gchol_stage_t *stager, enum cudaMemcpyKind kind, int upper,
                                     int64_t n, size_t es, char *d, size_t dpitch, char *h,
                                     size_t hpitch, cudaStream_t s);
/* The part of that triangle in the lower view's columns [c0, c1) ('U': the
 * rows [c0, c1)), c0 and c1 multiples of its 256-column blocks or n: the
 * parts of a partition of 0..n copy what the whole triangle's copy does. */
cudaError_t gchol_host_copy_triangle_part(gchol_stage_t *stager, enum cudaMemcpyKind kind,
                                          int upper, int64_t n, int64_t c0, int64_t c1, size_t es,
                                          char *d, size_t dpitch, char *h, size_t hpitch,
                                          cudaStream_t s);
/* Its block: the granule of the parts. */
enum { GCHOL_TRI_BLOCK = 256 };
/* Uploads the 256 x 256 diagonal blocks of gchol_host_copy_triangle's tiling
 * (n x 256 elements): before a triangle download of a result that was not
 * uploaded (beta = 0), so that the download writes back the host's own
 * values outside the triangle. */
cudaError_t gchol_host_upload_diag_blocks(gchol_stage_t *stager, int64_t n, size_t es, char *d,
                                          size_t dpitch, const char *h, size_t hpitch,
                                          cudaStream_t s);
typedef int64_t (*gchol_host_job_t)(gchol_queue_t q, char *dbase, void *ctx, int *download);
int64_t gchol_host_call(const gchol_host_array_t *arrays, int count, size_t bytes,
                        gchol_host_job_t job, void *ctx);

/* The mixed-precision refinements' shared host steps (refine.c; sposv.c,
 * dswls.c). gchol_alloc_parts: one stream-ordered allocation carved into
 * 256-byte aligned parts (*ptr NULL for a part of 0 bytes; *base NULL on
 * failure). gchol_refine_alloc_failed: after a failed allocation, *iter = -1
 * and 0 when it was out of memory, else the library error. gchol_fetch_norms:
 * copies dnorms[first, first + count) to h and the flag to *hflag, then waits
 * for s. gchol_any_non_finite: 1 if h[0, count) holds NaN or Inf.
 * gchol_free_parts: frees base (if any) on s, folding an error into st. */
typedef struct {
    void **ptr;
    size_t bytes;
} gchol_part_t;
cudaError_t gchol_alloc_parts(void **base, const gchol_part_t *parts, int count, cudaStream_t s);
int64_t gchol_refine_alloc_failed(cudaError_t e, int64_t *iter);
int64_t gchol_fetch_norms(const double *dnorms, const int *dflag, int64_t first, int64_t count,
                          double *h, int *hflag, cudaStream_t s);
int gchol_any_non_finite(const double *h, int64_t count);
int64_t gchol_free_parts(void *base, int64_t st, cudaStream_t s);

/* syrk_diag_gpu without its argument checks (syrk_diag.c); tf32 = 1 (single
 * only) multiplies with one TF32 product instead of three. */
int64_t gchol_dsyrk_diag_full(char uplo, int64_t m, int64_t n, double alpha, const double *dA,
                              int64_t ldda, const double *dd, double beta, double *dC,
                              int64_t lddc, int tf32, gchol_queue_t queue);
int64_t gchol_ssyrk_diag_full(char uplo, int64_t m, int64_t n, float alpha, const float *dA,
                              int64_t ldda, const float *dd, float beta, float *dC, int64_t lddc,
                              int tf32, gchol_queue_t queue);
/* The same on C's first ncols columns of its lower view, every row ('U': its
 * first ncols rows, every column); host_stream.c's last block, in pieces. */
int64_t gchol_dsyrk_diag_cols(char uplo, int64_t m, int64_t ncols, int64_t n, double alpha,
                              const double *dA, int64_t ldda, const double *dd, double beta,
                              double *dC, int64_t lddc, int tf32, gchol_queue_t queue);
int64_t gchol_ssyrk_diag_cols(char uplo, int64_t m, int64_t ncols, int64_t n, float alpha,
                              const float *dA, int64_t ldda, const float *dd, float beta,
                              float *dC, int64_t lddc, int tf32, gchol_queue_t queue);

/* The work of gchol_?wls_gpu (transr = 0, C full with lddc) and of
 * gchol_?wls_rfp_gpu (transr 'N'/'T', C in RFP), arguments checked and m > 0
 * (wls.c): 0, k > 0 or a library error; synchronous. dswls.c's fallback. */
int64_t gchol_dwls_run(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const double *dA, int64_t ldda, const double *dd, const double *dB,
                       int64_t lddb, double *dC, int64_t lddc, double *dY, int64_t lddy,
                       gchol_queue_t q);
int64_t gchol_swls_run(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                       const float *dA, int64_t ldda, const float *dd, const float *dB,
                       int64_t lddb, float *dC, int64_t lddc, float *dY, int64_t lddy,
                       gchol_queue_t q);

/* gemm on cublasLt's first 128 x 128 tile algorithm (gemm_lt.c): cublas?gemm
 * semantics; *done = 0 (nothing enqueued) when none is offered. */
int64_t gchol_dgemm_lt_wide(cublasLtHandle_t lt, cudaStream_t s, cublasOperation_t ta,
                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k, double alpha,
                            const double *A, int64_t lda, const double *B, int64_t ldb,
                            double beta, double *C, int64_t ldc, int *done);
int64_t gchol_sgemm_lt_wide(cublasLtHandle_t lt, cudaStream_t s, cublasOperation_t ta,
                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k, float alpha,
                            const float *A, int64_t lda, const float *B, int64_t ldb, float beta,
                            float *C, int64_t ldc, int *done);

#endif
