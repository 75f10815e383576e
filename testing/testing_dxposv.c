/*
 * testing_dxposv.c -- tests gchol_dxposv_gpu (gchol_mixed.h): A X = B in
 * double from a factor on the precision ladder (FP16, BF16, TF32, FP32),
 * refined by IR or GMRES-IR, escalating to double.
 *
 *   testing_dxposv [--suite | --quick]
 *
 * Matrices: SPD with a prescribed condition number kappa = 1e1 .. 1e14
 * (testing_generate_cond_spd), the same scaled two-sidedly by a diagonal
 * spanning 1e-8 .. 1e8, scaled by 1e6 (entries beyond FP16's range), not
 * positive definite at column k, NaN on the diagonal, NaN in B. Checks, as
 * LAPACK's ddrvac: RESID = max_j ||b_j - A x_j||_inf / (||A||_inf ||x_j||_inf
 * eps), formed on the CPU, < sqrt(n) when a refinement answered (iter >= 0),
 * < 30 after the double fallback; info as the reference potrf's (NaN
 * included); A byte for byte unchanged unless the double fallback answered,
 * then its referenced triangle a factor and the rest untouched; B untouched;
 * X's padding rows untouched; kappa <= 1e3 ends on the first rung. The FP16
 * and BF16 rungs also with their panels through the inverted diagonal
 * blocks, with strsv solves, and with the lookahead (the test hooks); the
 * one-column residual and A z by cuBLAS dsymv instead of gchol's symv
 * kernel (the hook xposv_symv). Also the argument checks (on any machine).
 *
 * TESTING_TILED_HELPER=0 (or 1) runs every case with the tiled kernel's
 * cluster helper off (on), whatever the tuning table says.
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include <lapacke.h>

#include "gchol.h"
#include "argcheck.h"
#include "util.h"
#include "gchol_mixed.h"
#include "../src/queue.h"
#include "../src/test_hooks.h"

#define INFO_POISON TESTING_INFO_POISON
#define LEN(a)      TESTING_LEN(a)

static gchol_queue_t g_queue;

/* The hooks every case runs under: the automatic ladder without its time
 * limit (each rung refines as long as the engine's rules let it, so that
 * where it ends depends on the matrix, not on the GPU's speed; cases with
 * `time` set run under the limit); TESTING_TILED_HELPER=0 (or 1) runs the
 * tiled kernel without (with) its cluster helper, for the sanitizers. */
static gchol_test_hooks_t g_base_hooks = { .xposv_auto_time = 1, .xposv_auto_lowp_from_n = -1 };

/* A section's hooks on top of the base ones (NULL: the base alone). */
static void set_hooks(const gchol_test_hooks_t *h)
{
    gchol_test_hooks_t m = h ? *h : g_base_hooks;
    if (m.tiled_cluster_helper == 0) m.tiled_cluster_helper = g_base_hooks.tiled_cluster_helper;
    if (m.xposv_auto_time == 0) m.xposv_auto_time = g_base_hooks.xposv_auto_time;
    if (m.xposv_auto_lowp_from_n == 0) m.xposv_auto_lowp_from_n = g_base_hooks.xposv_auto_lowp_from_n;
    gchol_test_hooks_set(&m);
}

static const char *prec_name[] = { "auto", "fp16", "bf16", "tf32", "fp32", "fp64" };
static const char *refine_name[] = { "auto", "ir", "gmres" };

typedef enum { K_COND, K_SCALED, K_BIG, K_NEG, K_NAN_A, K_NAN_B, K_INDEF } kind_t;
static const char *kind_name[] = { "cond", "scaled", "big", "neg", "nan_A", "nan_B", "indef" };

typedef struct {
    char    uplo;
    int64_t n, nrhs;
    kind_t  kind;
    double  kappa;
    int     factor, refine, no_fallback;
    int     host;   /* gchol_dxposv on host arrays */
} xcase_t;

/* The next cases' xposv_auto_time hook (tune.c): -1 the base hooks' (1, no
 * limit), 2 no time at all (FP16 factors, then double answers), 0 the
 * table's limit. */
static int g_time = -1;

/* The next cases' xposv_auto_lowp_from_n hook (tune.c): 0 the base hooks'
 * (-1, FP16 first at every n), > 0 the automatic ladder's crossover: below
 * it the double solve at once (iter -1). */
static int64_t g_lowp_from = 0;

