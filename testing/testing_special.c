/*
 * testing_special.c -- gchol's factorizations and solves on special values,
 * double and single precision in one binary:
 *   nan_other  NaN and +-Inf only in the unreferenced triangle and the
 *              padding: info 0, residual < 30, the factor within 30 n eps of
 *              gchol's factor of the same triangle with zeros elsewhere,
 *              everything outside the triangle untouched bit for bit;
 *   sprinkled  subnormal entries among the off-diagonal ones of a unit-scale
 *   subn_off   SPD matrix, or all off-diagonal entries subnormal (the matrix
 *              scaled by 2^-1016 in double, 2^-120 in single: a flush to
 *              zero shows in the residual);
 *   big small  the matrix scaled by 1e300, 1e-300, 2^1023, 2^-1021 (double)
 *   max min    or 1e35, 1e-35, 2^127, 2^-125 (single): diagonal ~ scale,
 *              L's diagonal ~ sqrt(scale);
 *              these pass with info = LAPACKE_?potrf's on the same input and,
 *              for info 0, no NaN or Inf in the factor and a residual
 *              ||A - L L^T|| / (n ||A|| eps), computed after scaling back by
 *              powers of two, below 30 or at most twice LAPACKE's own
 *              (single precision below 2^-100: no residual bound, as
 *              docs/api.md says; info and a finite factor only);
 *   rhs        Inf and NaN in columns of B for potrs, posv, pftrs (device and
 *              host forms) and dsposv (device and host; Inf and NaN apart):
 *              info 0, every column of X whose b held Inf or NaN not finite,
 *              the other columns' backward error ||b - A x|| / (||A|| ||x||
 *              n eps) < 30, B's padding (dsposv: all of B) untouched;
 *              dsposv's iter is printed beside LAPACKE_dsposv's.
 * The factorizations run on the tiled kernel, the left- and right-looking
 * drivers (expert forms, nb 256), the host form and pftrf (four steps, fused,
 * host); the full suite adds the automatic blocked driver and the host
 * form's interleaved transfers at d 5000, s 7000-8000.
 *
 *   testing_special [--suite] [--quick] [--prec ds]
 *
 * Without a GPU every case is reported skipped. Ends with the SUMMARY line.
 */
#include "special.h"

#define TOL TESTING_TOL
enum { V_AUTO = GCHOL_VARIANT_AUTO, V_LEFT = GCHOL_VARIANT_LEFT, V_RIGHT = GCHOL_VARIANT_RIGHT };

static double factor_tol(char p, int64_t n) { return TOL * (double)n * testing_eps(p); }

/* Address of element (i, j). */
static const char *elem(char p, const void *A, int64_t lda, int64_t i, int64_t j)
{
    return (const char *)A + (size_t)(i + j * lda) * testing_elsize(p);
}

/* ===========================================================================
 * NaN and Inf outside the referenced triangle.
 * ========================================================================= */
