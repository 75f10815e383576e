/*
 * gchol.h -- the public header of gchol, a GPU-only dense Cholesky library.
 *
 * Plain C11; it declares the CUDA stream type itself so that C callers need
 * no CUDA header. All sizes, leading dimensions and info values are 64-bit.
 *
 * Conventions (LAPACK):
 *   - matrices are column-major; uplo is 'L'/'l' or 'U'/'u';
 *   - info = 0 on success, -i when argument i is illegal (checked before any
 *     GPU work or memory access), k > 0 when the leading minor of order k is
 *     not positive definite (a pivot <= 0 or NaN). Columns 1..k-1 then hold a
 *     valid partial factor; the rest of the referenced triangle is undefined;
 *   - codes <= -100 are library errors (no device, out of memory, CUDA or
 *     cuBLAS failures), see gchol_status_t and gchol_strerror().
 *
 * Every routine returns the same value it stores in *info, so either can be
 * checked. The library never prints, never exits, never aborts. Thresholds
 * between algorithms and block sizes are chosen per GPU by the tuning module
 * (src/tune/) when a queue is created.
 */
#ifndef GCHOL_H
#define GCHOL_H

#include <stddef.h>
#include <stdint.h>

#include "gchol_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Same declaration as the CUDA runtime's; repeating a typedef is legal C11. */
typedef struct CUstream_st *cudaStream_t;

/* ---------------------------------------------------------------------------
 * Version. gchol_version.h (generated from the file VERSION, installed beside
 * this header) defines GCHOL_VERSION_MAJOR, _MINOR, _PATCH and _STRING: the
 * version of the headers a program was compiled against. These two give the
 * version of the library it runs with; they need no GPU and no queue.
 *
 * gchol_version: returns "MAJOR.MINOR.PATCH", a static string.
 * gchol_version_numbers:
 *   major  (output) int*: the major version; NULL: not stored.
 *   minor  (output) int*: the minor version; NULL: not stored.
 *   patch  (output) int*: the patch level;   NULL: not stored.
 * The shared library's SONAME carries the major version (libgchol.so.1).
 * ------------------------------------------------------------------------- */
const char *gchol_version(void);
void gchol_version_numbers(int *major, int *minor, int *patch);

/* Library error codes: all <= -100 so they never collide with -i; stable. */
typedef enum {
    GCHOL_SUCCESS            = 0,
    GCHOL_ERR_NO_DEVICE      = -100, /* no CUDA GPU, no NVIDIA driver loaded,
                                        or no such device                    */
    GCHOL_ERR_DEVICE_ALLOC   = -101, /* out of device memory                 */
    GCHOL_ERR_HOST_ALLOC     = -102, /* out of (pinned) host memory          */
    GCHOL_ERR_CUDA           = -103, /* a CUDA runtime call or launch failed */
    GCHOL_ERR_CUBLAS         = -104, /* a cuBLAS call failed                 */
    GCHOL_ERR_INVALID_QUEUE  = -105, /* NULL queue or a queue of another device */
    GCHOL_ERR_INVALID_VALUE  = -106, /* an out-of-range option or pointer     */
    GCHOL_ERR_DRIVER_TOO_OLD = -107, /* the NVIDIA driver is older than gchol's
                                        CUDA runtime needs: update it        */
    GCHOL_ERR_COMM           = -108  /* an MPI or NCCL call failed (gchol_mp.h) */
} gchol_status_t;

/* Describes any value a gchol routine returns: 0, -i, k > 0 or a status. */
const char *gchol_strerror(int64_t code);

/* ---------------------------------------------------------------------------
 * Queue: the execution context. It owns a cuBLAS handle, the streams that
 * lookahead needs (the caller's or its own main stream, plus a high-priority
 * panel stream), events, a device info word, pinned host staging and a
 * workspace that grows on demand. A queue is not thread-safe: use one per
 * host thread.
 * ------------------------------------------------------------------------- */
typedef struct gchol_queue_s *gchol_queue_t;

/* Creates a queue on `device` (-1: the current device) with its own stream.
 * That stream is a blocking one: work on the legacy default stream (a plain
 * cudaMemcpy, for instance) is ordered before and after the queue's work.
 * Returns 0, or a library error such as GCHOL_ERR_NO_DEVICE or
 * GCHOL_ERR_DRIVER_TOO_OLD (*queue NULL), as host-memory calls do too. */