/* 1 while a section that is one case of --part runs its cases together */
static int g_all_parts = 0;

/* A (lda x n, NaN padding rows; only the uplo triangle is read) and B0. */
static int make_problem(const xcase_t *c, double *A, int64_t lda, double *B0, int64_t ldb)
{
    const int64_t n = c->n;
    testing_fill_nan('d', lda * n, A);
    if (testing_generate_cond_spd('d', n, A, lda, c->kappa, 29 + (uint64_t)n)) return -1;
    if (c->kind == K_SCALED || c->kind == K_BIG)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < n; i++) {
                /* d_i from 1e-8 to 1e8 along i, shuffled by a hash */
                const double ui = testing_hash_uniform(5, i, 0), uj = testing_hash_uniform(5, j, 0);
                A[i + j * lda] *= c->kind == K_BIG ? 1e6 : pow(10.0, 8 * ui) * pow(10.0, 8 * uj);
            }
    const int64_t k = n / 2;
    if (c->kind == K_NEG) A[k + k * lda] = -1.0;
    if (c->kind == K_NAN_A) A[k + k * lda] = NAN;
    if (c->kind == K_INDEF) /* a positive diagonal, an indefinite 2 x 2 principal block */
        A[k + (k - 1) * lda] = A[k - 1 + k * lda] = 2 * sqrt(A[k + k * lda] * A[k - 1 + (k - 1) * lda]);
    testing_generate_rhs('d', n, c->nrhs, B0, ldb, 53 + (uint64_t)n);
    if (c->kind == K_NAN_B) B0[n / 3] = NAN; /* column 0 */
    return 0;
}