static void run_other(const sp_case_t *c)
{
    char d[96];
    sp_desc(c, d, sizeof d);
    if (sp_skip(d, "nan_other")) return;
    const char p = c->prec, u = c->uplo;
    const int64_t n = c->n, lda = sp_lda(c);
    const size_t bytes = sp_bytes(c);
    void *A = sp_matrix(c, 1.0, 0xA1 + (uint64_t)n), *Z = malloc(bytes);
    void *L = malloc(bytes), *LZ = malloc(bytes);
    double *R = malloc((size_t)(n * n) * sizeof(double)), resid = NAN, diff = NAN;
    int64_t info = 0, zinfo = 0, ret = SP_HARNESS, zret = SP_HARNESS, bits = 0, outside = -1;
    if (A && Z && L && LZ && R) {
        memcpy(Z, A, bytes);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < lda; i++) {
                if (i < n && (u == 'L' ? i >= j : i <= j)) continue; /* the triangle */
                testing_set(p, Z, lda, i, j, 0.0);
                if ((i + 2 * j) % 5 == 0)
                    testing_set(p, A, lda, i, j, (i + j) % 2 ? INFINITY : -INFINITY);
            }
        memcpy(L, A, bytes);
        memcpy(LZ, Z, bytes);
        ret = sp_factor(c, L, lda, &info);
        zret = sp_factor(c, LZ, lda, &zinfo);
        if (ret == 0 && zret == 0) {
            resid = sp_residual(p, u, n, A, L, lda, 0);
            testing_to_double(p, n, n, LZ, lda, R, n);
            diff = testing_factor_diff(p, u, n, n, L, lda, R, n);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = j; i < n; i++) {
                    const int64_t r = u == 'L' ? i : j, s = u == 'L' ? j : i;
                    bits += memcmp(elem(p, L, lda, r, s), elem(p, LZ, lda, r, s),
                                   testing_elsize(p)) != 0;
                }
        }
        outside = testing_count_untouched_violations(p, u, n, L, A, lda);
    }
    testing_expect(ret == 0 && info == 0 && zret == 0 && zinfo == 0 && resid >= 0 &&
                       resid < TOL && diff <= factor_tol(p, n) && outside == 0,
                   "%s nan_other  info %lld  resid %.2e  vs zeros there %.1e (%lld entries "
                   "differ)  outside changed %lld",
                   d, (long long)info, resid, diff, (long long)bits, (long long)outside);
    free(A); free(Z); free(L); free(LZ); free(R);
}

/* ===========================================================================
 * Subnormal entries and scaled matrices.
 * ========================================================================= */

/* Entries of the triangle that are subnormal in precision p. */
static int64_t count_subnormal(char p, char uplo, int64_t n, const void *A, int64_t lda)
{
    int64_t k = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            const double v = sp_at(p, uplo, A, lda, i, j);
            k += (p == 's' ? fpclassify((float)v) : fpclassify(v)) == FP_SUBNORMAL;
        }
    return k;
}

/* The case's matrix scaled by `scale` (sprinkle: a quarter of the
 * off-diagonal entries replaced by subnormal ones), factored by gchol and by
 * LAPACKE on the same input. */
static void run_scaled(const sp_case_t *c, double scale, const char *label, int sprinkle)
{
    char d[96], what[40];
    sp_desc(c, d, sizeof d);
    snprintf(what, sizeof what, "%-9s %-9.3g", label, scale);
    if (sp_skip(d, what)) return;
    const char p = c->prec, u = c->uplo;
    const int64_t n = c->n, lda = sp_lda(c);
    const size_t bytes = sp_bytes(c);
    const uint64_t seed = 0x5CA1E + (uint64_t)n;
    void *A = sp_matrix(c, scale, seed), *L = malloc(bytes), *LL = malloc(bytes);
    int64_t info = 0, linfo = -1, ret = SP_HARNESS, subn = 0, nonfinite = -1, outside = -1;
    double resid = NAN, lresid = NAN;
    if (A && L && LL) {
        for (int64_t j = 0; sprinkle && j < n; j++)
            for (int64_t i = j + 1; i < n; i++)
                if ((3 * i + j) % 4 == 0) {
                    const double v = testing_hash_uniform(seed + 1, i, j);
                    sp_set(p, u, A, lda, i, j,
                           copysign(ldexp(0.25 + 0.75 * fabs(v), p == 's' ? -130 : -1030), v));
                }
        subn = count_subnormal(p, u, n, A, lda);
        memcpy(L, A, bytes);
        memcpy(LL, A, bytes);
        ret = sp_factor(c, L, lda, &info);
        linfo = p == 's' ? LAPACKE_spotrf(LAPACK_COL_MAJOR, u, (lapack_int)n, LL, (lapack_int)lda)
                         : LAPACKE_dpotrf(LAPACK_COL_MAJOR, u, (lapack_int)n, LL, (lapack_int)lda);
        if (ret == 0 && info == 0) {
            nonfinite = sp_count_nonfinite(p, u, n, L, lda);
            resid = sp_residual(p, u, n, A, L, lda, sp_exponent(scale));
        }
        if (linfo == 0) lresid = sp_residual(p, u, n, A, LL, lda, sp_exponent(scale));
        outside = sp_rfp(c) ? 0 : testing_count_untouched_violations(p, u, n, L, A, lda);
    }
    /* single below 2^-100: the tensor-core products' low parts fall below
     * FLT_MIN, and api.md bounds no residual there (info and a finite
     * factor still hold) */
    const int bounded = !(p == 's' && scale < 0x1p-100);
    const int fine = resid >= 0 && (!bounded || resid < TOL || resid <= 2 * lresid);
    testing_expect(ret != SP_HARNESS && ret == info && info == linfo && outside == 0 &&
                       (info != 0 || (nonfinite == 0 && fine)),
                   "%s %s info %lld (lapack %lld)  resid %.2e (lapack %.2e)%s  subnormal "
                   "inputs %lld  nonfinite %lld",
                   d, what, (long long)info, (long long)linfo, resid, lresid,
                   bounded ? "" : " (not bounded)", (long long)subn, (long long)nonfinite);
    free(A); free(L); free(LL);
}