int64_t gchol_queue_create(int device, gchol_queue_t *queue);

/* Creates a queue whose results are ordered on the caller's `stream`: work is
 * enqueued after what is already on it, and everything gchol does (including
 * its internal panel stream) completes before later work on `stream` runs.
 * The stream must belong to `device` (-1: the current device). */
int64_t gchol_queue_create_from_stream(int device, cudaStream_t stream,
                                       gchol_queue_t *queue);

/* Waits for the queue's work and frees everything it owns (not the caller's
 * stream). Accepts NULL. */
int64_t gchol_queue_destroy(gchol_queue_t queue);

/* The stream on which the queue's results are ordered. */
cudaStream_t gchol_queue_stream(gchol_queue_t queue);

/* Blocks the host until everything enqueued on the queue has finished. */
int64_t gchol_queue_sync(gchol_queue_t queue);

/* How much of the device memory its routines' workspaces take (the mixed-
 * precision and weighted least-squares solves, the FP16 / BF16 and batched
 * factorizations; stream-ordered, from the queue's own pool) the queue keeps
 * mapped between calls: up to `bytes` (SIZE_MAX: all; 0, the default: none,
 * every synchronization returns it to the system, and the next call maps it
 * anew). Waits for the queue's work, then returns what it holds beyond
 * `bytes`; gchol_queue_destroy returns the rest. Returns 0,
 * GCHOL_ERR_INVALID_QUEUE for a NULL queue, or the error of that wait
 * (an earlier asynchronous failure on the queue). */
int64_t gchol_queue_keep_memory(gchol_queue_t queue, size_t bytes);

/* ---------------------------------------------------------------------------
 * Options for the expert interface.
 * ------------------------------------------------------------------------- */
typedef enum {
    GCHOL_VARIANT_AUTO  = 0, /* chosen per n and precision (tuned table)  */
    GCHOL_VARIANT_LEFT  = 1, /* left-looking blocked                      */
    GCHOL_VARIANT_RIGHT = 2, /* right-looking blocked                     */
    GCHOL_VARIANT_TILED = 3  /* one kernel, 64 x 64 tiles in data-flow order
                                (n <= 16384; no nb, recnb, lookahead)      */
} gchol_variant_t;

typedef enum {
    GCHOL_LOOKAHEAD_AUTO = -1,
    GCHOL_LOOKAHEAD_OFF  = 0,
    GCHOL_LOOKAHEAD_ON   = 1
} gchol_lookahead_t;

/* How uplo = 'U' is factored. */
typedef enum {
    GCHOL_UPPER_AUTO = -1, /* chosen per n and precision (tuned table)     */
    GCHOL_UPPER_VIEW = 0,  /* the lower algorithm on the transposed view, in
                              place: the lower triangle is never referenced */
    GCHOL_UPPER_SWAP = 1   /* the triangles swapped, the lower factorization
                              run, the triangles swapped back (two memory-bound
                              passes; contiguous accesses instead of strided
                              ones). The strictly lower triangle's storage is
                              used during the call and restored bit for bit;
                              nothing else may access it meanwhile. Device
                              interfaces only (the host interface uses the
                              view); in pftrf, the other RFP block of the
                              square also comes back bit for bit.          */
} gchol_upper_t;

/* One timed operation of a traced factorization (see gchol_options_t.trace). */
typedef enum {
    GCHOL_OP_POTRF_DIAG = 0, /* recursive potf2 of a diagonal block  */
    GCHOL_OP_TRSM       = 1, /* triangular solve of a panel          */
    GCHOL_OP_SYRK       = 2, /* symmetric rank-k update              */
    GCHOL_OP_GEMM       = 3, /* general update                       */
    GCHOL_OP_BCAST      = 4, /* distributed: a panel's broadcast     */
    GCHOL_OP_GATHER     = 5, /* distributed: a panel's gather        */
    GCHOL_OP_COPY       = 6  /* distributed: a copy (packing, staging) */
} gchol_op_t;

typedef struct {
    int     stream;   /* 0: main (update) stream, 1: panel stream (the
                         distributed factorization's: its transport's)   */
    int     op;       /* a gchol_op_t                                     */
    int64_t block;    /* first column of the block column it works on     */
    int64_t m, n, k;  /* the operation's shape                            */
    float   start_ms; /* from the start of the factorization (CUDA events) */
    float   end_ms;
} gchol_trace_event_t;

