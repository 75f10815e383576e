/*
 * wls_problems.h -- testing_wls's problems: A, d, B and their references
 * (LAPACKE's normal-equation and QR solutions, the Gram matrix on the GPU
 * for the large ones).
 * Part of testing_wls.c, which includes it once.
 */
#ifndef GCHOL_TESTING_WLS_PROBLEMS_H
#define GCHOL_TESTING_WLS_PROBLEMS_H

/* ===========================================================================
 * Problems.
 * ========================================================================= */
typedef enum {
    K_WELL,    /* d uniform in [0.5, 2]                                      */
    K_NOD,     /* d = NULL (D = I)                                           */
    K_SPREAD,  /* d log-uniform in [1e-3, 1e3]                               */
    K_ILL,     /* the last row of A = its first + 1e-4 x random: cond(C) ~1e9 */
    K_BIG_A,   /* one entry of A = 1e39: beyond single, fine in double      */
    K_BIG_D,   /* d uniform in [0.5, 2] x 1e20: D^2 and C overflow single   */
    K_HUGE_D,  /* d uniform in [0.5, 2] x 1e39: d overflows single          */
    K_RANKDEF, /* m > n: rank(A D) = n < m                                   */
    K_NAN_A,   /* one NaN in row m / 2 of A                                  */
    K_NAN_B,   /* one NaN in column 0 of B                                   */
    K_ZERO_N,  /* n = 0 < m: C = 0                                           */
    K_COUNT
} kind_t;
static const char *const kind_name[K_COUNT] = { "well", "d=NULL", "spread", "ill", "big_A",
                                                "big_d", "huge_d", "rankdef", "nan_A", "nan_B",
                                                "n=0" };

/* V_?RFP_*: gchol_?wls_rfp_gpu, C in RFP storage (transr, uplo), the four
 * RFP variants spread over the two precisions. V_DSHOST: gchol_dswls, the
 * host form of dswls. V_?HOST*: the host-memory
 * forms gchol_?wls and gchol_?wls_rfp (A and B streamed in blocks, made
 * small through the test hooks: about five of the largest). */
typedef enum {
    V_DWLS_L, V_DWLS_U, V_SWLS_L, V_SWLS_U, V_DSWLS, V_DSWLS_X, V_DSWLS_TF32,
    V_DRFP_NL, V_DRFP_TU, V_SRFP_TL, V_SRFP_NU,
    V_DHOST_L, V_SHOST_U, V_DHOST_RFP_NU, V_SHOST_RFP_TL, V_DSHOST, V_DSWLS_FP16, V_DSWLS_BF16,
    V_COUNT
} variant_t;
static const char *const variant_name[V_COUNT] = { "dwls L", "dwls U", "swls L", "swls U",
                                                   "dswls", "dswls_x", "dswls_tf32",
                                                   "dwls rfp NL", "dwls rfp TU", "swls rfp TL",
                                                   "swls rfp NU", "dwls host L", "swls host U",
                                                   "dwls hostNU", "swls hostTL", "dswls host",
                                                   "dswls_fp16", "dswls_bf16" };
#define VB(v) (1u << (v))
#define V_RFP (VB(V_DRFP_NL) | VB(V_DRFP_TU) | VB(V_SRFP_TL) | VB(V_SRFP_NU))
#define V_HOST (VB(V_DHOST_L) | VB(V_SHOST_U) | VB(V_DHOST_RFP_NU) | VB(V_SHOST_RFP_TL) | \
                VB(V_DSHOST))
#define V_SINGLE (VB(V_SWLS_L) | VB(V_SWLS_U) | VB(V_SRFP_TL) | VB(V_SRFP_NU) | VB(V_SHOST_U) | \
                  VB(V_SHOST_RFP_TL))
/* dswls on the FP16 / BF16 tensor cores: converges where cond(C) is small */
#define V_LOWP (VB(V_DSWLS_FP16) | VB(V_DSWLS_BF16))
#define V_ALL (VB(V_DWLS_L) | VB(V_DWLS_U) | VB(V_SWLS_L) | VB(V_SWLS_U) | VB(V_DSWLS) | \
               VB(V_DSWLS_TF32) | V_RFP | V_HOST)