/* ===========================================================================
 * Inf and NaN in the right-hand sides.
 * ========================================================================= */
typedef enum { S_POTRS_GPU, S_POTRS, S_POSV, S_PFTRS_GPU, S_PFTRS, S_DSPOSV_GPU, S_DSPOSV } solve_t;
static const char *solve_name[] = { "potrs_gpu", "potrs", "posv", "pftrs_gpu", "pftrs",
                                    "dsposv_gpu", "dsposv" };
enum { NRHS = 5, COL_INF = 1, COL_NAN = 3 };

/* The solve `which` of n x NRHS right-hand sides B0 (ldb), A the SPD matrix
 * of case c; X receives the solution. Returns the solve's return value
 * (SP_HARNESS when the harness failed), its info and (dsposv) iter in
 * *info, *iter, and in *b_changed the entries of the B that dsposv reads
 * that changed. */
static int64_t solve(const sp_case_t *c, int which, const void *A, const void *B0, void *X,
                     int64_t ldb, int64_t *info, int64_t *iter, int64_t *b_changed)
{
    const char p = c->prec, u = c->uplo, t = c->transr;
    const int s = p == 's';
    const int64_t n = c->n, lda = sp_lda(c), nt = testing_rfp_size(n);
    const size_t es = testing_elsize(p), bb = (size_t)(ldb * NRHS) * es;
    void *F = malloc(sp_bytes(c)), *B = malloc(bb), *R = testing_malloc((size_t)nt * es);
    void *dF = NULL, *dB = NULL, *dX = NULL;
    int64_t ret = SP_HARNESS, finfo = 0;
    gchol_queue_t q = sp_queue;
    *b_changed = 0;
    if (!F || !B || !R) goto out;
    memcpy(F, A, sp_bytes(c));
    memcpy(B, B0, bb);
    if (which == S_PFTRS_GPU || which == S_PFTRS) {
        if (s) LAPACKE_strttf(LAPACK_COL_MAJOR, t, u, (lapack_int)n, A, (lapack_int)lda, R);
        else LAPACKE_dtrttf(LAPACK_COL_MAJOR, t, u, (lapack_int)n, A, (lapack_int)lda, R);
    }
    if (which < S_DSPOSV_GPU && which != S_POTRS_GPU && which != S_PFTRS_GPU)
        memcpy(X, B0, bb); /* the host solves work in place */
    switch (which) {
    case S_POTRS_GPU:
        if (!(dF = testing_upload(F, sp_bytes(c))) || !(dB = testing_upload(B, bb))) break;
        ret = s ? gchol_spotrf_gpu(u, n, dF, lda, &finfo, q) : gchol_dpotrf_gpu(u, n, dF, lda, &finfo, q);
        if (ret == 0)
            ret = s ? gchol_spotrs_gpu(u, n, NRHS, dF, lda, dB, ldb, info, q)
                    : gchol_dpotrs_gpu(u, n, NRHS, dF, lda, dB, ldb, info, q);
        if (gchol_queue_sync(q) || testing_download(X, dB, bb)) ret = SP_HARNESS;
        break;
    case S_POTRS:
        ret = s ? gchol_spotrf(u, n, F, lda, &finfo) : gchol_dpotrf(u, n, F, lda, &finfo);
        if (ret == 0)
            ret = s ? gchol_spotrs(u, n, NRHS, F, lda, X, ldb, info)
                    : gchol_dpotrs(u, n, NRHS, F, lda, X, ldb, info);
        break;
    case S_POSV:
        ret = s ? gchol_sposv(u, n, NRHS, F, lda, X, ldb, info) : gchol_dposv(u, n, NRHS, F, lda, X, ldb, info);
        break;
    case S_PFTRS:
        ret = s ? gchol_spftrf(t, u, n, R, &finfo) : gchol_dpftrf(t, u, n, R, &finfo);
        if (ret == 0)
            ret = s ? gchol_spftrs(t, u, n, NRHS, R, X, ldb, info)
                    : gchol_dpftrs(t, u, n, NRHS, R, X, ldb, info);
        break;
    case S_PFTRS_GPU:
        if (!(dF = testing_upload(R, (size_t)nt * es)) || !(dB = testing_upload(B, bb))) break;
        ret = s ? gchol_spftrf_gpu(t, u, n, dF, &finfo, q) : gchol_dpftrf_gpu(t, u, n, dF, &finfo, q);
        if (ret == 0)
            ret = s ? gchol_spftrs_gpu(t, u, n, NRHS, dF, dB, ldb, info, q)
                    : gchol_dpftrs_gpu(t, u, n, NRHS, dF, dB, ldb, info, q);
        if (gchol_queue_sync(q) || testing_download(X, dB, bb)) ret = SP_HARNESS;
        break;
    case S_DSPOSV_GPU:
        if (!(dF = testing_upload(F, sp_bytes(c))) || !(dB = testing_upload(B, bb)) ||
            !(dX = testing_upload(X, bb)))
            break;
        ret = gchol_dsposv_gpu(u, n, NRHS, dF, lda, dB, ldb, dX, ldb, iter, info, q);
        if (testing_download(X, dX, bb) || testing_download(B, dB, bb)) ret = SP_HARNESS;
        break;
    default:
        ret = gchol_dsposv(u, n, NRHS, F, lda, B, ldb, X, ldb, iter, info);
        break;
    }
    if (which >= S_DSPOSV_GPU) *b_changed = testing_count_diff(p, ldb * NRHS, B, B0);
    if (ret == 0 && finfo != 0) ret = finfo;
out:
    cudaFree(dF); cudaFree(dB); cudaFree(dX);
    free(F); free(B); free(R);
    return ret;
}