typedef struct {
    gchol_trace_event_t *events;   /* caller-owned array                   */
    int64_t              capacity; /* its length                           */
    int64_t              count;    /* set by gchol: events recorded (may exceed
                                      capacity; only capacity are stored)  */
} gchol_trace_t;

/* How single precision multiplies in the blocked driver's bulk updates
 * (double precision ignores it). */
typedef enum {
    GCHOL_PRODUCTS_ACCURATE = 0, /* 3xTF32 on the tensor cores: FP32 accuracy
                                    (the default)                           */
    GCHOL_PRODUCTS_TF32     = 1, /* one TF32 product per multiply: inputs
                                    rounded to 11 significant bits, faster;
                                    for factors that are refined afterwards
                                    (gchol_dsposv_expert_gpu), not as a
                                    single-precision answer                 */
    GCHOL_PRODUCTS_FP16     = 2, /* gchol_dswls_expert_gpu only (every other
                                    routine rejects them): its C_s scaled to
                                    a unit diagonal and factored with FP16
                                    (or BF16) operands and FP32 sums on the
                                    tensor cores                            */
    GCHOL_PRODUCTS_BF16     = 3
} gchol_products_t;

typedef struct {
    int     variant;   /* gchol_variant_t                                  */
    int64_t nb;        /* outer block size; 0: automatic                    */
    int64_t recnb;     /* recursion size: panels up to this wide are
                          factored by one fused kernel launch, wider ones
                          split in two (the fallback's potf2 leaves take
                          min(recnb, 128)); 0: automatic                   */
    int     lookahead; /* gchol_lookahead_t                                */
    gchol_trace_t *trace; /* NULL, or record a timeline (synchronous forms
                             only; costs a little time)                      */
    int     upper;     /* gchol_upper_t: how uplo = 'U' runs               */
    int     products;  /* gchol_products_t (single precision)              */
} gchol_options_t;

/* Fills *opts with the defaults: everything automatic, no trace. */
void gchol_options_default(gchol_options_t *opts);

/* Resolves the automatic choices for (n, precision 'd' or 's') into *opts, as
 * the device drivers would on the current device (for either triangle);
 * lets callers and benchmarks see what auto picks. */
void gchol_options_resolve(gchol_options_t *opts, char precision, int64_t n);

/* The same for the host-memory interface (gchol_?potrf, gchol_?potrf_expert),
 * whose auto may take the left-looking driver from a smaller n than the
 * device drivers do: its transfers run beside that driver's factorization. */
void gchol_options_resolve_host(gchol_options_t *opts, char precision, int64_t n);

/* ---------------------------------------------------------------------------
 * Cholesky factorization A = L*L^T (uplo 'L') or A = U^T*U (uplo 'U').
 *
 * Device-memory interface (synchronous): dA is n x n on the queue's device
 * with leading dimension ldda >= max(1,n). Returns once the factor is ready.
 *   argument 1 uplo, 2 n, 3 dA, 4 ldda, 5 info, 6 queue.
 * ------------------------------------------------------------------------- */
int64_t gchol_dpotrf_gpu(char uplo, int64_t n, double *dA, int64_t ldda,
                         int64_t *info, gchol_queue_t queue);
int64_t gchol_spotrf_gpu(char uplo, int64_t n, float *dA, int64_t ldda,
                         int64_t *info, gchol_queue_t queue);

/* Expert form of the above: argument 6 opts (NULL: defaults), 7 queue. */
int64_t gchol_dpotrf_expert_gpu(char uplo, int64_t n, double *dA, int64_t ldda,
                                int64_t *info, const gchol_options_t *opts,
                                gchol_queue_t queue);
int64_t gchol_spotrf_expert_gpu(char uplo, int64_t n, float *dA, int64_t ldda,
                                int64_t *info, const gchol_options_t *opts,
                                gchol_queue_t queue);