static int in(variant_t v, unsigned set) { return (VB(v) & set) != 0; }
static int is_host(variant_t v) { return in(v, V_HOST); }
static int is_rfp(variant_t v) { return in(v, V_RFP | VB(V_DHOST_RFP_NU) | VB(V_SHOST_RFP_TL)); }
static int is_wls(variant_t v) { return v <= V_SWLS_U || is_rfp(v) || (is_host(v) && v != V_DSHOST); }
static int is_single(variant_t v) { return in(v, V_SINGLE); }
static int is_lowp(variant_t v) { return in(v, V_LOWP); }
static char variant_uplo(variant_t v)
{
    return in(v, VB(V_DWLS_U) | VB(V_SWLS_U) | VB(V_DRFP_TU) | VB(V_SRFP_NU) | VB(V_SHOST_U) |
                     VB(V_DHOST_RFP_NU)) ? 'U' : 'L';
}
/* 0 for full storage */
static char variant_transr(variant_t v)
{
    return !is_rfp(v) ? 0 : in(v, VB(V_DRFP_NL) | VB(V_SRFP_NU) | VB(V_DHOST_RFP_NU)) ? 'N' : 'T';
}

/* Extra rows of the leading dimensions: lda = m + a, ldb = n + b, lddc =
 * m + c, lddy = m + y. */
typedef struct { int64_t a, b, c, y; } pads_t;

typedef struct {
    int64_t m, n, nrhs;
    int64_t lda, ldb;      /* of the host arrays and of dA, dB           */
    kind_t  kind;
    int64_t defect_row;    /* nan_A, big_A: the row of the defect        */
    double *A, *d, *B;     /* inputs; padding rows NaN; d NULL for D = I */
    float  *As, *ds, *Bs;  /* the same rounded to single (swls)          */
    /* references */
    int     have_ref;
    double *C;             /* m x m, both triangles, ld m                */
    double  normC;         /* ||C||_inf = ||C||_1                        */
    double  normAD2;       /* ||A D^2||_inf                              */
    int64_t ref_info;      /* LAPACKE_dpotrf on C                        */
    double *Yne;           /* m x nrhs, ld m; NULL unless ref_info = 0   */
    double *Yqr;           /* m x nrhs, ld m; NULL when not computed     */
    double  kappa;         /* cond_1(C) from dpocon, or NOT_APPLICABLE   */
    /* dwls L's answer, for the dswls comparisons */
    double *Ydwls;
    double  err_dwls;
} problem_t;

static void problem_free(problem_t *p)
{
    free(p->A); free(p->d); free(p->B);
    free(p->As); free(p->ds); free(p->Bs);
    free(p->C); free(p->Yne); free(p->Yqr); free(p->Ydwls);
    memset(p, 0, sizeof(*p));
}

/* Whether the problem is meant to be representable in single precision. */
static int kind_fits_single(kind_t k) { return k != K_BIG_A && k != K_BIG_D && k != K_HUGE_D; }

/* A (m x n): uniform(-1, 1) when n >= 4m (then cond(A) <= about 3); else
 * 3 [I 0] + uniform(-1, 1) / sqrt(n), whose singular values lie within
 * 3 -+ 1.16 (Weyl): well-conditioned for any shape. d and B per the kind.
 * with_single: also the single-precision copies (swls). */