/* rhs: +Inf and -Inf in column COL_INF (poison & 1), NaN in column COL_NAN
 * (poison & 2). */
static void run_rhs(char p, int which, char uplo, char transr, int64_t n, int poison)
{
    const int rfp = which == S_PFTRS_GPU || which == S_PFTRS, ds = which >= S_DSPOSV_GPU;
    const sp_case_t c = { p, uplo, transr, F_GPU, V_AUTO, 0, n };
    char d[112];
    snprintf(d, sizeof d, "%c %-10s %c%c n=%-5lld nrhs=%d  B %-7s", p, solve_name[which],
             rfp ? transr : ' ', uplo, (long long)n, NRHS,
             poison == 1 ? "inf" : poison == 2 ? "nan" : "inf+nan");
    if (sp_skip(d, "")) return;
    const int64_t lda = sp_lda(&c), ldb = n + 2;
    const size_t es = testing_elsize(p), bb = (size_t)(ldb * NRHS) * es;
    void *A = sp_matrix(&c, 1.0, 0xB0 + (uint64_t)n), *B0 = malloc(bb), *X = malloc(bb);
    void *X0 = malloc(bb), *Bc = malloc(bb), *Xc = malloc(bb), *AL = malloc(sp_bytes(&c));
    void *BL = malloc(bb), *XL = malloc(bb);
    int64_t info = TESTING_INFO_POISON, iter = -99, ret = SP_HARNESS, bchanged = -1, pad = -1;
    int64_t bad_nonfinite[2] = { -1, -1 }, nclean = 0;
    lapack_int liter = -99, linfo = -99;
    double berr = NAN;
    if (!A || !B0 || !X || !X0 || !Bc || !Xc || !AL || !BL || !XL) goto out;
    testing_generate_rhs(p, n, NRHS, B0, ldb, 0xB1 + (uint64_t)n);
    if (poison & 1) {
        testing_set(p, B0, ldb, n / 3, COL_INF, INFINITY);
        testing_set(p, B0, ldb, n - 1, COL_INF, -INFINITY);
    }
    if (poison & 2) testing_set(p, B0, ldb, 2 * n / 3, COL_NAN, NAN);
    testing_fill_nan(p, ldb * NRHS, X);
    memcpy(X0, X, bb);
    ret = solve(&c, which, A, B0, X, ldb, &info, &iter, &bchanged);
    if (ds) { /* LAPACK's dsposv on the same input, for its iter */
        memcpy(AL, A, sp_bytes(&c));
        memcpy(BL, B0, bb);
        linfo = LAPACKE_dsposv(LAPACK_COL_MAJOR, uplo, (lapack_int)n, NRHS, AL, (lapack_int)lda,
                               BL, (lapack_int)ldb, XL, (lapack_int)ldb, &liter);
    }
    for (int64_t j = 0; j < NRHS; j++) {
        const int bad = ((poison & 1) && j == COL_INF) || ((poison & 2) && j == COL_NAN);
        if (bad) {
            int64_t k = 0;
            for (int64_t i = 0; i < n; i++) k += !isfinite(testing_get(p, X, ldb, i, j));
            bad_nonfinite[j == COL_NAN] = k;
        } else {
            memcpy((char *)Bc + (size_t)(nclean * n) * es, elem(p, B0, ldb, 0, j), (size_t)n * es);
            memcpy((char *)Xc + (size_t)(nclean * n) * es, elem(p, X, ldb, 0, j), (size_t)n * es);
            nclean++;
        }
    }
    berr = testing_solve_berr(p, uplo, n, nclean, A, lda, Bc, n, Xc, n);
    pad = testing_count_padding_diff(p, n, NRHS, X, ds ? X0 : B0, ldb);
out:;
    const int bad_ok = (!(poison & 1) || bad_nonfinite[0] > 0) && (!(poison & 2) || bad_nonfinite[1] > 0);
    testing_expect(ret == 0 && info == 0 && bad_ok && berr >= 0 && berr < TOL && pad == 0 &&
                       (!ds || bchanged == 0),
                   "%s info %lld  nonfinite in x: inf col %lld, nan col %lld  clean cols berr "
                   "%.2e  pad changed %lld",
                   d, (long long)info, (long long)bad_nonfinite[0], (long long)bad_nonfinite[1],
                   berr, (long long)pad);
    if (ds)
        printf("          %s: iter %lld, B changed %lld; LAPACKE_dsposv: iter %d info %d\n",
               solve_name[which], (long long)iter, (long long)bchanged, (int)liter, (int)linfo);
    free(A); free(B0); free(X); free(X0); free(Bc); free(Xc); free(AL); free(BL); free(XL);
}

