/*
 * testing_partial.c -- what gchol's factorizations leave where a pivot is
 * special or fails, next to LAPACK on the same input, double and single
 * precision in one binary:
 *   inf_diag  A(k,k) = +Inf in a well-conditioned SPD matrix: info as
 *             reference LAPACK's (0), L(k,k) = +Inf, the rest of column k of
 *             L zero, every other entry of the factor within 30 n eps of
 *             LAPACKE_?potrf's on the same input (Inf and NaN where it has
 *             them), the other triangle and the padding untouched;
 *   nan_diag  A(k,k) = NaN: info = k as reference LAPACK's (OpenBLAS's
 *             LAPACKE, printed beside it, does not test for NaN), and
 *             columns 1..k-1 as for `partial` (lead, covered);
 *   partial   a matrix whose leading minor of order k is the first that is
 *             not positive definite: A(k,k) = s/2, s = sum_{j<k} L(k,j)^2,
 *             so that the pivot is -s/2 while A(k,k) > 0 (k = 1: A(1,1) = 0);
 *             k in the first tile or block, at tile and block boundaries,
 *             deep in a later block. Passes with info = k = LAPACKE's, and
 *               - the leading (k-1) x (k-1) block the Cholesky factor of
 *                 A(1:k-1,1:k-1) (LAPACKE_dpotrf of it), within 30 n eps
 *                 ("lead");
 *               - the rest of columns 1..k-1, A(k:n,1:k-1) L11^{-T}
 *                 ("covered"); pftrf failing in its first block (k <= n1)
 *                 only down to row n1, as LAPACK's pftrf then leaves L21
 *                 unsolved ("below" prints all rows);
 *               - A(k,k) the failed pivot a_kk - s (reference LAPACK's
 *                 potf2 leaves it there), within 30 n eps s;
 *               - potrf: the other triangle and the padding untouched.
 *             Printed, not checked: the entries of columns k..n (A(k,k)
 *             apart) that changed or are not finite.
 * Forms as in testing_special.c: the tiled kernel, the left- and
 * right-looking drivers (expert, nb 256), the host form, pftrf (four steps,
 * fused, host); the full suite adds the automatic blocked driver and the host
 * form at d 5000, s 7000-8000.
 *
 *   testing_partial [--suite] [--quick] [--prec ds]
 *
 * Without a GPU every case is reported skipped. Ends with the SUMMARY line.
 */
#include "special.h"

#define TOL TESTING_TOL
enum { V_AUTO = GCHOL_VARIANT_AUTO, V_LEFT = GCHOL_VARIANT_LEFT, V_RIGHT = GCHOL_VARIANT_RIGHT };

/* A case and its columns k (1-based; 0 ends the list; in the diagonal cases
 * k > 0 puts +Inf at A(k,k), k < 0 NaN at A(-k,-k)). */
typedef struct {
    sp_case_t c;
    int64_t   k[7];
} kcase_t;

static double factor_tol(char p, int64_t n) { return TOL * (double)n * testing_eps(p); }

/* Element (i, j), i >= j, of the lower view of R (double, ld n). */
static double r_at(char uplo, const double *R, int64_t n, int64_t i, int64_t j)
{
    return uplo == 'L' ? R[i + j * n] : R[j + i * n];
}

/* Entries of the triangle where L and G (both precision p) disagree: one
 * NaN and not the other, different infinities, or finite and further apart
 * than tol * max |G|; *rel: the largest finite difference over max |G|. */
static int64_t special_diff(char p, char uplo, int64_t n, const void *L, const void *G,
                            int64_t lda, double tol, double *rel)
{
    double maxd = 0, maxg = 0;
    int64_t bad = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = j; i < n; i++) {
            const double a = sp_at(p, uplo, L, lda, i, j), b = sp_at(p, uplo, G, lda, i, j);
            if (isnan(a) || isnan(b)) bad += !(isnan(a) && isnan(b));
            else if (isinf(a) || isinf(b)) bad += a != b;
            else {
                maxd = fmax(maxd, fabs(a - b));
                maxg = fmax(maxg, fabs(b));
            }
        }
    *rel = maxd / (maxg > 0 ? maxg : 1);
    return bad + (*rel > tol);
}

/* Column k (0-based) of L's lower view below the diagonal: entries that are
 * not zero, and not finite. */
static void column_below(char p, char uplo, int64_t n, const void *L, int64_t lda, int64_t k,
                         int64_t *nonzero, int64_t *nonfinite)
{
    *nonzero = *nonfinite = 0;
    for (int64_t i = k + 1; i < n; i++) {
        const double v = sp_at(p, uplo, L, lda, i, k);
        *nonzero += v != 0;
        *nonfinite += !isfinite(v);
    }
}