static void generate(problem_t *p, uint64_t seed, int with_single)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs, lda = p->lda, ldb = p->ldb;
    const int shifted = n < 4 * m;
    const double scale = shifted ? 1.0 / sqrt((double)max64(n, 1)) : 1.0;
    testing_rng_t rng;
    testing_rng_seed(&rng, seed);

    p->A = xmalloc((size_t)(lda * n) * sizeof(double));
    testing_fill_nan('d', lda * n, p->A);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            p->A[i + j * lda] = testing_rng_uniform(&rng) * scale + (shifted && i == j ? 3.0 : 0.0);
    if (p->kind == K_ILL && m >= 2)
        for (int64_t j = 0; j < n; j++)
            p->A[m - 1 + j * lda] = p->A[j * lda] + 1e-4 * p->A[m - 1 + j * lda];
    p->defect_row = m / 2;
    if (p->kind == K_BIG_A && n > 0) /* not 1e300: its square overflows double */
        p->A[p->defect_row + ((p->defect_row + n / 2) % n) * lda] = 1e39;
    if (p->kind == K_NAN_A && n > 0)
        p->A[p->defect_row + (n / 3) * lda] = NAN;

    p->d = NULL;
    if (p->kind != K_NOD && n > 0) {
        p->d = xmalloc((size_t)n * sizeof(double));
        for (int64_t k = 0; k < n; k++) {
            const double u = testing_rng_uniform(&rng); /* (-1, 1) */
            double v = pow(2.0, u);                      /* [0.5, 2] */
            if (p->kind == K_SPREAD) v = pow(10.0, 3.0 * u);
            if (p->kind == K_BIG_D) v *= 1e20;
            if (p->kind == K_HUGE_D) v *= 1e39;
            p->d[k] = v;
        }
    }

    p->B = xmalloc((size_t)(ldb * nrhs) * sizeof(double));
    testing_fill_nan('d', ldb * nrhs, p->B);
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++) p->B[i + j * ldb] = testing_rng_uniform(&rng);
    if (p->kind == K_NAN_B && n > 0 && nrhs > 0) p->B[n / 2] = NAN;

    if (with_single && kind_fits_single(p->kind)) {
        p->As = xmalloc((size_t)(lda * n) * sizeof(float));
        p->Bs = xmalloc((size_t)(ldb * nrhs) * sizeof(float));
        for (int64_t i = 0; i < lda * n; i++) p->As[i] = (float)p->A[i];
        for (int64_t i = 0; i < ldb * nrhs; i++) p->Bs[i] = (float)p->B[i];
        if (p->d) {
            p->ds = xmalloc((size_t)n * sizeof(float));
            for (int64_t k = 0; k < n; k++) p->ds[k] = (float)p->d[k];
        }
    }
}

/* W = A D (m x n, ld max(1, m)). */
static double *scaled_copy(const problem_t *p)
{
    const int64_t m = p->m, n = p->n, ldw = max64(1, m);
    double *W = xmalloc((size_t)(ldw * n) * sizeof(double));
    for (int64_t j = 0; j < n; j++) {
        const double dj = p->d ? p->d[j] : 1.0;
        for (int64_t i = 0; i < m; i++) W[i + j * ldw] = p->A[i + j * p->lda] * dj;
    }
    return W;
}

/* C = W W^T in the lower triangle of C (ld m) on the GPU with cuBLAS (an
 * independent reference, for sizes the CPU would take long on). */
static int gram_gpu(int64_t m, int64_t n, const double *W, double *C)
{
    double *dW = NULL, *dC = NULL;
    cublasHandle_t h = NULL;
    const double one = 1, zero = 0;
    int rc = -1;
    if (!(dW = dev_upload(W, (size_t)(m * n) * sizeof(double))) ||
        TESTING_CUDA(cudaMalloc((void **)&dC, (size_t)(m * m) * sizeof(double))) ||
        TESTING_CUBLAS(cublasCreate(&h)) ||
        TESTING_CUBLAS(cublasDsyrk_64(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, n, &one, dW, m,
                                      &zero, dC, m)) ||
        TESTING_CUDA(cudaDeviceSynchronize()) ||
        dev_download(C, dC, (size_t)(m * m) * sizeof(double)))
        goto out;
    rc = 0;
out:
    if (h) cublasDestroy(h);
    cudaFree(dW);
    cudaFree(dC);
    return rc;
}

