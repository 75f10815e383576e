/*
 * wls.c -- gchol_?wls_gpu and gchol_?wls_rfp_gpu: weighted least squares by
 * the normal equations,
 *     Y = argmin || D (A^T Y - B) ||_2 column by column,
 *     (A D^2 A^T) Y = A D^2 B,
 * in one precision: C := A D^2 A^T on gchol's triangular-grid kernel
 * (syrk_diag, or sfrk_diag into RFP storage), C := chol(C) (potrf / pftrf),
 * Y := A (D^2 B) (cuBLAS gemm or gemv), Y := C^{-1} Y (potrs / pftrs).
 * Precision-generic (see prec.h). The double full-storage form is also
 * gchol_dswls_gpu's fallback (dswls.c).
 */
#include "prec.h"

#include "args.h"
#include "host_io.h"
#include "host_stream.h"
#include "potrf.h"
#include "queue.h"
#include "status.h"
#include "syrk_diag.h"
#include "wls.h"

#include "../kernels/gchol_kernels.h"

static const FLOAT one = 1, zero = 0;

/* Y := A (D^2 B); B is not written. D^2 B goes through a stream-ordered
 * temporary; with D = I, Y := A B directly. */
static int64_t weighted_rhs(int64_t m, int64_t n, int64_t nrhs, const FLOAT *dA, int64_t ldda,
                            const FLOAT *dd, const FLOAT *dB, int64_t lddb, FLOAT *dY,
                            int64_t lddy, gchol_queue_t q)
{
    int64_t st = GCHOL_SUCCESS;
    FLOAT *dT = NULL;
    const FLOAT *dW = dB;
    int64_t lddw = lddb;
    if (dd && n > 0) {
        lddw = (n + 15) / 16 * 16;
        GCHOL_CUDA(gchol_queue_malloc(q, (void **)&dT, (size_t)lddw * nrhs * sizeof(FLOAT)));
        GCHOL_CUDA(cudaMemcpy2DAsync(dT, (size_t)lddw * sizeof(FLOAT), dB, (size_t)lddb * sizeof(FLOAT),
                                     (size_t)n * sizeof(FLOAT), (size_t)nrhs,
                                     cudaMemcpyDeviceToDevice, q->stream));
        GCHOL_CUDA((cudaError_t)SCALE_ROWS_SQ_LAUNCH(n, nrhs, dd, dT, lddw, q->stream));
        dW = dT;
    }
    if (nrhs == 1)
        GCHOL_BLAS(BLAS_GEMV(q->blas, CUBLAS_OP_N, m, n, &one, dA, ldda, dW, 1, &zero, dY, 1));
    else
        GCHOL_BLAS(BLAS_GEMM(q->blas, CUBLAS_OP_N, CUBLAS_OP_N, m, nrhs, n, &one, dA, ldda, dW,
                             lddw, &zero, dY, lddy));
done:
    if (dT) {
        cudaError_t e = cudaFreeAsync(dT, q->stream);
        if (st == GCHOL_SUCCESS) st = gchol_from_cuda(e);
    }
    return st;
}

/* gchol_dwls_run, gchol_swls_run: the work of gchol_?wls_gpu (transr = 0: C
 * full, lddc) and of gchol_?wls_rfp_gpu (transr 'N' or 'T': C in RFP, lddc
 * unused), arguments checked, m > 0: returns 0, k > 0 (C not positive
 * definite; Y not written) or a library error. Synchronous. Internal:
 * dswls.c's fallback calls the double form. */