/* Asynchronous device interface: never synchronizes the host. Everything is
 * ordered on the queue's stream; the LAPACK info (0 or k > 0) is written to
 * the device word dinfo (an int64_t in device memory) when the factorization
 * completes. The return value only reports what the host can know at once:
 * -i for an illegal argument (then nothing is enqueued and no memory touched)
 * or a library error (<= -100); 0 means the work was enqueued.
 *   argument 1 uplo, 2 n, 3 dA, 4 ldda, 5 dinfo, 6 opts (NULL ok), 7 queue.
 * opts->trace must be NULL here. */
int64_t gchol_dpotrf_async(char uplo, int64_t n, double *dA, int64_t ldda,
                           int64_t *dinfo, const gchol_options_t *opts,
                           gchol_queue_t queue);
int64_t gchol_spotrf_async(char uplo, int64_t n, float *dA, int64_t ldda,
                           int64_t *dinfo, const gchol_options_t *opts,
                           gchol_queue_t queue);

/* Host-memory interface, LAPACK-like: A is n x n in host memory with
 * lda >= max(1,n). The matrix goes to the GPU, is factored there, and only the
 * referenced triangle comes back: the other triangle and the padding rows of
 * A are never written. Uses a library-owned queue on the current device,
 * created at first use (gchol_finalize frees it).
 *   argument 1 uplo, 2 n, 3 A, 4 lda, 5 info. */
int64_t gchol_dpotrf(char uplo, int64_t n, double *A, int64_t lda, int64_t *info);
int64_t gchol_spotrf(char uplo, int64_t n, float *A, int64_t lda, int64_t *info);

/* Host-memory interface on an explicit queue and options:
 *   argument 6 opts (NULL: defaults), 7 queue. */
int64_t gchol_dpotrf_expert(char uplo, int64_t n, double *A, int64_t lda,
                            int64_t *info, const gchol_options_t *opts,
                            gchol_queue_t queue);
int64_t gchol_spotrf_expert(char uplo, int64_t n, float *A, int64_t lda,
                            int64_t *info, const gchol_options_t *opts,
                            gchol_queue_t queue);

/* ---------------------------------------------------------------------------
 * Solves with the factor (LAPACK ?potrs): X := A^{-1} B, A = L*L^T or U^T*U
 * as left by ?potrf in the uplo triangle of dA; B (n x nrhs) is overwritten
 * by X. Asynchronous on the queue's stream; returns 0, -i or a library error.
 *   argument 1 uplo, 2 n, 3 nrhs, 4 dA, 5 ldda, 6 dB, 7 lddb, 8 info, 9 queue.
 * The host forms take host arrays (arguments 4 A, 5 lda, 6 B, 7 ldb, 8 info),
 * run on the library-owned queue and write back only the n x nrhs block of B.
 * ------------------------------------------------------------------------- */
int64_t gchol_dpotrs_gpu(char uplo, int64_t n, int64_t nrhs, const double *dA, int64_t ldda,
                         double *dB, int64_t lddb, int64_t *info, gchol_queue_t queue);
int64_t gchol_spotrs_gpu(char uplo, int64_t n, int64_t nrhs, const float *dA, int64_t ldda,
                         float *dB, int64_t lddb, int64_t *info, gchol_queue_t queue);
int64_t gchol_dpotrs(char uplo, int64_t n, int64_t nrhs, const double *A, int64_t lda,
                     double *B, int64_t ldb, int64_t *info);
int64_t gchol_spotrs(char uplo, int64_t n, int64_t nrhs, const float *A, int64_t lda, float *B,
                     int64_t ldb, int64_t *info);

/* A X = B in host memory (LAPACK ?posv), one trip to the GPU: A is factored as
 * by gchol_?potrf (only its referenced triangle travels; A receives the
 * factor), the factor stays on the device for the solve, and B (n x nrhs,
 * ldb) receives X. info = k > 0: A holds the partial factor and B is not
 * written. Synchronous, on the library-owned queue.
 *   uplo (1), n (2), nrhs (3), A (4), lda (5), B (6), ldb (7), info (8). */
int64_t gchol_dposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda, double *B,
                    int64_t ldb, int64_t *info);
int64_t gchol_sposv(char uplo, int64_t n, int64_t nrhs, float *A, int64_t lda, float *B,
                    int64_t ldb, int64_t *info);