/* The references. full = 0 (table mode): C and the norms only. */
static int compute_references(problem_t *p, int full)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs;
    p->kappa = NOT_APPLICABLE;
    p->ref_info = 0;
    p->C = xmalloc((size_t)(m * m) * sizeof(double));
    memset(p->C, 0, (size_t)(m * m) * sizeof(double));
    p->normAD2 = 0;
    for (int64_t i = 0; i < m; i++) {
        double s = 0;
        for (int64_t k = 0; k < n; k++) {
            const double dk = p->d ? p->d[k] : 1.0;
            s += fabs(p->A[i + k * p->lda]) * dk * dk;
        }
        p->normAD2 = s > p->normAD2 || isnan(s) ? s : p->normAD2;
    }
    double *W = NULL;
    if (n > 0 && m > 0) {
        W = scaled_copy(p);
        const double work = (double)m * (double)m * (double)n;
        if (work > GRAM_CPU_MAX_WORK && testing_have_gpu()) {
            if (gram_gpu(m, n, W, p->C)) { free(W); return -1; }
        } else {
            cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, (blasint)m, (blasint)n, 1.0, W,
                        (blasint)m, 0.0, p->C, (blasint)m);
        }
    }
    for (int64_t j = 0; j < m; j++) /* mirror the lower triangle */
        for (int64_t i = 0; i < j; i++) p->C[i + j * m] = p->C[j + i * m];
    p->normC = 0;
    for (int64_t i = 0; i < m; i++) {
        double s = 0;
        for (int64_t j = 0; j < m; j++) s += fabs(p->C[i + j * m]);
        p->normC = s > p->normC || isnan(s) ? s : p->normC;
    }
    p->have_ref = 1;
    if (!full || m == 0) {
        free(W);
        return 0;
    }

    /* Y_ne: the normal equations in double; F = W (D B) */
    const int64_t ldf = max64(1, max64(m, n));
    double *DB = xmalloc((size_t)(ldf * max64(nrhs, 1)) * sizeof(double));
    for (int64_t j = 0; j < nrhs; j++)
        for (int64_t i = 0; i < n; i++)
            DB[i + j * ldf] = p->B[i + j * p->ldb] * (p->d ? p->d[i] : 1.0);
    double *L = xmalloc((size_t)(m * m) * sizeof(double));
    memcpy(L, p->C, (size_t)(m * m) * sizeof(double));
    /* OpenBLAS's dpotrf does not flag NaN pivots: netlib semantics for nan_A */
    if (n == 0)
        p->ref_info = 1;
    else if (p->kind == K_NAN_A)
        p->ref_info = testing_reference_info('d', 'L', m, p->C, m);
    else
        p->ref_info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m);
    if (p->ref_info == 0) {
        double rcond = 0;
        if (LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', (lapack_int)m, L, (lapack_int)m, p->normC,
                           &rcond) == 0 && rcond > 0)
            p->kappa = 1.0 / rcond;
        if (nrhs > 0) {
            p->Yne = xmalloc((size_t)(m * nrhs) * sizeof(double));
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (blasint)m, (blasint)nrhs,
                        (blasint)n, 1.0, W, (blasint)m, DB, (blasint)ldf, 0.0, p->Yne, (blasint)m);
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', (lapack_int)m, (lapack_int)nrhs, L,
                           (lapack_int)m, p->Yne, (lapack_int)m);
        }
    }
    free(L);

    /* Y_qr: min || D A^T y - D b ||_2 by QR, for information */
    const double qr_work = (double)n * (double)m * (double)m;
    if (p->ref_info == 0 && nrhs > 0 && n >= m && qr_work <= QR_MAX_WORK &&
        (p->kind == K_WELL || p->kind == K_NOD || p->kind == K_SPREAD || p->kind == K_ILL)) {
        double *M = xmalloc((size_t)(n * m) * sizeof(double));
        for (int64_t j = 0; j < n; j++) /* M = W^T, n x m */
            for (int64_t i = 0; i < m; i++) M[j + i * n] = W[i + j * m];
        if (LAPACKE_dgels(LAPACK_COL_MAJOR, 'N', (lapack_int)n, (lapack_int)m, (lapack_int)nrhs,
                          M, (lapack_int)n, DB, (lapack_int)ldf) == 0) {
            p->Yqr = xmalloc((size_t)(m * nrhs) * sizeof(double));
            for (int64_t j = 0; j < nrhs; j++)
                memcpy(p->Yqr + j * m, DB + j * ldf, (size_t)m * sizeof(double));
        }
        free(M);
    }
    free(DB);
    free(W);
    return 0;
}

#endif