static testing_result_t run_case(const xcase_t *c)
{
    if (!g_all_parts && !testing_case_in_part())
        return TESTING_SKIPPED; /* another part's (--part), not counted */
    const int64_t n = c->n, nrhs = c->nrhs, lda = n + 1, ldb = n + 2, ldx = n + 3;
    char why[200] = "";
    double resid = NAN;
    int64_t info = INFO_POISON, ret = INFO_POISON;
    gchol_xposv_result_t res = { INFO_POISON, -1, 0, 0, 0 };
    testing_result_t out = TESTING_FAILED;
    char label[120];
    snprintf(label, sizeof label, "dxposv%s %c n=%-5lld nrhs=%lld %-6s kappa %.0e %s/%s%s",
             c->host ? "    " : "_gpu", c->uplo, (long long)n, (long long)nrhs, kind_name[c->kind],
             c->kappa, prec_name[c->factor], refine_name[c->refine],
             c->no_fallback ? " no-fallback" : "");
    if (!testing_have_gpu()) {
        printf("  skipped %s (no GPU)\n", label);
        return testing_record(TESTING_SKIPPED);
    }
    double *A0 = testing_malloc((size_t)(lda * n) * 8), *A = testing_malloc((size_t)(lda * n) * 8);
    double *B0 = testing_malloc((size_t)(ldb * nrhs) * 8), *B = testing_malloc((size_t)(ldb * nrhs) * 8);
    double *X = testing_malloc((size_t)(ldx * nrhs) * 8), *X0 = testing_malloc((size_t)(ldx * nrhs) * 8);
    double *dA = NULL, *dB = NULL, *dX = NULL;
    if (make_problem(c, A0, lda, B0, ldb)) { snprintf(why, sizeof why, "out of memory"); goto done; }
    testing_fill_nan('d', ldx * nrhs, X0);
    const gchol_xposv_options_t o = { c->factor, c->refine, 0, 0, 0, c->no_fallback };
    if (g_time >= 0 || g_lowp_from > 0) {
        gchol_test_hooks_t h = g_base_hooks;
        if (g_time >= 0) h.xposv_auto_time = g_time;
        if (g_lowp_from > 0) h.xposv_auto_lowp_from_n = g_lowp_from;
        gchol_test_hooks_set(&h);
    }
    /* below the crossover the automatic ladder answers in double at once */
    const int at_once = g_lowp_from > 0 && c->factor == GCHOL_XPREC_AUTO && n < g_lowp_from;
    if (c->host) {
        memcpy(A, A0, (size_t)(lda * n) * 8);
        memcpy(B, B0, (size_t)(ldb * nrhs) * 8);
        memcpy(X, X0, (size_t)(ldx * nrhs) * 8);
        ret = gchol_dxposv(c->uplo, n, nrhs, A, lda, B, ldb, X, ldx, &o, &res, &info);
    } else {
        if (!(dA = testing_upload(A0, (size_t)(lda * n) * 8)) ||
            !(dB = testing_upload(B0, (size_t)(ldb * nrhs) * 8)) ||
            !(dX = testing_upload(X0, (size_t)(ldx * nrhs) * 8)))
            goto done;
        ret = gchol_dxposv_gpu(c->uplo, n, nrhs, dA, lda, dB, ldb, dX, ldx, &o, &res, &info, g_queue);
        if (testing_download(A, dA, (size_t)(lda * n) * 8) ||
            testing_download(B, dB, (size_t)(ldb * nrhs) * 8) ||
            testing_download(X, dX, (size_t)(ldx * nrhs) * 8))
            goto done;
    }

    const int64_t want_info = testing_reference_info('d', c->uplo, n, A0, lda);
    const int refined = res.iter >= 0 && res.prec != GCHOL_XPREC_FP64;
    int64_t bad_b = testing_count_diff('d', ldb * nrhs, B, B0), bad_pad = 0, bad_a = 0, x0_nan = 0;
    for (int64_t j = 0; j < nrhs; j++)
        bad_pad += testing_count_diff('d', ldx - n, X + j * ldx + n, X0 + j * ldx + n);
    bad_a = res.prec != GCHOL_XPREC_FP64 ? testing_count_diff('d', lda * n, A, A0)
                                         : testing_count_untouched_violations('d', c->uplo, n, A, A0, lda);
    if (c->kind == K_NAN_B) {
        for (int64_t i = 0; i < n; i++) x0_nan += !isfinite(X[i]);
        /* the clean columns */
        if (nrhs > 1)
            resid = testing_solve_ratio('d', c->uplo, n, nrhs - 1, A0, lda, B0 + ldb, ldb, X + ldx, ldx) /
                    testing_eps('d');
    } else if (want_info == 0) {
        resid = testing_solve_ratio('d', c->uplo, n, nrhs, A0, lda, B0, ldb, X, ldx) / testing_eps('d');
    }
    const double limit = refined ? sqrt((double)n) : TESTING_TOL;
    if (ret != info) snprintf(why, sizeof why, "return %lld != info %lld", (long long)ret, (long long)info);
    else if (info != want_info) snprintf(why, sizeof why, "info %lld, reference %lld", (long long)info, (long long)want_info);
    else if (bad_b) snprintf(why, sizeof why, "B written (%lld)", (long long)bad_b);
    else if (bad_pad) snprintf(why, sizeof why, "X padding written (%lld)", (long long)bad_pad);
    else if (bad_a) snprintf(why, sizeof why, "A %s (%lld)", res.prec != GCHOL_XPREC_FP64 ? "changed" : "outside the factor written", (long long)bad_a);
    else if (c->no_fallback && res.prec == GCHOL_XPREC_FP64) snprintf(why, sizeof why, "fell back with no_fallback");
    else if (c->kind == K_NAN_B && x0_nan != n) snprintf(why, sizeof why, "NaN in b: %lld of x's %lld entries not finite", (long long)x0_nan, (long long)n);
    else if (want_info == 0 && !(c->no_fallback && res.iter < 0) && !(nrhs == 1 && c->kind == K_NAN_B) &&
             !(resid < limit))
        snprintf(why, sizeof why, "RESID %.2e >= %.2f", resid, limit);
    else if (g_time == 2 && n > 16 && want_info == 0 &&
             !(res.prec == GCHOL_XPREC_FP64 && res.iter == -31))
        snprintf(why, sizeof why, "no time below double: ended on %s, iter %lld, not double, -31",
                 prec_name[res.prec], (long long)res.iter);
    else if (at_once && n > 16 && c->kind == K_COND &&
             !(res.prec == GCHOL_XPREC_FP64 && res.iter == -1 && res.host_syncs == 2))
        snprintf(why, sizeof why, "below the crossover: ended on %s, iter %lld, syncs %lld, not "
                 "double at once", prec_name[res.prec], (long long)res.iter, (long long)res.host_syncs);
    else if (((c->factor == GCHOL_XPREC_FP16 && c->kappa <= 1e3) ||
              (c->factor == GCHOL_XPREC_BF16 && c->kappa <= 1e2)) &&
             c->kind == K_COND && c->refine != GCHOL_XREFINE_IR && !c->no_fallback && n > 16 &&
             res.prec != c->factor)
        /* well within the rung's reach: its own answer, not the next rung's */
        snprintf(why, sizeof why, "%s asked for at kappa %.0e: ended on %s", prec_name[c->factor],
                 c->kappa, prec_name[res.prec]);
    else if (g_time < 0 && !at_once && c->kind == K_COND && c->kappa <= 1e3 &&
             c->factor == GCHOL_XPREC_AUTO && n > 16 && res.prec != GCHOL_XPREC_FP16)
        snprintf(why, sizeof why, "kappa %.0e ended on %s, not fp16", c->kappa, prec_name[res.prec]);
    else if (n <= 16 && !(res.prec == GCHOL_XPREC_FP64 && res.iter == -1))
        snprintf(why, sizeof why, "n <= 16 ended on %s, iter %lld, not double at once", prec_name[res.prec], (long long)res.iter);
    else if (nrhs == 1 && refined && res.inner == 0 && res.host_syncs < res.iter + 4)
        /* at least the norms, S's check, the factorization and iter + 1 residuals */
        snprintf(why, sizeof why, "host_syncs %lld < iter + 4", (long long)res.host_syncs);
    else if (n <= 16 && res.host_syncs != (info == 0 ? 2 : 1))
        snprintf(why, sizeof why, "n <= 16: host_syncs %lld, not the double solve's", (long long)res.host_syncs);
    else out = TESTING_PASSED;
done:
    printf("  %-7s %s: info %lld iter %lld on %s, inner %lld, syncs %lld, berr %.2e, RESID %.2e %s\n",
           testing_result_name(out), label, (long long)info, (long long)res.iter,
           res.prec >= 0 && res.prec <= GCHOL_XPREC_FP64 ? prec_name[res.prec] : "?",
           (long long)res.inner, (long long)res.host_syncs, res.berr, resid, why);
    if (dA) cudaFree(dA);
    if (dB) cudaFree(dB);
    if (dX) cudaFree(dX);
    free(A0); free(A); free(B0); free(B); free(X); free(X0);
    if (g_time >= 0 || g_lowp_from > 0) set_hooks(NULL);
    return testing_record(out);
}