int64_t PFX(wls_run)(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs, const FLOAT *dA,
                     int64_t ldda, const FLOAT *dd, const FLOAT *dB, int64_t lddb, FLOAT *dC,
                     int64_t lddc, FLOAT *dY, int64_t lddy, gchol_queue_t q)
{
    int prev = 0;
    int64_t st = gchol_queue_enter(q, &prev), finfo = 0;
    if (st != GCHOL_SUCCESS) return st;
    if (transr) {
        GCHOL_TRY(PFX(sfrk_diag_gpu)(transr, uplo, m, n, 1, dA, ldda, dd, 0, dC, q));
        st = PFX(pftrf_gpu)(transr, uplo, m, dC, &finfo, q);
    } else {
        GCHOL_TRY(PFX(syrk_diag_full)(uplo, m, n, 1, dA, ldda, dd, 0, dC, lddc, 0, q));
        st = PFX(potrf_gpu)(uplo, m, dC, lddc, &finfo, q);
    }
    if (st != GCHOL_SUCCESS || nrhs == 0) goto done; /* k > 0 or a library error */
    GCHOL_TRY(weighted_rhs(m, n, nrhs, dA, ldda, dd, dB, lddb, dY, lddy, q));
    if (transr)
        GCHOL_TRY(PFX(pftrs_gpu)(transr, uplo, m, nrhs, dC, dY, lddy, &finfo, q));
    else
        GCHOL_TRY(PFX(potrs_gpu)(uplo, m, nrhs, dC, lddc, dY, lddy, &finfo, q));
    GCHOL_CUDA(cudaStreamSynchronize(q->stream));
done:
    gchol_queue_leave(prev);
    return st;
}

/* The argument check of both forms, in LAPACK's order: the RFP form has
 * transr first and no lddc, so its arguments 2-11 are the full form's 1-10
 * and both share 12-15. */
static int64_t check_args(int rfp, char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                          const FLOAT *dA, int64_t ldda, const FLOAT *dB, int64_t lddb,
                          const FLOAT *dC, int64_t lddc, const FLOAT *dY, int64_t lddy,
                          const int64_t *info, int host, gchol_queue_t queue)
{
    const int64_t mmin = m > 1 ? m : 1, nmin = n > 1 ? n : 1, s = rfp ? 1 : 0;
    if (rfp && !gchol_transr_valid(transr)) return -1;
    if (!gchol_uplo_valid(uplo)) return -(1 + s);
    if (m < 0) return -(2 + s);
    if (n < 0) return -(3 + s);
    if (nrhs < 0) return -(4 + s);
    if (m > 0 && n > 0 && dA == NULL) return -(5 + s);
    if (ldda < mmin) return -(6 + s);
    if (n > 0 && nrhs > 0 && dB == NULL) return -(8 + s);
    if (lddb < nmin) return -(9 + s);
    if (m > 0 && dC == NULL) return -(10 + s);
    if (!rfp && lddc < mmin) return -11;
    if (m > 0 && nrhs > 0 && dY == NULL) return -12;
    if (lddy < mmin) return -13;
    if (info == NULL) return -14;
    if (!host && queue == NULL) return -15; /* the host forms have no queue */
    return 0;
}

/* -----------------------------------------------------------------------------
 * gchol_dwls_gpu, gchol_swls_gpu: Y = argmin || D (A^T Y - B) || by the normal equations
 * (A D^2 A^T) Y = A D^2 B. Synchronous.
 *   uplo (1) 'L'/'U': the triangle of C formed, factored and returned,
 *   m (2) >= 0, n (3) >= 0, nrhs (4) >= 0,
 *   dA (5) device m x n, ldda (6) >= max(1,m),
 *   dd (7) device, the n entries of D (not D^2), or NULL for D = I,
 *   dB (8) device n x nrhs, not written, lddb (9) >= max(1,n),
 *   dC (10) device m x m, receives the factor of A D^2 A^T in the uplo
 *   triangle (the other one is kept, as in ?potrf_gpu), lddc (11) >= max(1,m),
 *   dY (12) device m x nrhs, receives Y, lddy (13) >= max(1,m),
 *   info (14) 0, -i, k > 0 (the leading minor of order k of A D^2 A^T is not
 *   positive definite, NaN included; Y is not written) or a library error
 *   (<= -100), queue (15).
 * As LAPACK's ?posv, nrhs = 0 still forms and factors C.
 * -------------------------------------------------------------------------- */