/* ===========================================================================
 * The suite of one precision.
 * ========================================================================= */
static void run(char p, int quick)
{
    const int64_t big = p == 'd' ? 5000 : 8000, bigh = p == 'd' ? 5000 : 7000;
    const int64_t tiled_big = p == 'd' ? 4000 : 7000;
    printf("\n-- %s: NaN and Inf outside the referenced triangle --\n", testing_prec_name(p));
    const sp_case_t other[] = {
        { p, 'L', 'N', F_GPU, V_AUTO, 0, 37 },       { p, 'U', 'N', F_GPU, V_AUTO, 0, 500 },
        { p, 'U', 'N', F_EXPERT, V_LEFT, 256, 1000 }, { p, 'L', 'N', F_EXPERT, V_RIGHT, 256, 900 },
        { p, 'L', 'N', F_HOST, V_AUTO, 0, 300 },      { p, 'U', 'N', F_HOST, V_AUTO, 0, 700 },
        /* the tiled kernel near its switch, the automatic blocked driver ('U'
         * in single: swapping the triangles), the host form's transfers
         * beside the left-looking driver */
        { p, 'U', 'N', F_GPU, V_AUTO, 0, tiled_big }, { p, 'L', 'N', F_GPU, V_AUTO, 0, big },
        { p, 'U', 'N', F_GPU, V_AUTO, 0, big },       { p, 'L', 'N', F_HOST, V_AUTO, 0, bigh },
    };
    for (int i = 0; i < TESTING_LEN(other); i++)
        if (!quick || i < 5) run_other(&other[i]);

    const sp_case_t forms[] = {
        { p, 'L', 'N', F_GPU, V_AUTO, 0, 600 },      { p, 'U', 'N', F_EXPERT, V_LEFT, 256, 1000 },
        { p, 'L', 'N', F_EXPERT, V_RIGHT, 256, 700 }, { p, 'U', 'N', F_HOST, V_AUTO, 0, 500 },
        { p, 'L', 'N', F_RFP, V_AUTO, 0, 601 },      { p, 'U', 'T', F_RFP, V_LEFT, 256, 800 },
        { p, 'U', 'N', F_RFP_HOST, V_AUTO, 0, 400 },
    };
    const int nforms = TESTING_LEN(forms);
    printf("\n-- %s: subnormal off-diagonal entries --\n", testing_prec_name(p));
    for (int i = 0; i < nforms; i++) {
        if (quick && i != 0 && i != 1 && i != 4) continue; /* tiled, left, pftrf */
        sp_case_t c = forms[i];
        if (quick && c.n > 400) c.n = 400;
        run_scaled(&c, 1.0, "sprinkled", 1);
        run_scaled(&c, p == 'd' ? 0x1p-1016 : 0x1p-120, "subn_off", 0);
    }
    printf("\n-- %s: matrices scaled near overflow and underflow --\n", testing_prec_name(p));
    static const char *scale_name[] = { "big", "small", "max", "min" };
    const double scale[] = { p == 'd' ? 1e300 : 1e35, p == 'd' ? 1e-300 : 1e-35,
                             p == 'd' ? 0x1p1023 : 0x1p127, p == 'd' ? 0x1p-1021 : 0x1p-125 };
    for (int i = 0; i < nforms; i++) {
        if (quick && i != 0 && i != 1 && i != 4) continue;
        sp_case_t c = forms[i];
        if (quick && c.n > 400) c.n = 400;
        for (int k = 0; k < 4; k++) run_scaled(&c, scale[k], scale_name[k], 0);
    }
    if (!quick) {
        const sp_case_t bigc[] = { { p, 'L', 'N', F_GPU, V_AUTO, 0, big },
                                   { p, 'U', 'N', F_GPU, V_AUTO, 0, big },
                                   { p, 'L', 'N', F_HOST, V_AUTO, 0, bigh } };
        run_scaled(&bigc[0], scale[0], scale_name[0], 0);
        run_scaled(&bigc[1], scale[1], scale_name[1], 0);
        run_scaled(&bigc[2], scale[2], scale_name[2], 0);
    }

    printf("\n-- %s: Inf and NaN in B --\n", testing_prec_name(p));
    const int64_t ns[] = { 300, 2000 };
    for (int k = 0; k < (quick ? 1 : 2); k++) {
        const char u = k ? 'U' : 'L';
        for (int w = S_POTRS_GPU; w <= S_PFTRS; w++) run_rhs(p, w, u, w % 2 ? 'T' : 'N', ns[k], 3);
        for (int w = S_DSPOSV_GPU; p == 'd' && w <= S_DSPOSV; w++) {
            run_rhs(p, w, u, 'N', ns[k], 1);
            run_rhs(p, w, u, 'N', ns[k], 2);
        }
    }
}

int main(int argc, char **argv) { return sp_main(argc, argv, "special", run); }