/* ===========================================================================
 * Argument checks (argcheck.h): res is the iter role, opts the options role
 * (the checker's illegal options, variant 99, become an illegal factor).
 * ========================================================================= */
static int64_t dxposv_w(const testing_args_t *a)
{
    static const gchol_xposv_options_t good, bad = { 99, 0, 0, 0, 0, 0 };
    gchol_xposv_result_t res;
    const gchol_xposv_options_t *o = a->opts ? (a->opts->variant == 99 ? &bad : &good) : NULL;
    return gchol_dxposv_gpu(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                            a->ldc, (double *)a->X, a->ldx, o, a->iter ? &res : NULL, a->info, a->q);
}

static int64_t dxposv_host_w(const testing_args_t *a)
{
    static const gchol_xposv_options_t good, bad = { 99, 0, 0, 0, 0, 0 };
    gchol_xposv_result_t res;
    const gchol_xposv_options_t *o = a->opts ? (a->opts->variant == 99 ? &bad : &good) : NULL;
    return gchol_dxposv(a->uplo, a->n, a->nrhs, (double *)a->A, a->ld, (const double *)a->C,
                        a->ldc, (double *)a->X, a->ldx, o, a->iter ? &res : NULL, a->info);
}

static const testing_entry_t arg_entries[] = {
    { "gchol_dxposv_gpu", dxposv_w, 0, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_OPTS, R_ITER, R_INFO, R_QUEUE } },
    { "gchol_dxposv", dxposv_host_w, 1, 1, 0,
      { R_UPLO, R_N, R_NRHS, R_A, R_LD, R_C, R_LDC, R_X, R_LDX, R_OPTS, R_ITER, R_INFO } },
};