/* ---------------------------------------------------------------------------
 * Mixed precision (LAPACK dsposv): A X = B, A symmetric positive definite in
 * double, by a single-precision Cholesky and iterative refinement in double;
 * falls back to dpotrf + dpotrs where that fails. Synchronous.
 *   argument 1 uplo, 2 n, 3 nrhs, 4 dA (unchanged when *iter >= 0, else the
 *   double factor), 5 ldda, 6 dB (not written), 7 lddb, 8 dX (receives X;
 *   must not overlap dA or dB), 9 lddx, 10 iter, 11 info, 12 queue.
 * iter: 0 no correction needed, k > 0 converged after k corrections; after a
 * fallback -1 (no single-precision workspace), -2 (an entry overflows single
 * precision), -3 (not positive definite in single), -31 (no convergence in
 * 30 corrections). info: 0, -i, k > 0 from the double factorization (only
 * after a fallback), or a library error (<= -100).
 * The host form takes host arrays A, B, X (arguments 4-9) and no queue.
 * ------------------------------------------------------------------------- */
int64_t gchol_dsposv_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                         const double *dB, int64_t lddb, double *dX, int64_t lddx,
                         int64_t *iter, int64_t *info, gchol_queue_t queue);
/* Expert form: argument 12 opts (NULL: defaults; passed to the
 * single-precision factorization, e.g. products = GCHOL_PRODUCTS_TF32),
 * 13 queue. */
int64_t gchol_dsposv_expert_gpu(char uplo, int64_t n, int64_t nrhs, double *dA, int64_t ldda,
                                const double *dB, int64_t lddb, double *dX, int64_t lddx,
                                int64_t *iter, int64_t *info, const gchol_options_t *opts,
                                gchol_queue_t queue);
int64_t gchol_dsposv(char uplo, int64_t n, int64_t nrhs, double *A, int64_t lda,
                     const double *B, int64_t ldb, double *X, int64_t ldx, int64_t *iter,
                     int64_t *info);

/* ---------------------------------------------------------------------------
 * A*D^2*A^T and Rectangular Full Packed (RFP) storage.
 *
 * RFP is LAPACK's packed format (dtrttf, dsfrk, dpftrf, dpftrs): the n(n+1)/2
 * elements of one triangle in a contiguous array, bit-compatible with LAPACK
 * in all four (transr, uplo) variants; transr is 'N' (normal) or 'T'
 * (transposed), uplo 'L' or 'U'. An RFP array needs no leading dimension.
 *
 * The BLAS-like routines below (syrk_diag, sfrk_diag, trttf, tfttr, pftrs)
 * are asynchronous like cuBLAS: they enqueue on the queue's stream and return
 * 0, -i for an illegal argument (nothing enqueued, no memory touched) or a
 * library error (<= -100); their `info` is a host int64 that receives that
 * same value at once, and the data is ready when the stream gets there.
 * pftrf is synchronous, like potrf_gpu, because it returns LAPACK's info;
 * when info = k > 0 the array holds LAPACK's partial factor. Pointers may be
 * NULL only where the sizes make them unused (n = 0, nrhs = 0, alpha = 0).
 * ------------------------------------------------------------------------- */

/* C := alpha*A*D^2*A^T + beta*C in full storage; only the uplo triangle of the
 * m x m matrix C is read (unless beta = 0) and written: the other triangle and
 * the padding rows are never touched. With beta = 0, C is not read (NaN in C
 * does not propagate), as in the BLAS; with (alpha = 0 or n = 0) and beta = 1
 * nothing is touched. Flops: m(m+1)n, as syrk's. uplo and transr may be
 * given in either case.
 *   uplo  (1)  'L' or 'U': the triangle of C
 *   m     (2)  order of C and rows of A, m >= 0
 *   n     (3)  columns of A (the long dimension), n >= 0
 *   alpha (4)
 *   dA    (5)  device, ldda x n, column-major
 *   ldda  (6)  >= max(1, m)
 *   dd    (7)  device, n entries: the diagonal of D itself (not D^2), or NULL
 *              for D = I (then this is plain syrk). D, not D^2, because that
 *              is what dgmm + syrk and LAPACK's dsfrk on A*D take, so the
 *              result matches them, and because the diagonal tiles must scale
 *              both sides of the product by d_k. (Off the diagonal, double
 *              precision scales one side by d_k^2, computed once per k, so
 *              d_k^2 must be representable: |d_k| within 2^-511..2^511.)
 *              With alpha = 0, A and d are not read (dA may be NULL).
 *   beta  (8)
 *   dC    (9)  device, lddc x m
 *   lddc  (10) >= max(1, m)
 *   queue (11)
 */