/* max |L - R| / max |R| over columns 0..k-2 and rows j..m-1 of the lower
 * view (for 'U': rows 0..k-2 of U, columns up to m-1); NaN if L has NaN. */
static double view_diff(char p, char uplo, int64_t m, int64_t k, const void *L, int64_t lda,
                        const double *R, int64_t n)
{
    double maxd = 0, maxr = 0;
    for (int64_t j = 0; j < k - 1; j++)
        for (int64_t i = j; i < m; i++) {
            const double r = r_at(uplo, R, n, i, j), dd = fabs(sp_at(p, uplo, L, lda, i, j) - r);
            if (isnan(dd)) return NAN;
            maxd = fmax(maxd, dd);
            maxr = fmax(maxr, fabs(r));
        }
    return maxd / (maxr > 0 ? maxr : 1);
}

/* Columns 1..k-1 of the result (in the lower view) against R
 * (testing_reference_factor): the leading block, the whole columns, and
 * the rows the case guarantees (pftrf failing in its first block, k <= n1:
 * rows up to n1, as LAPACK's pftrf leaves L21 unsolved then; else all). */
static void partial_diffs(const sp_case_t *c, int64_t k, const void *L, const double *R,
                          double *lead, double *below, double *covered)
{
    const char p = c->prec, u = c->uplo;
    const int64_t n = c->n, lda = sp_lda(c);
    const int64_t n1 = gchol_rfp_blocks(c->transr == 'T', u == 'U', n).n1;
    *lead = view_diff(p, u, k - 1, k, L, lda, R, n);
    *below = view_diff(p, u, n, k, L, lda, R, n);
    *covered = sp_rfp(c) && k <= n1 ? view_diff(p, u, n1, k, L, lda, R, n) : *below;
}

/* ===========================================================================
 * Inf and NaN on the diagonal.
 * ========================================================================= */
static void run_diag(const sp_case_t *c, int64_t kk)
{
    const int nan_case = kk < 0;
    const int64_t k = nan_case ? -kk : kk;
    char d[96], what[32];
    sp_desc(c, d, sizeof d);
    snprintf(what, sizeof what, "%s k=%-5lld", nan_case ? "nan_diag" : "inf_diag", (long long)k);
    if (sp_skip(d, what)) return;
    const char p = c->prec, u = c->uplo;
    const int64_t n = c->n, lda = sp_lda(c);
    const size_t bytes = sp_bytes(c);
    const double tol = factor_tol(p, n);
    void *A = sp_matrix(c, 1.0, 0xD1A6 + (uint64_t)(n + k)), *L = malloc(bytes), *G = malloc(bytes);
    double *R = malloc((size_t)(n * n) * sizeof(double)), rel = NAN, lead = NAN, below = NAN;
    double covered = NAN;
    int64_t info = 0, ret = SP_HARNESS, rinfo = -1, ginfo = -1, mism = -1, outside = -1;
    int64_t nonzero = -1, nonfinite = -1;
    double lkk = NAN, gkk = NAN;
    int ok = 0;
    if (A && L && G && R) {
        sp_set(p, u, A, lda, k - 1, k - 1, nan_case ? NAN : INFINITY);
        memcpy(L, A, bytes);
        memcpy(G, A, bytes);
        ret = sp_factor(c, L, lda, &info);
        rinfo = testing_reference_info(p, u, n, A, lda);
        ginfo = p == 's' ? LAPACKE_spotrf(LAPACK_COL_MAJOR, u, (lapack_int)n, G, (lapack_int)lda)
                         : LAPACKE_dpotrf(LAPACK_COL_MAJOR, u, (lapack_int)n, G, (lapack_int)lda);
        lkk = sp_at(p, u, L, lda, k - 1, k - 1);
        gkk = sp_at(p, u, G, lda, k - 1, k - 1);
        column_below(p, u, n, L, lda, k - 1, &nonzero, &nonfinite);
        outside = sp_rfp(c) ? 0 : testing_count_untouched_violations(p, u, n, L, A, lda);
        ok = ret != SP_HARNESS && ret == info && info == rinfo && outside == 0;
        if (!nan_case) {
            mism = special_diff(p, u, n, L, G, lda, tol, &rel);
            ok = ok && info == 0 && lkk == INFINITY && nonzero == 0 && mism == 0;
        } else if (testing_reference_factor(p, u, n, k - 1, A, lda, R, n) == 0) {
            partial_diffs(c, k, L, R, &lead, &below, &covered);
            ok = ok && info == k && lead <= tol && covered <= tol;
        } else {
            ok = 0;
        }
    }
    if (!nan_case)
        testing_expect(ok, "%s %s info %lld (ref %lld, openblas %lld)  L(k,k) %g (openblas %g)  "
                       "col k below: nonzero %lld nonfinite %lld  vs openblas: %lld mismatches, "
                       "rel %.1e  outside %lld",
                       d, what, (long long)info, (long long)rinfo, (long long)ginfo, lkk, gkk,
                       (long long)nonzero, (long long)nonfinite, (long long)mism, rel,
                       (long long)outside);
    else
        testing_expect(ok, "%s %s info %lld (ref %lld, openblas %lld)  A(k,k) %g  lead %.1e "
                       "covered %.1e below %.1e  col k below: nonfinite %lld  outside %lld",
                       d, what, (long long)info, (long long)rinfo, (long long)ginfo, lkk, lead,
                       covered, below, (long long)nonfinite, (long long)outside);
    free(A); free(L); free(G); free(R);
}