static void run_suite(int quick)
{
    printf("\n-- the ladder on the condition number (auto) --\n");
    const double kappas[] = { 1e1, 1e3, 1e6, 1e10, 1e14 };
    const int64_t ns[] = { 300, 2000, 6000 };
    for (int u = 0; u < 2; u++)
        for (int i = 0; i < LEN(ns); i++)
            for (int k = 0; k < LEN(kappas); k++) {
                if ((quick && ns[i] > 300) || (u && ns[i] > 2000)) continue;
                const xcase_t c = { u ? 'U' : 'L', ns[i], (k % 2) ? 3 : 1, K_COND, kappas[k], 0, 0, 0, 0 };
                run_case(&c);
            }
    printf("\n-- every rung and refinement, kappa 1e3 --\n");
    for (int f = GCHOL_XPREC_FP16; f <= GCHOL_XPREC_FP64; f++)
        for (int r = GCHOL_XREFINE_IR; r <= GCHOL_XREFINE_GMRES; r++) {
            const xcase_t c = { f % 2 ? 'L' : 'U', quick ? 200 : 700, 2, K_COND, 1e3, f, r, 0, 0 };
            run_case(&c);
        }
    printf("\n-- FP16 and BF16 over several blocks, a partial last block --\n");
    for (int f = GCHOL_XPREC_FP16; f <= GCHOL_XPREC_BF16; f++)
        for (int r = GCHOL_XREFINE_IR; r <= GCHOL_XREFINE_GMRES; r++)
            for (int u = 0; u < 2; u++) {
                const xcase_t c = { u ? 'U' : 'L', quick ? 1500 : 2500, 2, K_COND, 1e2, f, r, 0, 0 };
                run_case(&c);
            }
    printf("\n-- the FP16 / BF16 forms: panels through the inverted diagonal blocks (TF32, "
           "single or FP16 / BF16 products), and the solves by strsv instead of the inverses "
           "(block size 256 and 384) --\n");
    for (int f = GCHOL_XPREC_FP16; f <= GCHOL_XPREC_BF16; f++)
        for (int u = 0; u < 8; u++) {
            const gchol_test_hooks_t hooks = { .lowp_nb = u % 2 ? 384 : 256,
                                               .lowp_panel = u < 2 ? 2 : u < 4 ? 1 : u < 6 ? 3 : 4,
                                               .lowp_keep_inverse = u < 2 || u >= 4 ? 2 : 1 };
            set_hooks(&hooks);
            const double kappa = f == GCHOL_XPREC_FP16 ? 1e6 : 1e2;
            const xcase_t c = { u ? 'U' : 'L', quick ? 1100 : 2500, 2, K_COND, kappa, f, 0, 0, 0 };
            run_case(&c);
            set_hooks(NULL);
        }
    printf("\n-- the FP16 / BF16 lookahead (block size 256, each panel form), its chain at the "
           "bulk's priority and at high priority, and the bulk two panels at a time --\n");
    for (int la = 2; la <= 4; la++)
        for (int f = GCHOL_XPREC_FP16; f <= GCHOL_XPREC_BF16; f++)
            for (int u = 0; u < 4; u++) {
                const gchol_test_hooks_t hooks = { .lowp_nb = 256, .lowp_panel = u + 1,
                                                   .lowp_lookahead = la };
                set_hooks(&hooks);
                const xcase_t c = { u ? 'U' : 'L', quick ? 1300 : 2900, 2, K_COND, 1e2, f, 0, 0, 0 };
                run_case(&c);
                set_hooks(NULL);
            }
    for (int la = 2; la <= 4; la++) {
        const gchol_test_hooks_t hooks = { .lowp_nb = 256, .lowp_lookahead = la };
        set_hooks(&hooks);
        const xcase_t c = { 'L', quick ? 1300 : 2900, 1, K_INDEF, 1e2, GCHOL_XPREC_FP16, 0, 0, 0 };
        run_case(&c); /* a failed pivot with the second stream's work in flight */
        set_hooks(NULL);
    }
    for (int u = 0; u < 4; u++) { /* two panels at a time: 7 and 8 whole blocks, then 9 and 10
                                    with the last partial */
        const gchol_test_hooks_t hooks = { .lowp_nb = 256, .lowp_lookahead = 4,
                                           .lowp_panel = u % 2 ? 4 : 2 };
        set_hooks(&hooks);
        const xcase_t c = { u % 2 ? 'U' : 'L', 256 * (7 + u) - (u >= 2 ? 156 : 0), 1, K_COND, 1e4,
                            u < 2 ? GCHOL_XPREC_FP16 : GCHOL_XPREC_BF16, 0, 0, 0 };
        run_case(&c);
        set_hooks(NULL);
    }
    printf("\n-- the FP16 / BF16 trailing updates split in halves down to squares of one block "
           "column and of up to 600 (block size 256), without the lookahead and with it --\n");
    for (int la = 1; la <= 3; la++)
        for (int leaf = 0; leaf < 2; leaf++) {
            const gchol_test_hooks_t hooks = { .lowp_nb = 256, .lowp_lookahead = la,
                                               .lowp_update_leaf = leaf ? 600 : 64 };
            set_hooks(&hooks);
            const int f = (la + leaf) % 2 ? GCHOL_XPREC_FP16 : GCHOL_XPREC_BF16;
            const xcase_t c = { leaf ? 'U' : 'L', quick ? 1300 : 2900, 2, K_COND, 1e2, f, 0, 0, 0 };
            run_case(&c);
            set_hooks(NULL);
        }
    {
        const gchol_test_hooks_t hooks = { .lowp_nb = 256, .lowp_lookahead = 3,
                                           .lowp_update_leaf = 100 };
        set_hooks(&hooks);
        const xcase_t c = { 'L', quick ? 1300 : 2900, 1, K_INDEF, 1e2, GCHOL_XPREC_FP16, 0, 0, 0 };
        run_case(&c); /* a failed pivot, the split updates in flight */
        set_hooks(NULL);
    }
    printf("\n-- the automatic ladder's crossover to double, set at n = 2000: below it the "
           "double solve at once (iter -1); FP16 asked for, and auto from it, factor in FP16 --\n");
    {
        const xcase_t c[] = {
            { 'L', 1300, 1, K_COND, 1e2, GCHOL_XPREC_AUTO, 0, 0, 0 },
            { 'U', 1999, 3, K_COND, 1e3, GCHOL_XPREC_AUTO, 0, 0, 1 },
            { 'L', 1300, 1, K_INDEF, 1e2, GCHOL_XPREC_AUTO, 0, 0, 0 },
            { 'U', 1300, 2, K_COND, 1e2, GCHOL_XPREC_FP16, 0, 0, 0 },
            { 'L', 2000, 2, K_COND, 1e2, GCHOL_XPREC_AUTO, 0, 0, 0 },
        };
        g_lowp_from = 2000;
        for (int i = 0; i < LEN(c); i++) run_case(&c[i]);
        g_lowp_from = 0;
    }
    printf("\n-- the residual and A z by cuBLAS dsymv instead of gchol's symv kernel (one "
           "right-hand side) --\n");
    {
        const gchol_test_hooks_t hooks = { .xposv_symv = 2 };
        const xcase_t c[] = {
            { 'L', quick ? 300 : 700, 1, K_COND, 1e6, GCHOL_XPREC_FP16, GCHOL_XREFINE_GMRES, 0, 0 },
            { 'U', quick ? 300 : 700, 1, K_COND, 1e3, GCHOL_XPREC_BF16, GCHOL_XREFINE_IR, 0, 0 },
            { 'U', 200, 1, K_COND, 1e10, GCHOL_XPREC_AUTO, GCHOL_XREFINE_AUTO, 0, 0 },
        };
        set_hooks(&hooks);
        for (int i = 0; i < LEN(c); i++) run_case(&c[i]);
        set_hooks(NULL);
    }
    printf("\n-- several right-hand sides refined together (blocks of 64 columns) --\n");
    {
        const xcase_t c[] = {
            { 'L', quick ? 300 : 1200, 70, K_COND, 1e3, 0, 0, 0, 0 },
            { 'U', quick ? 300 : 1200, 5, K_COND, 1e6, GCHOL_XPREC_FP16, GCHOL_XREFINE_AUTO, 0, 0 },
            { 'L', quick ? 300 : 1200, 4, K_COND, 1e2, GCHOL_XPREC_BF16, GCHOL_XREFINE_IR, 0, 0 },
        };
        for (int i = 0; i < LEN(c); i++) run_case(&c[i]);
    }
    printf("\n-- without fallback: the first rung's own outcome --\n");
    {
        const xcase_t c1 = { 'L', 400, 1, K_COND, 1e12, GCHOL_XPREC_FP16, GCHOL_XREFINE_IR, 1, 0 };
        const xcase_t c2 = { 'L', 1300, 1, K_COND, 1e2, GCHOL_XPREC_BF16, GCHOL_XREFINE_GMRES, 1, 0 };
        run_case(&c1);
        run_case(&c2);
    }
    printf("\n-- the host form: a rung answers, n <= 16 in double, a failure on the host --\n");
    {
        const xcase_t h[] = {
            { 'L', quick ? 1500 : 3000, 2, K_COND, 1e2, 0, 0, 0, 1 },
            { 'U', 10, 3, K_COND, 1e2, 0, 0, 0, 1 },
            { 'U', 1100, 2, K_NEG, 1e2, 0, 0, 0, 1 },
            { 'L', 1100, 1, K_COND, 1e13, GCHOL_XPREC_FP16, GCHOL_XREFINE_IR, 1, 1 },
        };
        for (int i = 0; i < LEN(h); i++) run_case(&h[i]);
    }
    printf("\n-- the automatic ladder's time below double: none at all (FP16 factors, double "
           "answers), and the table's (whichever answers) --\n");
    for (int u = 0; u < 2; u++) {
        const xcase_t none = { u ? 'U' : 'L', quick ? 700 : 1500, 2, K_COND, 1e3, 0, 0, 0, u };
        const xcase_t table[] = {
            { u ? 'U' : 'L', quick ? 700 : 3000, 1, K_COND, 1e3, 0, 0, 0, u },
            { u ? 'U' : 'L', quick ? 700 : 3000, 3, K_COND, 1e14, 0, 0, 0, 0 },
        };
        g_time = 2;
        run_case(&none);
        g_time = 0;
        for (int i = 0; i < LEN(table); i++) run_case(&table[i]);
        g_time = -1;
    }
    printf("\n-- the queue keeping its workspace between calls, then returning it --\n");
    if (!testing_have_gpu()) {
        testing_skip("the queue's kept workspace (no GPU)");
    } else if (testing_case_in_part()) { /* one case of --part: its solves and checks together */
        g_all_parts = 1;
        testing_expect(gchol_queue_keep_memory(NULL, 0) == GCHOL_ERR_INVALID_QUEUE,
                       "gchol_queue_keep_memory(NULL): GCHOL_ERR_INVALID_QUEUE");
        testing_expect(gchol_queue_keep_memory(g_queue, SIZE_MAX) == GCHOL_SUCCESS,
                       "gchol_queue_keep_memory(SIZE_MAX)");
        for (int i = 0; i < 2; i++) {
            const xcase_t c = { i ? 'U' : 'L', quick ? 700 : 1500, 1, K_COND, 1e2,
                                GCHOL_XPREC_FP16, 0, 0, 0 };
            run_case(&c);
        }
        uint64_t kept = 0, left = 1;
        if (g_queue->pool) {
            (void)cudaMemPoolGetAttribute(g_queue->pool, cudaMemPoolAttrReservedMemCurrent, &kept);
            testing_expect(kept > 0, "the queue's pool keeps %llu bytes after the solves",
                           (unsigned long long)kept);
        }
        testing_expect(gchol_queue_keep_memory(g_queue, 0) == GCHOL_SUCCESS,
                       "gchol_queue_keep_memory(0)");
        if (g_queue->pool) {
            (void)cudaMemPoolGetAttribute(g_queue->pool, cudaMemPoolAttrReservedMemCurrent, &left);
            testing_expect(left == 0, "the queue's pool returned it all (%llu bytes left)",
                           (unsigned long long)left);
        }
        g_all_parts = 0;
    }
    printf("\n-- scaling, range, failures --\n");
    for (int kind = K_SCALED; kind <= K_INDEF; kind++)
        for (int u = 0; u < 2; u++) {
            const xcase_t c = { u ? 'U' : 'L', quick ? 200 : 1100, 3, (kind_t)kind, 1e2, 0, 0, 0, 0 };
            run_case(&c);
        }
}

static void run_table(const testing_cmdline_t *cmd)
{
    (void)cmd;
    run_suite(0);
}

int main(int argc, char **argv)
{
    const testing_tester_t t = { 0, "dxposv", 0, &g_queue, arg_entries, LEN(arg_entries),
                                 run_suite, run_table };
    LAPACKE_set_nancheck(0);
    const char *helper = getenv("TESTING_TILED_HELPER");
    if (helper && (helper[0] == '0' || helper[0] == '1'))
        g_base_hooks.tiled_cluster_helper = helper[0] == '1' ? 2 : 1;
    set_hooks(NULL);
    return testing_tester_main(argc, argv, &t);
}
