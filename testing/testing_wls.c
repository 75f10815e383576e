/*
 * testing_wls.c -- tests and times gchol's weighted least squares by the
 * normal equations: gchol_dwls_gpu, gchol_swls_gpu (one precision), their
 * RFP forms, their host-memory forms gchol_?wls / gchol_?wls_rfp (A and B
 * streamed through the GPU in blocks, about five of the largest size
 * through the library's test hooks, src/test_hooks.h), and the
 * mixed-precision gchol_dswls_gpu / gchol_dswls_expert_gpu and its host
 * form gchol_dswls (A, d and B up whole, Y down), against CPU
 * references in double (OpenBLAS, LAPACKE). For each column b of B,
 *     y = argmin || D (A^T y - b) ||_2,  i.e.  (A D^2 A^T) y = A D^2 b,
 * A m x n, D = diag(d) n x n, B n x nrhs, Y m x nrhs.
 *
 * Suite mode (make test):            testing_wls --suite
 * Reduced (compute-sanitizer):       testing_wls --suite --quick
 *   One table row per call: m, n, nrhs, variant (dwls L/U, swls L/U, dswls,
 *   dswls_x = the expert form with opts NULL, dswls_tf32 / _fp16 / _bf16 =
 *   the expert form with products = TF32, FP16, BF16), the input kind, GPU ms, the checks' numbers, iter,
 *   info, and ok / FAILED (a FAILED row is followed by its reason).
 * Table mode (timing):
 *   testing_wls [-m LIST] [-n LIST] [--nrhs K] [--niter K]
 *               [--weights uniform|spread|none]
 *   m and n lists of equal length are paired; a single value pairs with
 *   every value of the other list. Prints the median GPU time of each
 *   variant and the backward residual ratio of each answer.
 *
 * CPU references, all in double: C = (A D)(A D)^T (cblas_dsyrk), its
 * Cholesky factor (LAPACKE_dpotrf), Y_ne = C^{-1} A D^2 B (dpotrs: the
 * normal equations solved in double), cond_1(C) (dpocon), and, for moderate
 * sizes, the QR answer Y_qr (LAPACKE_dgels on the n x m matrix D A^T with the
 * right-hand sides D B), printed for information only.
 *
 * Checks of every call that should succeed:
 * - backward residual of the normal equations, per column j,
 *       ||A D^2 (b_j - A^T y_j)||_inf / (||A D^2||_inf ||b_j||_inf
 *                                        + ||C||_inf ||y_j||_inf)
 *       / (eps max(m, n)) < 30                          (eps of the precision);
 * - forward error max|Y - Y_ne| / max|Y_ne| <= max(1e-10, 30 cond(C) eps) in
 *   double (dwls, dswls), <= max(1e-3, 30 cond(C) eps_s) for swls;
 * - wls: the factor in dC, ||C - L L^T||_1 / (m ||C||_1 eps) < 30, and dC's
 *   other triangle and padding rows bit for bit untouched (poisoned with
 *   NaNs of distinct payloads before the call);
 * - dY's padding rows untouched; dA, dd and dB (padding rows included) bit
 *   for bit unchanged; the return value equal to *info;
 * - dswls: iter in 0..30 on well-conditioned input (the TF32 form as well),
 *   or -31 below max(m,n) = 144, where a residual may stall at its rounding level;
 *   the FP16 and BF16 forms: iter in 0..30 where n >= 8 m (cond(C) ~10),
 *   else also -3 or -31 (the fallback), the answer checked the same way.
 * The fallback and failure kinds:
 * - ill: cond(C) ~ 1e9, beyond single precision: dswls iter -3 or -31 (the
 *   fallback), its error within 10x of dwls's or <= 1e-4;
 * - big_A (one entry of A = 1e39 > FLT_MAX), big_d (d ~ 1e20: D^2 and C
 *   overflow single precision), huge_d (d ~ 1e39): dswls iter -2 and the
 *   same answer as dwls (relative difference <= 1e-12);
 * - rankdef (m > n): info in (n, m] and, for wls, Y untouched; dswls iter < 0
 *   and the same info range;
 * - nan_A (a NaN in row r of A): info = r + 1 exactly (the leading minors
 *   of order <= r do not see the NaN), Y untouched (wls); dswls iter < 0;
 * - nan_B (a NaN in B's column 0): info 0, Y's column 0 all NaN, the other
 *   columns checked as above; dswls iter -1 or -31;
 * - n = 0 with m > 0: C = 0 is not positive definite: info 1 (dswls: iter
 *   -3 then the fallback's info 1); nrhs = 0: wls still forms and factors C
 *   (checked), dswls returns at once with iter 0.
 * - argument checks (-i for every argument of every form, NULL pointers
 *   where the sizes allow them, the order of the checks) and the m = 0 /
 *   nrhs = 0 quick returns: these never touch the device, so they run and
 *   pass without a GPU too (on a fake queue that must never be used).
 *
 * Without a GPU every GPU case is recorded as skipped. Every mode ends with
 * "SUMMARY passed=P failed=F skipped=S".
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "test_hooks.h"
#include "util.h"

#define INFO_POISON TESTING_INFO_POISON
#define LEN(a)      TESTING_LEN(a)

/* Forward-error floors for well-conditioned inputs. */
#define FWD_TOL_DOUBLE 1e-10
#define FWD_TOL_SINGLE 1e-3
/* QR references (dgels, 2 n m^2 flops) only up to this n m^2. */
#define QR_MAX_WORK 2.5e10
/* A metric that does not apply to a row (printed "-"); NaN stays a NaN. */
#define NOT_APPLICABLE (-1.0)
/* The CPU forms C = (A D)(A D)^T up to this m^2 n, the GPU (cuBLAS) above. */
#define GRAM_CPU_MAX_WORK 1.5e11