/* ===========================================================================
 * The partial factor after info = k.
 * ========================================================================= */
static void run_partial(const sp_case_t *c, int64_t k)
{
    char d[96], what[32];
    sp_desc(c, d, sizeof d);
    snprintf(what, sizeof what, "partial  k=%-5lld", (long long)k);
    if (sp_skip(d, what)) return;
    const char p = c->prec, u = c->uplo;
    const int64_t n = c->n, lda = sp_lda(c);
    const size_t bytes = sp_bytes(c), es = testing_elsize(p);
    const double tol = factor_tol(p, n);
    void *A = sp_matrix(c, 1.0, 0x9A27 + (uint64_t)(n + k)), *L = malloc(bytes);
    double *R = malloc((size_t)(n * n) * sizeof(double)), lead = NAN, below = NAN;
    double covered = NAN, sigma = 0, pivot_ref = NAN, piv = NAN;
    int64_t info = 0, ret = SP_HARNESS, linfo = -1, outside = -1, changed = 0, nonfinite = 0;
    int ok = 0;
    if (A && L && R && testing_reference_factor(p, u, n, k - 1, A, lda, R, n) == 0) {
        /* A(k,k) does not enter columns 1..k-1: R stays the reference */
        for (int64_t j = 0; j < k - 1; j++) sigma += r_at(u, R, n, k - 1, j) * r_at(u, R, n, k - 1, j);
        sp_set(p, u, A, lda, k - 1, k - 1, sigma / 2);
        pivot_ref = sp_at(p, u, A, lda, k - 1, k - 1) - sigma;
        memcpy(L, A, bytes);
        ret = sp_factor(c, L, lda, &info);
        linfo = testing_lapacke_info(p, u, n, A, lda);
        partial_diffs(c, k, L, R, &lead, &below, &covered);
        piv = sp_at(p, u, L, lda, k - 1, k - 1);
        for (int64_t j = k - 1; j < n; j++)
            for (int64_t i = j; i < n; i++) {
                if (i == k - 1 && j == k - 1) continue;
                const int64_t r = u == 'L' ? i : j, s = u == 'L' ? j : i;
                changed += memcmp((const char *)L + (size_t)(r + s * lda) * es,
                                  (const char *)A + (size_t)(r + s * lda) * es, es) != 0;
                nonfinite += !isfinite(sp_at(p, u, L, lda, i, j));
            }
        outside = sp_rfp(c) ? 0 : testing_count_untouched_violations(p, u, n, L, A, lda);
        ok = ret != SP_HARNESS && ret == info && info == k && linfo == k && lead <= tol &&
             covered <= tol && fabs(piv - pivot_ref) <= TOL * n * testing_eps(p) * sigma &&
             outside == 0;
    }
    testing_expect(ok, "%s %s info %lld (lapack %lld)  lead %.1e  covered %.1e  below %.1e  "
                   "pivot %.4e (ref %.4e)  rest: changed %lld nonfinite %lld  outside %lld",
                   d, what, (long long)info, (long long)linfo, lead, covered, below, piv, pivot_ref,
                   (long long)changed, (long long)nonfinite, (long long)outside);
    free(A); free(L); free(R);
}

/* ===========================================================================
 * The suite of one precision.
 * ========================================================================= */
