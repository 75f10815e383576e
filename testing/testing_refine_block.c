/*
 * testing_refine_block.c -- tests the refinement engine's block form
 * (gchol_refine_solve_block, src/refine_engine.c) on the CPU: several
 * right-hand sides refined together, with the host ops of refine_host.h
 * (CBLAS, the low-precision factor emulated). Host-only: runs without a GPU.
 *
 *   testing_refine_block [--suite] [--quick]   (the suite always)
 *
 * Checks, per method (IR, AUTO, GMRES), factor and condition: every column's
 * x bit for bit, iter, stop, steps, inner and preconditioner applications as
 * gchol_refine_solve gives that column alone (the block's residual and
 * preconditioner calls are the single ones column by column, so the
 * arithmetic is the same); the read-backs: one per block step for all
 * columns, plus each column's own GMRES part; columns that stop at once (b =
 * 0, NaN in b) beside columns that refine; the budget; the arguments.
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#include "refine_host.h"
#include "opts.h"

#define LEN(a) TESTING_LEN(a)

/* The block ops: the single ones column by column. */
static int64_t op_residual_block(void *ctx, const double *B, int64_t ldb, const double *X,
                                 int64_t ldx, double *R, int64_t ldr, int64_t ncols, double *nh)
{
    for (int64_t j = 0; j < ncols; ++j) {
        double t[3];
        const int64_t st = op_residual(ctx, B + j * ldb, X + j * ldx, R + j * ldr, t);
        if (st) return st;
        nh[j] = t[0];
        nh[ncols + j] = t[1];
    }
    return 0;
}

static int64_t op_precond_block(void *ctx, const double *V, int64_t ldv, double *Z, int64_t ldz,
                                 int64_t ncols)
{
    for (int64_t j = 0; j < ncols; ++j) {
        const int64_t st = op_precond(ctx, V + j * ldv, Z + j * ldz);
        if (st) return st;
    }
    return 0;
}

static const gchol_refine_block_ops_t kBlockOps = { op_residual_block, op_precond_block };

typedef struct {
    double *R, *Z, *host, *X1;
    void   *state;
    gchol_refine_block_work_t bw;
} block_t;

static int block_make(block_t *b, const problem_t *p)
{
    const int64_t n = p->n, k = p->nrhs;
    memset(b, 0, sizeof *b);
    b->R = malloc((size_t)(n * k) * 8);
    b->Z = malloc((size_t)(n * k) * 8);
    b->host = malloc((size_t)(2 * k) * 8);
    b->X1 = malloc((size_t)(n * k) * 8);
    b->state = malloc(gchol_refine_block_state_bytes(k));
    b->bw = (gchol_refine_block_work_t){ b->R, n, b->Z, n, b->host, b->state, k };
    return b->R && b->Z && b->host && b->X1 && b->state ? 0 : -1;
}

static void block_free(block_t *b)
{
    free(b->R); free(b->Z); free(b->host); free(b->X1); free(b->state);
}

/* The block refinement of p's columns against each column alone; one
 * result line. */
static void compare(problem_t *p, block_t *bl, const gchol_refine_opts_t *o, const char *what)
{
    const int64_t n = p->n, k = p->nrhs;
    gchol_refine_result_t single[8], block[8];
    double bnorm[8] = { 0 };
    if (k > 8) {
        testing_expect(0, "%s: at most 8 columns", what);
        return;
    }
    int64_t st = 0, block_rb = 0, own_rb = 0, diff = 0, bad = -1;
    char why[200] = "";
    const gchol_refine_ops_t ops = make_ops(&p->c);
    for (int64_t j = 0; j < k; ++j) bnorm[j] = absmax(n, p->B + j * n);
    for (int64_t j = 0; j < k && st == 0; ++j) {
        memset(p->c.calls, 0, sizeof p->c.calls);
        st = gchol_refine_solve(&ops, o, &p->w, p->B + j * n, bl->X1 + j * n, p->anrm, bnorm[j],
                                &single[j]);
    }
    if (st == 0) {
        memset(p->c.calls, 0, sizeof p->c.calls);
        st = gchol_refine_solve_block(&ops, &kBlockOps, o, &p->w, &bl->bw, p->B, n, p->X, n, k,
                                      p->anrm, bnorm, block, &block_rb);
    }
    for (int64_t j = 0; j < k && st == 0; ++j) {
        const gchol_refine_result_t *a = &single[j], *b = &block[j];
        /* x is unspecified where the column stopped before any op (NaN in b) */
        const int untouched = a->iter == -1 && a->preconds == 0;
        if (!untouched && memcmp(bl->X1 + j * n, p->X + j * n, (size_t)n * 8) != 0) ++diff;
        if (a->iter != b->iter || a->stop != b->stop || a->steps != b->steps ||
            a->inner != b->inner || a->preconds != b->preconds)
            bad = j;
        own_rb += b->readbacks;
    }
    if (st != 0) snprintf(why, sizeof why, "status %lld", (long long)st);
    else if (diff) snprintf(why, sizeof why, "%lld columns' x differ", (long long)diff);
    else if (bad >= 0)
        snprintf(why, sizeof why, "column %lld: iter %lld/%lld steps %lld/%lld inner %lld/%lld",
                 (long long)bad, (long long)single[bad].iter, (long long)block[bad].iter,
                 (long long)single[bad].steps, (long long)block[bad].steps,
                 (long long)single[bad].inner, (long long)block[bad].inner);
    else if (o->method != GCHOL_REFINE_GMRES && own_rb != 0 && o->method == GCHOL_REFINE_IR)
        snprintf(why, sizeof why, "IR columns count their own read-backs");
    char iters[80] = "";
    for (int64_t j = 0; j < k && j < 6; ++j) {
        const size_t len = strlen(iters);
        snprintf(iters + len, sizeof iters - len, "%s%lld", j ? "," : "", (long long)block[j].iter);
    }
    testing_expect(why[0] == 0, "%-30s %-5s: iter %s, block read-backs %lld + columns' %lld%s%s",
                   what, mn_of(o->method), iters, (long long)block_rb, (long long)own_rb,
                   why[0] ? " -- " : "", why);
}