static gchol_queue_t g_queue;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        fprintf(stdout, "out of host memory (%zu bytes)\n", bytes);
        fflush(stdout);
        exit(testing_summary() ? 1 : 3);
    }
    return p;
}

/* ===========================================================================
 * Device helpers: exact-size allocations, so that memcheck sees overruns.
 * ========================================================================= */
static void *dev_upload(const void *h, size_t bytes) { return testing_upload(h, bytes); }

static int dev_download(void *h, const void *d, size_t bytes)
{
    return testing_download(h, d, bytes);
}

#include "wls_problems.h"

#include "wls_checks.h"

/* ===========================================================================
 * One call of one variant on one problem, checked.
 * ========================================================================= */
static int64_t call_variant(variant_t v, const problem_t *p, const void *dA, const void *dd,
                            const void *dB, void *dC, int64_t lddc, void *dY, int64_t lddy,
                            int64_t *iter, int64_t *info)
{
    const char uplo = variant_uplo(v), transr = variant_transr(v);
    gchol_options_t o;
    gchol_options_default(&o);
    o.products = GCHOL_PRODUCTS_TF32;
    switch (v) {
    case V_DRFP_NL: case V_DRFP_TU:
        return gchol_dwls_rfp_gpu(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb,
                                  dC, dY, lddy, info, g_queue);
    case V_SRFP_TL: case V_SRFP_NU:
        return gchol_swls_rfp_gpu(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb,
                                  dC, dY, lddy, info, g_queue);
    case V_DWLS_L: case V_DWLS_U:
        return gchol_dwls_gpu(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                              lddy, info, g_queue);
    case V_SWLS_L: case V_SWLS_U:
        return gchol_swls_gpu(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                              lddy, info, g_queue);
    case V_DSWLS:
        return gchol_dswls_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy, iter,
                               info, g_queue);
    case V_DSWLS_X:
        return gchol_dswls_expert_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy,
                                      iter, info, NULL, g_queue);
    case V_DHOST_L:
        return gchol_dwls(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                          lddy, info);
    case V_SHOST_U:
        return gchol_swls(uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC, lddc, dY,
                          lddy, info);
    case V_DHOST_RFP_NU:
        return gchol_dwls_rfp(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC,
                              dY, lddy, info);
    case V_SHOST_RFP_TL:
        return gchol_swls_rfp(transr, uplo, p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dC,
                              dY, lddy, info);
    case V_DSHOST:
        return gchol_dswls(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy, iter, info);
    case V_DSWLS_TF32: case V_DSWLS_FP16: case V_DSWLS_BF16:
        if (v == V_DSWLS_FP16) o.products = GCHOL_PRODUCTS_FP16;
        if (v == V_DSWLS_BF16) o.products = GCHOL_PRODUCTS_BF16;
        return gchol_dswls_expert_gpu(p->m, p->n, p->nrhs, dA, p->lda, dd, dB, p->ldb, dY, lddy,
                                      iter, info, &o, g_queue);
    case V_COUNT:
        break;
    }
    abort(); /* every variant has its case */
}