static void run(char p, int quick)
{
    const int64_t big = p == 'd' ? 5000 : 8000, bigh = p == 'd' ? 5000 : 7000;
    /* Inf (k > 0) and NaN (k < 0) pivots */
    const kcase_t diag[] = {
        { { p, 'L', 'N', F_GPU, V_AUTO, 0, 500 }, { 1, 200, -300, 500 } },
        { { p, 'U', 'N', F_GPU, V_AUTO, 0, 500 }, { 65, -1 } },
        { { p, 'L', 'N', F_EXPERT, V_LEFT, 256, 1000 }, { 256, 257, -700 } },
        { { p, 'U', 'N', F_EXPERT, V_RIGHT, 256, 1000 }, { 300, -257 } },
        { { p, 'L', 'N', F_HOST, V_AUTO, 0, 600 }, { 100, -550 } },
        { { p, 'L', 'N', F_RFP, V_AUTO, 0, 501 }, { 100, 400, -300 } },
        { { p, 'U', 'T', F_RFP, V_LEFT, 256, 800 }, { 600, -200 } },
        { { p, 'U', 'N', F_RFP_HOST, V_AUTO, 0, 400 }, { 50, -390 } },
        /* full suite: the automatic blocked driver ('U' in single swaps the
         * triangles), the host form beside it */
        { { p, 'U', 'N', F_GPU, V_AUTO, 0, big }, { 1025, -3000 } },
        { { p, 'L', 'N', F_GPU, V_AUTO, 0, big }, { 2000 } },
        { { p, 'L', 'N', F_HOST, V_AUTO, 0, bigh }, { 2500 } },
    };
    /* k in the first tile or block, at tile (64), inner-block (8) and
     * block (nb 256; 1024 at the larger orders) boundaries, and late;
     * pftrf on either side of its split n1 (501 for 1001 'L', 500 for
     * 1000 'U') */
    const kcase_t partial[] = {
        { { p, 'L', 'N', F_GPU, V_AUTO, 0, 1000 }, { 1, 40, 64, 65, 640, 1000 } },
        { { p, 'U', 'N', F_GPU, V_AUTO, 0, 1000 }, { 8, 9, 129, 999 } },
        { { p, 'L', 'N', F_EXPERT, V_LEFT, 256, 1100 }, { 100, 256, 257, 1000 } },
        { { p, 'U', 'N', F_EXPERT, V_LEFT, 256, 1100 }, { 129, 769 } },
        { { p, 'L', 'N', F_EXPERT, V_RIGHT, 256, 1100 }, { 256, 257, 1050 } },
        { { p, 'U', 'N', F_EXPERT, V_RIGHT, 256, 1100 }, { 300 } },
        { { p, 'L', 'N', F_HOST, V_AUTO, 0, 800 }, { 64, 500 } },
        { { p, 'U', 'N', F_HOST, V_AUTO, 0, 800 }, { 700 } },
        { { p, 'L', 'N', F_RFP, V_AUTO, 0, 1001 }, { 200, 501, 502, 900 } },
        { { p, 'U', 'T', F_RFP, V_AUTO, 0, 1000 }, { 300, 500, 501, 800 } },
        { { p, 'L', 'T', F_RFP, V_LEFT, 256, 1000 }, { 300, 700 } },
        { { p, 'U', 'N', F_RFP, V_LEFT, 256, 1000 }, { 300, 700 } },
        { { p, 'U', 'N', F_RFP_HOST, V_AUTO, 0, 600 }, { 100, 400 } },
        /* full suite */
        { { p, 'L', 'N', F_GPU, V_AUTO, 0, big }, { 1024, 1025, p == 'd' ? 4500 : 7000 } },
        { { p, 'U', 'N', F_GPU, V_AUTO, 0, big }, { 1025, big - 1 } },
        { { p, 'L', 'N', F_HOST, V_AUTO, 0, bigh }, { 2049 } },
    };
    printf("\n-- %s: Inf and NaN pivots --\n", testing_prec_name(p));
    for (int i = 0; i < TESTING_LEN(diag); i++)
        for (int j = 0; diag[i].k[j] && !(quick && (i >= 8 || j >= 2)); j++)
            run_diag(&diag[i].c, diag[i].k[j]);
    printf("\n-- %s: the partial factor after info = k --\n", testing_prec_name(p));
    for (int i = 0; i < TESTING_LEN(partial); i++)
        for (int j = 0; partial[i].k[j] && !(quick && (i >= 13 || j >= 2)); j++)
            run_partial(&partial[i].c, partial[i].k[j]);
}

int main(int argc, char **argv) { return sp_main(argc, argv, "partial", run); }