int64_t gchol_dsyrk_diag_gpu(char uplo, int64_t m, int64_t n, double alpha,
                             const double *dA, int64_t ldda, const double *dd,
                             double beta, double *dC, int64_t lddc, gchol_queue_t queue);
int64_t gchol_ssyrk_diag_gpu(char uplo, int64_t m, int64_t n, float alpha,
                             const float *dA, int64_t ldda, const float *dd,
                             float beta, float *dC, int64_t lddc, gchol_queue_t queue);

/* The same into RFP storage: dC holds the m x m matrix C in RFP (m(m+1)/2
 * elements). LAPACK's dsfrk with trans = 'N' and A replaced by A*D; note the
 * names: our m, n are dsfrk's n (order of C), k (columns of A). The beta = 0
 * and alpha = 0 rules of syrk_diag hold here too.
 *   transr (1) 'N' or 'T', uplo (2), m (3), n (4), alpha (5), dA (6),
 *   ldda (7) >= max(1,m), dd (8) (NULL: D = I), beta (9), dC (10), queue (11).
 */
int64_t gchol_dsfrk_diag_gpu(char transr, char uplo, int64_t m, int64_t n, double alpha,
                             const double *dA, int64_t ldda, const double *dd,
                             double beta, double *dC, gchol_queue_t queue);
int64_t gchol_ssfrk_diag_gpu(char transr, char uplo, int64_t m, int64_t n, float alpha,
                             const float *dA, int64_t ldda, const float *dd,
                             float beta, float *dC, gchol_queue_t queue);

/* The same two with A, d and C in host memory: synchronous, on the
 * library-owned queue, the arguments of the device forms less the queue.
 * A streams through the GPU in blocks of columns (sized by the tuning
 * module: small first, growing), the copy of the next block beside the
 * product of the current one, so A may be larger than the device memory:
 * only C (m x m, or m(m+1)/2 in RFP) and two blocks must fit (and the
 * product's split workspace, small). C's stored triangle goes up when
 * beta != 0 (with beta = 0 only its 256 x 256 diagonal blocks, whose other
 * half comes back with the same values: do not write it from elsewhere
 * during the call) and comes back; nothing else of the host C is written.
 *   syrk_diag: uplo (1), m (2), n (3), alpha (4), A (5), lda (6), d (7),
 *              beta (8), C (9), ldc (10) >= max(1, m)
 *   sfrk_diag: transr (1), uplo (2), m (3), n (4), alpha (5), A (6), lda (7),
 *              d (8), beta (9), C (10) RFP
 * Return 0, -i or a library error (<= -100). */
int64_t gchol_dsyrk_diag(char uplo, int64_t m, int64_t n, double alpha, const double *A,
                         int64_t lda, const double *d, double beta, double *C, int64_t ldc);
int64_t gchol_ssyrk_diag(char uplo, int64_t m, int64_t n, float alpha, const float *A,
                         int64_t lda, const float *d, float beta, float *C, int64_t ldc);
int64_t gchol_dsfrk_diag(char transr, char uplo, int64_t m, int64_t n, double alpha,
                         const double *A, int64_t lda, const double *d, double beta, double *C);
int64_t gchol_ssfrk_diag(char transr, char uplo, int64_t m, int64_t n, float alpha,
                         const float *A, int64_t lda, const float *d, float beta, float *C);

/* Full triangle -> RFP (LAPACK dtrttf): copies the uplo triangle of the n x n
 * device matrix dA (ldda) into the RFP array dARF.
 *   transr (1), uplo (2), n (3), dA (4), ldda (5) >= max(1,n), dARF (6),
 *   info (7): 0, -i or a library error, as returned; queue (8). */
int64_t gchol_dtrttf_gpu(char transr, char uplo, int64_t n, const double *dA, int64_t ldda,
                         double *dARF, int64_t *info, gchol_queue_t queue);
int64_t gchol_strttf_gpu(char transr, char uplo, int64_t n, const float *dA, int64_t ldda,
                         float *dARF, int64_t *info, gchol_queue_t queue);