static void *dup_bytes(const void *h, size_t bytes)
{
    void *c = xmalloc(bytes ? bytes : 1);
    if (h && bytes) memcpy(c, h, bytes);
    return c;
}

/* The info a kind calls for: [lo, hi]. */
static void want_info(const problem_t *p, int64_t *lo, int64_t *hi)
{
    switch (p->kind) {
    case K_RANKDEF: *lo = p->n + 1; *hi = p->m; break;
    case K_NAN_A:   *lo = *hi = p->defect_row + 1; break;
    case K_ZERO_N:  *lo = *hi = 1; break;
    default:        *lo = *hi = 0; break;
    }
}

/* Whether iter is what dswls (lowp: its FP16 / BF16 form) should report on
 * this kind. */
static int iter_expected(const problem_t *p, int lowp, int64_t iter)
{
    if (p->nrhs == 0) return iter == 0;
    switch (p->kind) {
    case K_WELL: case K_NOD: case K_SPREAD: /* below 144 a residual may stall at its
                                                rounding level, short of the bound */
        if (lowp && p->n < 8 * p->m && (iter == -3 || iter == -31)) return 1;
        return (iter >= 0 && iter <= 30) || (iter == -31 && (p->m > p->n ? p->m : p->n) < 144);
    case K_ILL:    return iter == -3 || iter == -31;
    case K_BIG_A: case K_BIG_D: case K_HUGE_D: return iter == -2;
    case K_NAN_B:  return iter == -1 || iter == -31;
    case K_ZERO_N: return iter == -3;
    default:       return iter < 0; /* rankdef, nan_A */
    }
}

static void print_table_header(void)
{
    printf("  %5s %6s %4s %-11s %-7s %9s %9s %9s %9s %9s %8s %4s %5s  %s\n", "m", "n", "nrhs",
           "variant", "kind", "GPU ms", "resid", "err_ne", "err_qr", "factor", "cond(C)", "iter",
           "info", "check");
}

/* "%.2e", or "-" for NOT_APPLICABLE (and an unknown condition number). */
static void format_metric(char *buf, size_t size, double v)
{
    if (v == NOT_APPLICABLE)
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.2e", v);
}