static void test_against_single(int quick)
{
    static const struct {
        int fam;
        int64_t n;
        double kappa;
        const factor_t *f;
    } probs[] = {
        { FAM_GEO, 120, 1e3, &kFp16 },
        { FAM_GEO, 200, 1e6, &kFp16 },
        { FAM_LOWRANK, 200, 1e8, &kBf16 },
        { FAM_LOWRANK, 160, 1e14, &kFp16 },
        { FAM_GEO, 300, 1e10, &kFp32 },
    };
    printf("\n-- four right-hand sides: the block against each column alone --\n");
    for (int i = 0; i < LEN(probs); ++i) {
        if (quick && i % 2) continue;
        problem_t p;
        block_t bl;
        char what[80];
        if (problem_make(&p, probs[i].fam, probs[i].n, 4, probs[i].kappa, *probs[i].f, EMUL_L,
                         40 + (uint64_t)i) != 0 ||
            block_make(&bl, &p) != 0) {
            testing_expect(0, "problem %d not made", i);
        } else {
            snprintf(what, sizeof what, "%s n=%lld kappa %.0e %s", fam_name[probs[i].fam],
                     (long long)probs[i].n, probs[i].kappa, probs[i].f->name);
            for (int meth = 0; meth < 3; ++meth) {
                const gchol_refine_opts_t o = { .method = meth };
                compare(&p, &bl, &o, what);
            }
        }
        block_free(&bl);
        problem_free(&p);
    }
    printf("\n-- columns that stop at once (b = 0, NaN in b) beside columns that refine --\n");
    {
        problem_t p;
        block_t bl;
        if (problem_make(&p, FAM_GEO, 150, 4, 1e4, kFp16, EMUL_L, 50) == 0 &&
            block_make(&bl, &p) == 0) {
            memset(p.B + 1 * p.n, 0, (size_t)p.n * 8);
            p.B[2 * p.n + 7] = NAN;
            for (int meth = 0; meth < 3; ++meth) {
                const gchol_refine_opts_t o = { .method = meth };
                compare(&p, &bl, &o, "geo n=150 b=0 and NaN columns");
            }
            const gchol_refine_opts_t ob = { .method = GCHOL_REFINE_AUTO, .budget = 4 };
            compare(&p, &bl, &ob, "the same, budget 4");
        } else {
            testing_expect(0, "problem not made");
        }
        block_free(&bl);
        problem_free(&p);
    }
}

static void test_arguments(void)
{
    problem_t p;
    block_t bl;
    printf("\n-- arguments --\n");
    if (problem_make(&p, FAM_GEO, 60, 2, 10, kFp32, EMUL_L, 60) != 0 || block_make(&bl, &p) != 0) {
        testing_expect(0, "problem not made");
        block_free(&bl);
        problem_free(&p);
        return;
    }
    const gchol_refine_ops_t ops = make_ops(&p.c);
    const gchol_refine_opts_t o = { .method = GCHOL_REFINE_IR };
    const gchol_refine_block_ops_t no_precond = { op_residual_block, NULL };
    gchol_refine_block_work_t narrow = bl.bw, short_ld = bl.bw;
    narrow.ncols = 1;
    short_ld.ldr = p.n - 1;
    double bnorm[2] = { absmax(p.n, p.B), absmax(p.n, p.B + p.n) }, neg[2] = { 1, -1 };
    gchol_refine_result_t res[2];
    int64_t rb = 0;
    const struct {
        const char *what;
        const gchol_refine_block_ops_t *bops;
        const gchol_refine_block_work_t *bw;
        const double *bnorm;
        int64_t ncols, want;
    } cases[] = {
        { "no block precond", &no_precond, &bl.bw, bnorm, 2, GCHOL_ERR_INVALID_VALUE },
        { "work for 1 column, 2 asked", &kBlockOps, &narrow, bnorm, 2, GCHOL_ERR_INVALID_VALUE },
        { "ldr < n", &kBlockOps, &short_ld, bnorm, 2, GCHOL_ERR_INVALID_VALUE },
        { "a negative ||b||", &kBlockOps, &bl.bw, neg, 2, GCHOL_ERR_INVALID_VALUE },
        { "ncols = 0 (nothing done)", &kBlockOps, &bl.bw, bnorm, 0, 0 },
        { "ncols = 2", &kBlockOps, &bl.bw, bnorm, 2, 0 },
    };
    for (int i = 0; i < LEN(cases); ++i) {
        memset(p.c.calls, 0, sizeof p.c.calls);
        const int64_t st = gchol_refine_solve_block(&ops, cases[i].bops, &o, &p.w, cases[i].bw, p.B,
                                                    p.n, p.X, p.n, cases[i].ncols, p.anrm,
                                                    cases[i].bnorm, res, &rb);
        testing_expect(st == cases[i].want && (st == 0 || p.c.calls[OP_RESIDUAL] == 0),
                       "%s: status %lld (want %lld)", cases[i].what, (long long)st,
                       (long long)cases[i].want);
    }
    block_free(&bl);
    problem_free(&p);
}

int main(int argc, char **argv)
{
    int suite = 0, quick = 0;
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (make test; also the default)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "fewer problems"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    (void)suite;
    printf("testing_refine_block --suite%s  (host only)\n", quick ? " --quick" : "");
    test_against_single(quick);
    test_arguments();
    return testing_summary();
}