/* RFP -> full triangle (LAPACK dtfttr): writes only the uplo triangle of dA.
 *   transr (1), uplo (2), n (3), dARF (4), dA (5), ldda (6) >= max(1,n),
 *   info (7), queue (8). */
int64_t gchol_dtfttr_gpu(char transr, char uplo, int64_t n, const double *dARF, double *dA,
                         int64_t ldda, int64_t *info, gchol_queue_t queue);
int64_t gchol_stfttr_gpu(char transr, char uplo, int64_t n, const float *dARF, float *dA,
                         int64_t ldda, int64_t *info, gchol_queue_t queue);

/* Cholesky factorization in RFP storage (LAPACK dpftrf), synchronous:
 * A = L*L^T ('L') or U^T*U ('U'), the factor overwriting dA.
 *   transr (1), uplo (2), n (3), dA (4) device RFP array of n(n+1)/2,
 *   info (5): 0; -i; k > 0 when the leading minor of order k is not positive
 *   definite (NaN included), as LAPACK's dpftrf; or a library error;
 *   queue (6). */
int64_t gchol_dpftrf_gpu(char transr, char uplo, int64_t n, double *dA, int64_t *info,
                         gchol_queue_t queue);
int64_t gchol_spftrf_gpu(char transr, char uplo, int64_t n, float *dA, int64_t *info,
                         gchol_queue_t queue);

/* The same with options (NULL: defaults), info (5) as above:
 *   opts (6): variant AUTO runs the left-looking driver across the RFP
 *   blocks (with lookahead) where potrf's automatic choice for order n is
 *   left-looking, else two potrf with a trsm and a syrk between them (as
 *   LAPACK); LEFT forces the first form with opts' nb, recnb, lookahead;
 *   RIGHT or TILED force the second, its potrf calls taking these options;
 *   trace must be NULL.  queue (7). */
int64_t gchol_dpftrf_expert_gpu(char transr, char uplo, int64_t n, double *dA, int64_t *info,
                                const gchol_options_t *opts, gchol_queue_t queue);
int64_t gchol_spftrf_expert_gpu(char transr, char uplo, int64_t n, float *dA, int64_t *info,
                                const gchol_options_t *opts, gchol_queue_t queue);

/* Solves A*X = B with the RFP factor from pftrf (LAPACK dpftrs); B (n x nrhs,
 * lddb) is overwritten by X. Asynchronous.
 *   transr (1), uplo (2), n (3), nrhs (4) >= 0, dA (5), dB (6),
 *   lddb (7) >= max(1,n), info (8), queue (9). */
int64_t gchol_dpftrs_gpu(char transr, char uplo, int64_t n, int64_t nrhs, const double *dA,
                         double *dB, int64_t lddb, int64_t *info, gchol_queue_t queue);
int64_t gchol_spftrs_gpu(char transr, char uplo, int64_t n, int64_t nrhs, const float *dA,
                         float *dB, int64_t lddb, int64_t *info, gchol_queue_t queue);

/* Host-memory RFP Cholesky: A (n(n+1)/2, RFP) goes to the GPU, is factored
 * there and comes back. Uses the library-owned queue, like gchol_dpotrf.
 *   transr (1), uplo (2), n (3), A (4), info (5). */
int64_t gchol_dpftrf(char transr, char uplo, int64_t n, double *A, int64_t *info);
int64_t gchol_spftrf(char transr, char uplo, int64_t n, float *A, int64_t *info);

/* Host-memory RFP solve: the factor A and B (n x nrhs, ldb) go to the GPU,
 * B comes back (its padding rows are never written). Synchronous, on the
 * library-owned queue.
 *   transr (1), uplo (2), n (3), nrhs (4), A (5), B (6), ldb (7) >= max(1,n),
 *   info (8). */
int64_t gchol_dpftrs(char transr, char uplo, int64_t n, int64_t nrhs, const double *A,
                     double *B, int64_t ldb, int64_t *info);
int64_t gchol_spftrs(char transr, char uplo, int64_t n, int64_t nrhs, const float *A,
                     float *B, int64_t ldb, int64_t *info);

/* Frees the library-owned queue of the host interface, if any. */
void gchol_finalize(void);

#ifdef __cplusplus
}
#endif

/* weighted least squares: gchol_?wls_gpu, gchol_dswls_gpu and their forms */
#include "gchol_wls.h"

#endif /* GCHOL_H */