static testing_result_t run_variant(problem_t *p, variant_t v, const pads_t *pads)
{
    const int64_t m = p->m, n = p->n, nrhs = p->nrhs;
    const char prec = is_single(v) ? 's' : 'd', uplo = variant_uplo(v);
    const char transr = variant_transr(v);
    const size_t es = testing_elsize(prec);
    const int64_t lddc = max64(1, m + pads->c), lddy = max64(1, m + pads->y);
    /* RFP: the array and kRfpGuard poisoned elements after it */
    enum { kRfpGuard = 7 };
    const int64_t c_elems = transr ? testing_rfp_size(m) + kRfpGuard : lddc * m;
    const int wls = is_wls(v);
    char why[200] = "";
    double ms = NAN, resid = NOT_APPLICABLE, err_ne = NOT_APPLICABLE;
    double err_qr = NOT_APPLICABLE, fact = NOT_APPLICABLE;
    int64_t iter = INFO_POISON, info = INFO_POISON, ret = INFO_POISON;
    testing_result_t res = TESTING_FAILED;
    void *dA = NULL, *dd = NULL, *dB = NULL, *dC = NULL, *dY = NULL;
    const void *hA = is_single(v) ? (const void *)p->As : (const void *)p->A;
    const void *hd = is_single(v) ? (const void *)p->ds : (const void *)p->d;
    const void *hB = is_single(v) ? (const void *)p->Bs : (const void *)p->B;
    const size_t bytesA = (size_t)(p->lda * n) * es, bytesB = (size_t)(p->ldb * nrhs) * es;
    const size_t bytesd = (size_t)n * es;
    const size_t bytesC = (size_t)c_elems * es, bytesY = (size_t)(lddy * nrhs) * es;
    void *C0 = xmalloc(bytesC), *C = xmalloc(bytesC), *Y0 = xmalloc(bytesY), *Y = xmalloc(bytesY);
    void *back = xmalloc(bytesA > bytesB ? (bytesA > bytesd ? bytesA : bytesd)
                                         : (bytesB > bytesd ? bytesB : bytesd));
    double *Yd = xmalloc((size_t)(max64(1, m) * nrhs) * sizeof(double));
    testing_fill_nan(prec, c_elems, C0);
    testing_fill_nan(prec, lddy * nrhs, Y0);
    memcpy(C, C0, bytesC);
    memcpy(Y, Y0, bytesY);

    int64_t changed = 0;
    if (is_host(v)) {
        /* host arrays: copies of the inputs (compared after), C and Y as the
         * poisoned C0 and Y0 */
        void *cA = dup_bytes(hA, bytesA), *cd = hd ? dup_bytes(hd, bytesd) : NULL;
        void *cB = dup_bytes(hB, bytesB);
        const gchol_test_hooks_t hooks = { .host_chunk_bytes = m * (int64_t)es * max64(1, n / 5) };
        gchol_test_hooks_set(&hooks);
        /* the RFP variants with every array pinned (direct copies), the
         * others pageable (through the stager) */
        void *pin[5] = { cA, cd, cB, C, Y };
        const size_t pin_bytes[5] = { bytesA, bytesd, bytesB, bytesC, bytesY };
        int pinned[5] = { 0, 0, 0, 0, 0 };
        for (int k = 0; k < 5 && transr; k++)
            if (pin[k] && pin_bytes[k])
                pinned[k] = cudaHostRegister(pin[k], pin_bytes[k], cudaHostRegisterDefault) ==
                            cudaSuccess;
        (void)cudaGetLastError();
        const double t0 = testing_wtime();
        ret = call_variant(v, p, n > 0 ? cA : NULL, cd, n > 0 && nrhs > 0 ? cB : NULL, C, lddc,
                           nrhs > 0 ? Y : NULL, lddy, &iter, &info);
        ms = 1e3 * (testing_wtime() - t0);
        gchol_test_hooks_set(NULL);
        for (int k = 0; k < 5; k++)
            if (pinned[k]) cudaHostUnregister(pin[k]);
        changed = testing_count_diff(prec, p->lda * n, cA, hA) +
                  (hd ? testing_count_diff(prec, n, cd, hd) : 0) +
                  testing_count_diff(prec, p->ldb * nrhs, cB, hB);
        free(cA); free(cd); free(cB);
        goto results;
    }
    /* NULL where the sizes allow it: dA and dB with n = 0, dB and dY with
     * nrhs = 0 */
    if (n > 0 && !(dA = dev_upload(hA, bytesA))) goto out;
    if (hd && n > 0 && !(dd = dev_upload(hd, bytesd))) goto out;
    if (n > 0 && nrhs > 0 && !(dB = dev_upload(hB, bytesB))) goto out;
    if (wls && !(dC = dev_upload(C0, bytesC))) goto out;
    if (nrhs > 0 && !(dY = dev_upload(Y0, bytesY))) goto out;
    if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;

    const double t0 = testing_wtime();
    ret = call_variant(v, p, dA, dd, dB, dC, lddc, dY, lddy, &iter, &info);
    ms = 1e3 * (testing_wtime() - t0);
    if (TESTING_CUDA(cudaDeviceSynchronize())) goto out;

    /* inputs unchanged, bit for bit */
    if (dA && !dev_download(back, dA, bytesA)) changed += testing_count_diff(prec, p->lda * n, back, hA);
    if (dd && !dev_download(back, dd, bytesd)) changed += testing_count_diff(prec, n, back, hd);
    if (dB && !dev_download(back, dB, bytesB)) changed += testing_count_diff(prec, p->ldb * nrhs, back, hB);
    if ((dC && dev_download(C, dC, bytesC)) || (dY && dev_download(Y, dY, bytesY))) goto out;

results:;
    int64_t lo, hi;
    want_info(p, &lo, &hi);
    const int want_ok = lo == 0;
    const int64_t col0 = p->kind == K_NAN_B ? 1 : 0;
    int64_t ypad = 0, ytouched = 0, cbad = 0, col0_not_nan = 0;
    for (int64_t j = 0; j < nrhs; j++)
        ypad += testing_count_diff(prec, lddy - m, (const char *)Y + (size_t)(j * lddy + m) * es,
                                   (const char *)Y0 + (size_t)(j * lddy + m) * es);
    if (wls && !want_ok) ytouched = testing_count_diff(prec, lddy * nrhs, Y, Y0);
    if (wls && transr) /* the guard after the RFP array */
        cbad = testing_count_diff(prec, kRfpGuard, (const char *)C + (size_t)(c_elems - kRfpGuard) * es,
                                  (const char *)C0 + (size_t)(c_elems - kRfpGuard) * es);
    else if (wls)
        cbad = testing_count_untouched_violations(prec, uplo, m, C, C0, lddc);
    testing_to_double(prec, m, nrhs, Y, lddy, Yd, max64(1, m));

    if (want_ok && info == 0 && p->have_ref) {
        const double eps = testing_eps(prec);
        resid = backward_ratio(p, Yd, max64(1, m), col0, eps);
        if (p->Yne) err_ne = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Yne);
        if (p->Yqr) err_qr = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Yqr);
        if (p->kind == K_NAN_B)
            for (int64_t i = 0; i < m; i++) col0_not_nan += !isnan(Yd[i]);
        if (wls && m > 0) {
            void *Cp = p->C; /* the reference C in the variant's precision */
            if (prec == 's') {
                Cp = xmalloc((size_t)(m * m) * sizeof(float));
                for (int64_t i = 0; i < m * m; i++) ((float *)Cp)[i] = (float)p->C[i];
            }
            if (transr) { /* the RFP factor as a full triangle, as LAPACK's ?tfttr writes it */
                void *Cfull = xmalloc((size_t)(m * m) * es);
                testing_fill_nan(prec, m * m, Cfull);
                const lapack_int rc = prec == 's'
                    ? LAPACKE_stfttr(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C, Cfull, (lapack_int)m)
                    : LAPACKE_dtfttr(LAPACK_COL_MAJOR, transr, uplo, (lapack_int)m, C, Cfull, (lapack_int)m);
                if (rc || testing_residual(prec, uplo, m, Cp, m, Cfull, m, NULL, m, &fact)) fact = NAN;
                free(Cfull);
            } else if (testing_residual(prec, uplo, m, Cp, m, C, lddc, dC, lddc, &fact)) {
                fact = NAN;
            }
            if (Cp != p->C) free(Cp);
        } else if (wls) {
            fact = 0;
        }
    }
    /* dwls L's answer: what the dswls fallbacks are compared with */
    if (v == V_DWLS_L && want_ok && info == 0 && nrhs > 0) {
        free(p->Ydwls);
        p->Ydwls = xmalloc((size_t)(m * nrhs) * sizeof(double));
        for (int64_t j = 0; j < nrhs; j++) memcpy(p->Ydwls + j * m, Yd + j * m, (size_t)m * sizeof(double));
        p->err_dwls = err_ne;
    }

    /* the forward-error check each kind calls for */
    const double tol = fwd_tol(prec, p->kappa);
    double cmp_dwls = NAN;
    int fwd_ok = 1;
    if (want_ok && info == 0 && nrhs > col0 && p->have_ref) {
        const int vs_dwls = !wls && p->Ydwls &&
                            (p->kind == K_BIG_A || p->kind == K_BIG_D || p->kind == K_HUGE_D);
        if (vs_dwls) {
            cmp_dwls = rel_diff(m, nrhs, col0, Yd, max64(1, m), p->Ydwls);
            fwd_ok = cmp_dwls <= 1e-12;
        }
        if (p->kind == K_ILL && !wls)
            fwd_ok = p->Yne && err_ne <= fmax(1e-4, isnan(p->err_dwls) ? 0.0 : 10.0 * p->err_dwls);
        else if (p->kind != K_BIG_A)
            fwd_ok = fwd_ok && p->Yne && err_ne <= tol;
    }

    if (ret != info)
        snprintf(why, sizeof why, "return %lld != info %lld", (long long)ret, (long long)info);
    else if (info <= GCHOL_ERR_NO_DEVICE)
        snprintf(why, sizeof why, "library error %lld: %s", (long long)info, gchol_strerror(info));
    else if (info < lo || info > hi)
        snprintf(why, sizeof why, "info %lld, want %lld..%lld (CPU dpotrf on C: %lld)",
                 (long long)info, (long long)lo, (long long)hi, (long long)p->ref_info);
    else if (!wls && !iter_expected(p, is_lowp(v), iter))
        snprintf(why, sizeof why, "iter %lld not expected for kind %s", (long long)iter,
                 kind_name[p->kind]);
    else if (changed)
        snprintf(why, sizeof why, "inputs A, d or B written (%lld elements)", (long long)changed);
    else if (ypad)
        snprintf(why, sizeof why, "Y padding rows written (%lld)", (long long)ypad);
    else if (ytouched)
        snprintf(why, sizeof why, "Y written although info > 0 (%lld)", (long long)ytouched);
    else if (cbad)
        snprintf(why, sizeof why, "C outside the %s written (%lld)",
                 transr ? "RFP array" : uplo == 'U' ? "U triangle" : "L triangle", (long long)cbad);
    else if (want_ok && !(resid < TESTING_TOL))
        snprintf(why, sizeof why, "backward residual ratio %.2e >= %.0f", resid, TESTING_TOL);
    else if (want_ok && wls && !(fact < TESTING_TOL))
        snprintf(why, sizeof why, "factor residual %.2e >= %.0f", fact, TESTING_TOL);
    else if (col0_not_nan)
        snprintf(why, sizeof why, "NaN in b_0 did not make y_0 NaN (%lld finite)", (long long)col0_not_nan);
    else if (!fwd_ok)
        snprintf(why, sizeof why, "forward error %.2e (tol %.1e, cond %.1e; dwls %.2e, vs dwls %.2e)",
                 err_ne, tol, p->kappa, p->err_dwls, cmp_dwls);
    else
        res = TESTING_PASSED;