int64_t PFX(wls_gpu)(char uplo, int64_t m, int64_t n, int64_t nrhs, const FLOAT *dA,
                     int64_t ldda, const FLOAT *dd, const FLOAT *dB, int64_t lddb, FLOAT *dC,
                     int64_t lddc, FLOAT *dY, int64_t lddy, int64_t *info, gchol_queue_t queue)
{
    int64_t st = check_args(0, 0, uplo, m, n, nrhs, dA, ldda, dB, lddb, dC, lddc, dY, lddy, info,
                            0, queue);
    if (st == 0 && m > 0)
        st = PFX(wls_run)(0, uplo, m, n, nrhs, dA, ldda, dd, dB, lddb, dC, lddc, dY, lddy, queue);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dwls_rfp_gpu, gchol_swls_rfp_gpu: the same with C in RFP storage (LAPACK's dsfrk /
 * dpftrf / dpftrs layout): m(m+1)/2 elements instead of m x m. Synchronous.
 *   transr (1) 'N' or 'T', uplo (2) 'L'/'U': the RFP variant of C,
 *   m (3), n (4), nrhs (5), dA (6), ldda (7), dd (8), dB (9), lddb (10) as
 *   in gchol_?wls_gpu,
 *   dC (11) device RFP array of m(m+1)/2, receives the Cholesky factor of
 *   A D^2 A^T (as ?pftrf leaves it, for later ?pftrs solves),
 *   dY (12), lddy (13), info (14), queue (15) as in gchol_?wls_gpu.
 * -------------------------------------------------------------------------- */
int64_t PFX(wls_rfp_gpu)(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs,
                         const FLOAT *dA, int64_t ldda, const FLOAT *dd, const FLOAT *dB,
                         int64_t lddb, FLOAT *dC, FLOAT *dY, int64_t lddy, int64_t *info,
                         gchol_queue_t queue)
{
    int64_t st = check_args(1, transr, uplo, m, n, nrhs, dA, ldda, dB, lddb, dC, 1, dY, lddy,
                            info, 0, queue);
    if (st == 0 && m > 0)
        st = PFX(wls_run)(transr, uplo, m, n, nrhs, dA, ldda, dd, dB, lddb, dC, 1, dY, lddy,
                          queue);
    if (info) *info = st;
    return st;
}

/* ---- host-memory forms: A and B streamed through the GPU (host_stream.c) -- */

/* After the last block, C and R = A D^2 B on the device: C := chol(C),
 * Y := C^{-1} R, then Y and C's factor back (LAPACK's partial factor when
 * info = k > 0, and Y not written). */
typedef struct { FLOAT *Y; int64_t ldy; } wls_out_t;
static int64_t wls_post(gchol_queue_t q, const PFX(stream_job_t) *j, FLOAT *dC, FLOAT *dR,
                        gchol_stage_t *stage_c, void *ctx)
{
    const wls_out_t *o = ctx;
    const size_t es = sizeof(FLOAT);
    int64_t finfo = 0, st;
    /* post_c_back: C's factor comes back beside the factorization */
    st = j->rfp ? PFX(pftrf_gpu)(j->transr, j->uplo, j->m, dC, &finfo, q)
        : j->post_c_back ? PFX(potrf_device_to_host)(j->uplo, j->m, dC, j->m, j->C, j->ldc, q)
                         : PFX(potrf_gpu)(j->uplo, j->m, dC, j->m, &finfo, q);
    if (st < 0) goto done; /* a library error: nothing written, or part of C's triangle */
    if (st == 0 && j->nrhs > 0) {
        if (j->rfp)
            GCHOL_TRY(PFX(pftrs_gpu)(j->transr, j->uplo, j->m, j->nrhs, dC, dR, j->m, &finfo, q));
        else
            GCHOL_TRY(PFX(potrs_gpu)(j->uplo, j->m, j->nrhs, dC, j->m, dR, j->m, &finfo, q));
        GCHOL_CUDA(gchol_copy_2d(gchol_queue_stager(q, o->Y), cudaMemcpyDeviceToHost, o->Y,
                                 (size_t)o->ldy * es, dR, (size_t)j->m * es, (size_t)j->m * es,
                                 j->nrhs, q->stream));
    }
    if (!j->post_c_back) {
        const int64_t e = PFX(host_stream_copy_c)(q, j, dC, stage_c, cudaMemcpyDeviceToHost);
        if (e != GCHOL_SUCCESS) st = e;
    }
done:
    return st;
}

static int64_t wls_host(int rfp, char transr, char uplo, int64_t m, int64_t n,
                        int64_t nrhs, const FLOAT *A, int64_t lda, const FLOAT *d, const FLOAT *B,
                        int64_t ldb, FLOAT *C, int64_t ldc, FLOAT *Y, int64_t ldy)
{
    /* C's factor comes back beside the factorization where potrf's driver
     * allows it; else after it, in one copy of the triangle (a banded copy
     * with nothing to overlap lost about 1 ms at m = 4096) */
    const int overlap = !rfp && PFX(potrf_device_to_host_overlaps)(uplo, m);
    const PFX(stream_job_t) job = { .rfp = rfp, .transr = transr, .uplo = uplo, .m = m, .n = n,
                                    .alpha = 1, .beta = 0, .A = A, .lda = lda, .d = d, .C = C,
                                    .ldc = ldc, .post_c_back = overlap, .nrhs = nrhs, .B = B,
                                    .ldb = ldb };
    wls_out_t out = { Y, ldy };
    return PFX(host_stream)(&job, wls_post, &out);
}

/* -----------------------------------------------------------------------------
 * gchol_dwls, gchol_swls: gchol_?wls_gpu with A, d, B, C and Y in host memory
 * (pinned or pageable), on the library-owned queue; synchronous. A and B
 * stream through the GPU in blocks of columns of A (rows of B), the copy of
 * the next block beside the products of the current one (C += A_b D_b^2 A_b^T
 * and R += A_b D_b^2 B_b), so A may be larger than the device memory:
 * C (m x m), R (m x nrhs) and two blocks must fit. Then C := chol(C) and
 * Y := C^{-1} R on the device; Y and C's factor (its uplo triangle; the rest
 * of the host C is never written) come back. Arguments as gchol_?wls_gpu,
 * less the queue:
 *   uplo (1), m (2), n (3), nrhs (4), A (5), lda (6), d (7) or NULL,
 *   B (8), ldb (9), C (10), ldc (11), Y (12), ldy (13), info (14).
 * Returns info: 0, -i, k > 0 (A D^2 A^T not positive definite at order k:
 * C holds LAPACK's partial factor, Y is not written) or a library error.
 * -------------------------------------------------------------------------- */
int64_t PFX(wls)(char uplo, int64_t m, int64_t n, int64_t nrhs, const FLOAT *A, int64_t lda,
                 const FLOAT *d, const FLOAT *B, int64_t ldb, FLOAT *C, int64_t ldc, FLOAT *Y,
                 int64_t ldy, int64_t *info)
{
    int64_t st = check_args(0, 0, uplo, m, n, nrhs, A, lda, B, ldb, C, ldc, Y, ldy, info, 1, NULL);
    if (st == 0 && m > 0)
        st = wls_host(0, 'N', uplo, m, n, nrhs, A, lda, d, B, ldb, C, ldc, Y, ldy);
    if (info) *info = st;
    return st;
}

/* -----------------------------------------------------------------------------
 * gchol_dwls_rfp, gchol_swls_rfp: the same with C in RFP storage (m(m+1)/2 elements, host):
 *   transr (1), uplo (2), m (3), n (4), nrhs (5), A (6), lda (7), d (8),
 *   B (9), ldb (10), C (11) RFP, Y (12), ldy (13), info (14).
 * -------------------------------------------------------------------------- */
int64_t PFX(wls_rfp)(char transr, char uplo, int64_t m, int64_t n, int64_t nrhs, const FLOAT *A,
                     int64_t lda, const FLOAT *d, const FLOAT *B, int64_t ldb, FLOAT *C, FLOAT *Y,
                     int64_t ldy, int64_t *info)
{
    int64_t st = check_args(1, transr, uplo, m, n, nrhs, A, lda, B, ldb, C, 1, Y, ldy, info, 1,
                            NULL);
    if (st == 0 && m > 0)
        st = wls_host(1, transr, uplo, m, n, nrhs, A, lda, d, B, ldb, C, 1, Y, ldy);
    if (info) *info = st;
    return st;
}