out:;
    char iter_s[24] = "-", nums[5][16];
    if (!wls) snprintf(iter_s, sizeof iter_s, "%lld", (long long)iter);
    const double shown[5] = { resid, err_ne, err_qr, fact, p->kappa };
    for (int k = 0; k < 5; k++) format_metric(nums[k], sizeof nums[k], shown[k]);
    printf("  %5lld %6lld %4lld %-11s %-7s %9.3f %9s %9s %9s %9s %8s %4s %5lld  %s\n",
           (long long)m, (long long)n, (long long)nrhs, variant_name[v], kind_name[p->kind], ms,
           nums[0], nums[1], nums[2], nums[3], nums[4], iter_s, (long long)info,
           testing_result_name(res));
    if (res != TESTING_PASSED)
        printf("        -> %s\n", why[0] ? why : "a CUDA call failed (see above)");
    fflush(stdout);
    cudaFree(dA); cudaFree(dd); cudaFree(dB); cudaFree(dC); cudaFree(dY);
    free(C0); free(C); free(Y0); free(Y); free(back); free(Yd);
    return testing_record(res);
}

/* Generates one problem, computes its references and runs the variants in
 * `variants` (dwls L first: dswls's fallbacks are compared with it). */
static void run_problem(int64_t m, int64_t n, int64_t nrhs, kind_t kind, unsigned variants,
                        const pads_t *pads)
{
    if (!testing_case_in_part()) return; /* another part's problem (--part) */
    if (!testing_have_gpu() || !g_queue) {
        for (int v = 0; v < V_COUNT; v++)
            if (variants & VB(v)) {
                const testing_result_t r = testing_have_gpu() ? TESTING_FAILED : TESTING_SKIPPED;
                printf("  %5lld %6lld %4lld %-11s %-7s %s  %s\n", (long long)m, (long long)n,
                       (long long)nrhs, variant_name[v], kind_name[kind],
                       testing_have_gpu() ? "(no queue)" : "(no GPU)", testing_result_name(r));
                testing_record(r);
            }
        return;
    }
    problem_t p;
    memset(&p, 0, sizeof p);
    p.m = m; p.n = n; p.nrhs = nrhs; p.kind = kind;
    p.lda = max64(1, m + pads->a);
    p.ldb = max64(1, n + pads->b);
    p.err_dwls = NAN;
    generate(&p, 0x5eed0000ull + 1000003ull * (uint64_t)m + 7919ull * (uint64_t)n +
                     101ull * (uint64_t)kind + (uint64_t)nrhs,
             (variants & V_SINGLE) != 0);
    if (compute_references(&p, 1)) {
        printf("  reference computation failed for m=%lld n=%lld\n", (long long)m, (long long)n);
        testing_record(TESTING_FAILED);
        problem_free(&p);
        return;
    }
    for (int v = 0; v < V_COUNT; v++)
        if (variants & VB(v)) {
            if (is_single((variant_t)v) && !kind_fits_single(kind)) continue;
            run_variant(&p, (variant_t)v, pads);
        }
    problem_free(&p);
}

#include "wls_badargs.h"

#include "wls_suite.h"

#include "wls_table.h"

int main(int argc, char **argv)
{
    static const int kind_values[] = { K_WELL, K_SPREAD, K_NOD };
    testing_list_t ms = { NULL, 0 }, ns = { NULL, 0 };
    int64_t nrhs = 1;
    int suite = 0, quick = 0, niter = 3, kind = K_WELL;
    const char *part = NULL;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "the suite with fewer cases (the sanitizers)"),
        OPT("--part", OPT_STRING, &part, "I/K", "the suite's problems i with i mod K = I only"),
        OPT("-m", OPT_LIST, &ms, "LIST", "table: m (default 1000,2000,4000)",
            .def = "1000,2000,4000"),
        OPT("-n", OPT_LIST, &ns, "LIST", "table: n (default 10000,20000,40000); lists of equal "
            "length\nare paired, a single value goes with each of the other",
            .def = "10000,20000,40000"),
        OPT("--nrhs", OPT_INT64, &nrhs, "K", "table: right-hand sides (default 1)", OPT_MIN(1)),
        OPT("--niter", OPT_INT, &niter, "K", "table: timed runs, median reported (default 3)",
            OPT_MIN(1)),
        OPT("--weights", OPT_CHOICE, &kind, "W", "table: d uniform in [0.5, 2], spread over "
            "1e-3..1e3, or none\n(d = NULL): uniform|spread|none (default uniform)",
            .choices = "uniform|spread|none", .values = kind_values),
        OPT_END
    };
    const opts_program_t prog = { "[--suite [--quick] | table options]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    if (part && testing_parse_part(part) != 0)
        opts_fail(argv[0], opts, &prog, "--part %s: want I/K with 0 <= I < K", part);
    if (ms.count != ns.count && ms.count != 1 && ns.count != 1)
        opts_fail(argv[0], opts, &prog, "-m and -n lists differ in length (%lld, %lld)",
                  (long long)ms.count, (long long)ns.count);
    LAPACKE_set_nancheck(0); /* inputs are NaN outside what is read */
    g_queue = testing_queue_or_null();
    if (suite || quick)
        run_suite(quick);
    else
        run_table(ms.v, ms.count, ns.v, ns.count, nrhs, (kind_t)kind, niter);
    if (g_queue) gchol_queue_destroy(g_queue);
    if (testing_have_gpu()) gchol_finalize();
    opts_free_list(&ms);
    opts_free_list(&ns);
    return testing_summary();
}
