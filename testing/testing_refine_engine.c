/*
 * testing_refine_engine.c -- tests the refinement engine (src/refine_engine.c)
 * on the CPU, with its ops written with CBLAS on host arrays and the
 * low-precision factor emulated. Host-only: runs without a GPU.
 *
 *   testing_refine_engine [--suite] [--quick] [-n LIST]   (the suite always)
 *
 * Factor: L = chol(A) in double, each entry rounded to p significand bits
 * (fp16, tf32 11, bf16 8, fp32 24; u_f = 2^-p; exponent range not emulated);
 * variants "A+L" (A rounded first, as a real conversion does; its factorization
 * may fail, and the case is then only reported) and "L+io" (M^{-1} also rounds
 * its input and output). M^{-1}: two triangular solves in double. A from
 * testing_generate_cond_spd ("geo") and testing_generate_lowrank_spd ("lowr"),
 * condition kappa; b uniform(-1, 1).
 *
 * Checks: when iter >= 0, the backward error formed independently (dgemm) <
 * sqrt(n) in ddrvac's unit ||r||_inf / (||A||_inf ||x||_inf eps); iter >= 0
 * or -31 on finite data; convergence and failure where clear-cut by rho
 * (expectation() below); read-backs 1 + steps (IR), 1 + steps + inner
 * (GMRES-IR); NaN in b or out of M^{-1} gives -1; a failing op's status comes
 * back at once with no op called after; the stopping rules; arguments; and
 * that the engine never touches a vector (they lie in a PROT_NONE mapping).
 *
 * Ends with "SUMMARY passed=P failed=F skipped=S".
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cblas.h>
#include <lapacke.h>

#include "gchol.h"
#include "opts.h"
#include "guard.h"
#include "refine_engine.h"
#include "util.h"

#include "refine_host.h"

/* ---------------------------------------------------------------------------
 * The table.
 * ------------------------------------------------------------------------- */
typedef enum { EXPECT_ANY, EXPECT_CONVERGE, EXPECT_FAIL } expect_t;

/* rho: the size of I - M^{-1} A, up to a modest constant, which decides
 * IR's rate. L rounded: M = (L + E)(L + E)^T, |E| <= u_f |L|, so M^{-1} A - I
 * is similar to about L^{-1} E + (L^{-1} E)^T, of norm ~ u_f cond(L) = u_f
 * sqrt(kappa_s); A rounded first: the factor is exact for A + dA, |dA| <=
 * u_f |A|, so rho ~ u_f kappa_s. kappa_s rather than kappa: Cholesky's
 * errors are invariant under diagonal scaling. */
static double rho_of(int emul, double u, double kappa_s)
{
    return emul == EMUL_AL ? u * kappa_s : u * sqrt(kappa_s);
}

/* The clear-cut cases, with margin on what the table shows: IR converges
 * for rho <= 0.05 and fails for rho >= 30 (it does at rho = 49; around 1 it
 * may go either way); GMRES-IR (m = 50) converges for rho <= 2 (it does up
 * to rho 4 - 6 in most cases, fails at 5 in one, converges at 50 in some).
 * With M^{-1}'s input rounded too ("L+io"), IR's correction carries that
 * rounding through A^{-1}: an error up to u_f kappa_s of its size, so IR is
 * clear-cut only where rho_io = u_f kappa_s <= 1 as well (at u_f kappa_s =
 * 600, fp32 and kappa 1e10, IR stalls or converges with the BLAS's
 * roundings; GMRES-IR converges). rho_io 0 elsewhere. */
static expect_t expectation(int method, double rho, double rho_io)
{
    if (method == GCHOL_REFINE_IR)
        return rho <= 0.05 && rho_io <= 1 ? EXPECT_CONVERGE
             : rho >= 30                  ? EXPECT_FAIL
                                          : EXPECT_ANY;
    return rho <= 2 ? EXPECT_CONVERGE : EXPECT_ANY; /* GMRES-IR, and AUTO, which ends in it */
}

static void table_head(void)
{
    printf("%5s %4s %7s %7s %5s %4s %7s %-5s %4s %5s %6s %9s %5s %5s  %s\n", "n", "A", "kappa",
           "kappa_s", "fact", "emul", "rho", "refin", "nrhs", "iter", "inner", "berr", "rdbk",
           "want", "result");
}

/* Appends a failure reason once. */
static void fail(char *why, size_t size, const char *reason)
{
    if (!strstr(why, reason)) testing_fail_reason(why, size, reason);
}

static void run_method(int fam, int64_t n, double kappa, factor_t f, int emul, int method,
                       int64_t nrhs)
{
    problem_t p;
    const char *mname = mn_of(method);
    const int made = problem_make(&p, fam, n, nrhs, kappa, f, emul, 1000 + (uint64_t)n);
    printf("%5lld %4s %7.0e %7.1e %5s %4s ", (long long)n, fam_name[fam], kappa, p.kappa_s,
           f.name, emul_name[emul]);
    if (made != 0) {
        if (made < 0) testing_expect(0, "out of memory");
        else printf("%7s %-5s  the factorization of rounded A fails (not run)\n", "", mname);
        problem_free(&p);
        return;
    }
    const gchol_refine_opts_t o = { .method = method };
    const double rho = rho_of(emul, ldexp(1, -f.bits), p.kappa_s);
    const double rho_io = emul == EMUL_IO ? ldexp(1, -f.bits) * p.kappa_s : 0;
    const expect_t want = expectation(method, rho, rho_io);
    int64_t iter = 0, inner = 0, rdbk = 0, at_rounding = 0;
    double berr = -1; /* the worst converged column's */
    char why[160] = "";
    for (int64_t j = 0; j < nrhs; ++j) {
        gchol_refine_result_t res;
        const int64_t st = solve_col(&p, &o, j, &res);
        if (st != 0) { snprintf(why, sizeof why, "status %lld", (long long)st); break; }
        const double bj = col_berr(&p, j);
        inner += res.inner;
        rdbk += res.readbacks;
        if (res.iter >= 0 && !(bj <= berr)) berr = bj; /* NaN kept */
        if (iter == -1 || res.iter == -1) iter = -1;   /* the worst column's */
        else if (iter == -31 || res.iter == -31) iter = -31;
        else if (res.iter > iter) iter = res.iter;
        /* below n = 144 the bound, (sqrt(n) - 2) eps anrm ||x||, can sit under
         * the residual's rounding, up to n eps anrm ||x|| (dsposv.c) */
        const int floor = n < 144 && res.iter == -31 && res.berr <= (double)n;
        at_rounding += floor;
        if (res.iter >= 0 && !(bj < sqrt((double)n))) fail(why, sizeof why, "berr >= sqrt(n)");
        if (res.iter != -31 && res.iter < 0) fail(why, sizeof why, "iter -1 on finite data");
        if (res.iter > 0 && res.iter != res.steps) fail(why, sizeof why, "iter != steps");
        if (res.readbacks != 1 + res.steps + res.inner) /* IR's inner is 0 */
            fail(why, sizeof why, "read-back count");
        if (want == EXPECT_CONVERGE && res.iter < 0 && !floor)
            fail(why, sizeof why, "no convergence");
        if (want == EXPECT_FAIL && res.iter >= 0) fail(why, sizeof why, "converged, want -31");
    }
    const testing_result_t r = testing_record(why[0] ? TESTING_FAILED : TESTING_PASSED);
    char bs[16] = "-";
    if (berr >= 0 || isnan(berr)) snprintf(bs, sizeof bs, "%.2e", berr);
    printf("%7.1e %-5s %4lld %5lld %6lld %9s %5lld %5s  %s%s%s%s\n", rho, mname, (long long)nrhs,
           (long long)iter, (long long)inner, bs, (long long)rdbk,
           want == EXPECT_CONVERGE ? "conv" : want == EXPECT_FAIL ? "-31" : "any",
           testing_result_name(r), at_rounding ? " (rounding level)" : "", why[0] ? ": " : "",
           why);
    problem_free(&p);
}

/* One problem, IR, GMRES-IR and AUTO (IR switching to GMRES-IR): three rows. */
static void run_case(int fam, int64_t n, double kappa, factor_t f, int emul, int64_t nrhs)
{
    run_method(fam, n, kappa, f, emul, GCHOL_REFINE_IR, nrhs);
    run_method(fam, n, kappa, f, emul, GCHOL_REFINE_GMRES, nrhs);
    run_method(fam, n, kappa, f, emul, GCHOL_REFINE_AUTO, nrhs);
}

static const double kKappas[] = { 1e1, 1e3, 1e6, 1e10, 1e14 };

static void test_tables(const testing_list_t *ns, int quick)
{
    const factor_t fs[] = { kFp16, kBf16, kFp32 }, fv[] = { kFp16, kTf32, kBf16, kFp32 };
    static const double ks[] = { 1e1, 1e3, 3e3, 1e4, 1e6, 1e8, 1e10 };
    for (int fam = FAM_GEO; fam <= FAM_LOWRANK; ++fam) {
        printf("\n-- convergence on %s matrices: one right-hand side, L rounded --\n",
               fam_name[fam]);
        table_head();
        for (int64_t in = 0; in < ns->count; ++in)
            for (int k = 0; k < LEN(kKappas); ++k)
                for (int f = 0; f < LEN(fs); ++f)
                    run_case(fam, ns->v[in], kKappas[k], fs[f], EMUL_L, 1);
    }
    printf("\n-- several right-hand sides; A rounded before factoring; rounded solves --\n");
    table_head();
    for (int k = 1; k <= 2; ++k)
        for (int f = 0; f < LEN(fv); ++f)
            run_case(FAM_LOWRANK, 200, kKappas[k], fv[f], EMUL_L, quick ? 2 : 4);
    for (int e = EMUL_AL; e <= EMUL_IO; ++e)
        for (int k = 0; k < LEN(ks); k += quick ? 2 : 1)
            for (int f = 0; f < LEN(fs); f += 2)
                run_case(FAM_LOWRANK, 200, ks[k], fs[f], e, 1);
}

/* ---------------------------------------------------------------------------
 * Special cases.
 * ------------------------------------------------------------------------- */
static void test_special(void)
{
    problem_t p;
    gchol_refine_result_t res;
    int64_t st;
    printf("\n-- non-finite values, op failures, stopping rules, arguments --\n");
    if (problem_make(&p, FAM_LOWRANK, 200, 1, 1e3, kFp16, EMUL_L, 7) != 0) {
        testing_expect(0, "special cases: problem not made");
        problem_free(&p);
        return;
    }
    for (int meth = 0; meth < 2; ++meth) {
        const gchol_refine_opts_t o = { .method = meth };
        const char *mn = meth ? "GMRES" : "IR";
        const double b0 = p.B[3];
        p.B[3] = NAN; /* ||b|| NaN: stops before any op */
        st = solve_col(&p, &o, 0, &res);
        testing_expect(st == 0 && res.iter == -1 && res.stop == GCHOL_REFINE_NONFINITE &&
                           res.steps == 0 && res.readbacks == 0 && p.c.calls[OP_PRECOND] == 0,
                       "%s: NaN in b: iter %lld (want -1), read-backs %lld", mn,
                       (long long)res.iter, (long long)res.readbacks);
        { /* the same with a finite ||b|| from the caller: the residual finds it */
            const gchol_refine_ops_t ops = make_ops(&p.c);
            st = gchol_refine_solve(&ops, &o, &p.w, p.B, p.X, p.anrm, 1, &res);
            testing_expect(st == 0 && res.iter == -1 && res.steps == 0 && res.readbacks == 1,
                           "%s: NaN in b, ||b|| given 1: iter %lld, read-backs %lld", mn,
                           (long long)res.iter, (long long)res.readbacks);
        }
        p.B[3] = b0;
        p.c.nan_at = 3; /* a NaN out of M^{-1} in the course of the refinement */
        st = solve_col(&p, &o, 0, &res);
        testing_expect(st == 0 && res.iter == -1, "%s: NaN from M^{-1} (3rd call): iter %lld",
                       mn, (long long)res.iter);
        p.c.nan_at = 0;
        /* every op the method calls, failing at its first and at a later call */
        for (int op = 0; op < OP_COUNT; ++op)
            for (int64_t at = 1; at <= 3; at += 2) {
                p.c.fail_op = -1;
                solve_col(&p, &o, 0, &res);
                if (p.c.calls[op] < at) continue;
                p.c.fail_op = op;
                p.c.fail_at = at;
                st = solve_col(&p, &o, 0, &res);
                testing_expect(st == GCHOL_ERR_CUBLAS && p.c.after_fail == 0,
                               "%s: %s fails at call %lld: status %lld, %lld calls after", mn,
                               op_name[op], (long long)at, (long long)st,
                               (long long)p.c.after_fail);
            }
        p.c.fail_op = -1;
        /* x0 given: the solution already there costs one residual */
        gchol_refine_opts_t og = o;
        og.x0_given = 1;
        st = solve_col(&p, &o, 0, &res);
        st = st ? st : solve_col(&p, &og, 0, &res);
        testing_expect(st == 0 && res.iter == 0 && res.readbacks == 1,
                       "%s: converged x0 given: iter %lld, read-backs %lld", mn,
                       (long long)res.iter, (long long)res.readbacks);
        /* max_iter 1 where one correction is not enough */
        gchol_refine_opts_t o1 = o;
        o1.max_iter = 1;
        o1.tau = 0.5;
        st = solve_col(&p, &o1, 0, &res);
        testing_expect(st == 0 && res.iter == -31 && res.stop == GCHOL_REFINE_MAX_ITER &&
                           res.steps == 1,
                       "%s: max_iter 1: iter %lld (want -31), steps %lld", mn,
                       (long long)res.iter, (long long)res.steps);
        if (meth == GCHOL_REFINE_GMRES) { /* m = 3: at most 3 inner iterations a step */
            gchol_refine_opts_t o3 = o;
            o3.m = 3;
            st = solve_col(&p, &o3, 0, &res);
            testing_expect(st == 0 && res.iter >= 0 && res.inner <= 3 * res.steps &&
                               col_berr(&p, 0) < sqrt((double)p.n),
                           "GMRES, m = 3: iter %lld, inner %lld", (long long)res.iter,
                           (long long)res.inner);
        }
        /* b = 0: x = 0 converges at once (B's column regenerated after) */
        memset(p.B, 0, (size_t)p.n * sizeof(double));
        st = solve_col(&p, &o, 0, &res);
        testing_expect(st == 0 && res.iter == 0 && absmax(p.n, p.X) == 0,
                       "%s: b = 0: iter %lld, x = 0", mn, (long long)res.iter);
        rhs(&p, 0, 7);
    }
    problem_free(&p);

    /* stagnation: IR at rho ~ 5e3 stops well before 30 corrections */
    if (problem_make(&p, FAM_LOWRANK, 200, 1, 1e14, kFp16, EMUL_L, 8) == 0) {
        const gchol_refine_opts_t o = { .method = GCHOL_REFINE_IR };
        st = solve_col(&p, &o, 0, &res);
        testing_expect(st == 0 && res.iter == -31 && res.stop == GCHOL_REFINE_STAGNATION &&
                           res.steps <= 4,
                       "IR, rho = 5e3: iter %lld (want -31), stopped after %lld "
                       "corrections (stagnation rule: <= 4)", (long long)res.iter,
                       (long long)res.steps);
    }
    problem_free(&p);

    /* the budget of preconditioner applications: spent exactly, a GMRES
     * cycle cut short to fit; ample, the same answer as without */
    if (problem_make(&p, FAM_LOWRANK, 200, 1, 1e14, kFp16, EMUL_L, 8) == 0) {
        for (int meth = 0; meth < 3; ++meth) {
            const gchol_refine_opts_t o = { .method = meth, .budget = 7 };
            st = solve_col(&p, &o, 0, &res);
            testing_expect(st == 0 && res.iter == -31 && res.preconds <= 7 &&
                               res.preconds == p.c.calls[OP_PRECOND] &&
                               (res.stop == GCHOL_REFINE_BUDGET ? res.preconds == 7
                                : res.stop == GCHOL_REFINE_SLOW ? meth != GCHOL_REFINE_IR
                                                                : res.stop == GCHOL_REFINE_STAGNATION),
                           "%s, rho = 5e3, budget 7: iter %lld, %lld preconditioner applications "
                           "(counted %lld), stop %d", mn_of(meth), (long long)res.iter,
                           (long long)res.preconds, (long long)p.c.calls[OP_PRECOND], res.stop);
        }
    }
    problem_free(&p);
    if (problem_make(&p, FAM_GEO, 300, 1, 1e4, kFp16, EMUL_L, 12) == 0) {
        for (int meth = 0; meth < 3; ++meth) {
            gchol_refine_result_t free_res;
            const gchol_refine_opts_t o = { .method = meth }, ob = { .method = meth, .budget = 200 };
            st = solve_col(&p, &o, 0, &free_res);
            const int64_t st2 = solve_col(&p, &ob, 0, &res);
            testing_expect(st == 0 && st2 == 0 && free_res.iter >= 0 && res.iter == free_res.iter &&
                               res.preconds == free_res.preconds &&
                               res.preconds == p.c.calls[OP_PRECOND],
                           "%s, kappa 1e4, budget 200: iter %lld (%lld without), %lld "
                           "preconditioner applications", mn_of(meth), (long long)res.iter,
                           (long long)free_res.iter, (long long)res.preconds);
        }
    }
    problem_free(&p);

    /* the deadline: passed (the first decision stops the column, after x0's
     * application); far, the same answer as without */
    if (problem_make(&p, FAM_LOWRANK, 200, 1, 1e14, kFp16, EMUL_L, 8) == 0) {
        for (int meth = 0; meth < 3; ++meth) {
            const gchol_refine_opts_t o = { .method = meth, .deadline = gchol_refine_clock() };
            st = solve_col(&p, &o, 0, &res);
            testing_expect(st == 0 && res.iter == -31 && res.stop == GCHOL_REFINE_BUDGET &&
                               res.preconds == 1 && res.steps == 0,
                           "%s, rho = 5e3, deadline passed: iter %lld, stop %d, %lld preconditioner "
                           "applications, %lld corrections (want -31 by the budget after x0's)",
                           mn_of(meth), (long long)res.iter, res.stop, (long long)res.preconds,
                           (long long)res.steps);
        }
    }
    problem_free(&p);
    if (problem_make(&p, FAM_GEO, 300, 1, 1e4, kFp16, EMUL_L, 12) == 0) {
        for (int meth = 0; meth < 3; ++meth) {
            gchol_refine_result_t free_res;
            const gchol_refine_opts_t o = { .method = meth },
                                      ot = { .method = meth, .deadline = gchol_refine_clock() + 1e6 };
            st = solve_col(&p, &o, 0, &free_res);
            const int64_t st2 = solve_col(&p, &ot, 0, &res);
            testing_expect(st == 0 && st2 == 0 && free_res.iter >= 0 && res.iter == free_res.iter &&
                               res.preconds == free_res.preconds,
                           "%s, kappa 1e4, deadline in 1e6 s: iter %lld (%lld without), %lld preconditioner "
                           "applications (%lld without)", mn_of(meth), (long long)res.iter,
                           (long long)free_res.iter, (long long)res.preconds,
                           (long long)free_res.preconds);
        }
    }
    problem_free(&p);

    /* rounding level: n = 4 leaves the bound below the residual's rounding */
    if (problem_make(&p, FAM_GEO, 4, 1, 10, kFp32, EMUL_L, 9) == 0) {
        for (int meth = 0; meth < 2; ++meth) {
            const gchol_refine_opts_t o = { .method = meth };
            st = solve_col(&p, &o, 0, &res);
            testing_expect(st == 0 && res.iter == -31 && res.stop == GCHOL_REFINE_ROUNDING &&
                               res.steps <= 8 && res.inner <= 4 * res.steps,
                           "%s, n = 4: iter %lld, %lld corrections (the rounding-level rule "
                           "stops at 4 in a row)", meth ? "GMRES" : "IR", (long long)res.iter,
                           (long long)res.steps);
        }
    }
    problem_free(&p);

    /* arguments */
    if (problem_make(&p, FAM_GEO, 50, 1, 10, kFp32, EMUL_L, 10) == 0) {
        const gchol_refine_ops_t ops = make_ops(&p.c);
        const gchol_refine_opts_t g = { .method = GCHOL_REFINE_GMRES };
        gchol_refine_ops_t no_ortho = ops, empty = ops;
        gchol_refine_opts_t ir = { 0 }, m_big = g, bad_method = g, tau1 = g, neg_budget = g,
                            neg_deadline = g, nan_deadline = g;
        gchol_refine_work_t short_host = p.w;
        no_ortho.orthonormalize = NULL;
        empty.n = 0;
        m_big.m = p.w.m + 1;
        bad_method.method = 7;
        tau1.tau = 1;
        neg_budget.budget = -1;
        neg_deadline.deadline = -1;
        nan_deadline.deadline = NAN;
        short_host.host_len = gchol_refine_host_len(p.w.m) - 1;
        const struct {
            const char *what;
            const gchol_refine_ops_t *ops;
            const gchol_refine_opts_t *o;
            const gchol_refine_work_t *w;
            int64_t want;
        } cases[] = {
            { "GMRES without orthonormalize", &no_ortho, &g, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "IR without orthonormalize (not needed)", &no_ortho, &ir, &p.w, 0 },
            { "host scratch too short", &ops, &g, &short_host, GCHOL_ERR_INVALID_VALUE },
            { "m beyond the workspace", &ops, &m_big, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "unknown method", &ops, &bad_method, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "tau 1", &ops, &tau1, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "budget -1", &ops, &neg_budget, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "deadline -1", &ops, &neg_deadline, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "deadline NaN", &ops, &nan_deadline, &p.w, GCHOL_ERR_INVALID_VALUE },
            { "n = 0 (iter 0, no op called)", &empty, &g, &p.w, 0 },
        };
        for (int k = 0; k < LEN(cases); ++k) {
            memset(p.c.calls, 0, sizeof p.c.calls);
            st = gchol_refine_solve(cases[k].ops, cases[k].o, cases[k].w, p.B, p.X, p.anrm,
                                    absmax(p.n, p.B), &res);
            const int ok = st == cases[k].want && (st != 0 || res.iter >= 0) &&
                           (cases[k].ops->n != 0 || p.c.calls[OP_RESIDUAL] == 0);
            testing_expect(ok, "%s: status %lld (want %lld), iter %lld", cases[k].what,
                           (long long)st, (long long)cases[k].want, (long long)res.iter);
        }
    }
    problem_free(&p);
}

/* The engine on vectors it cannot touch: every vector is an address in a
 * PROT_NONE mapping, which only the ops translate (as a GPU's would use
 * device pointers); a dereference by the engine is a SIGSEGV. The result
 * must be the one on plain host vectors, bit for bit. */
static void test_opaque(void)
{
    problem_t p;
    printf("\n-- vectors the engine cannot touch (a PROT_NONE mapping) --\n");
    if (problem_make(&p, FAM_LOWRANK, 200, 1, 1e6, kFp16, EMUL_L, 11) != 0) {
        testing_expect(0, "opaque vectors: problem not made");
        problem_free(&p);
        return;
    }
    const int64_t n = p.n, m = p.w.m;
    const size_t span = (size_t)(n * (4 + (m + 1) + m)) * sizeof(double); /* b x r z V Z */
    char *real = malloc(span);
    void *fake = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!real || fake == MAP_FAILED) {
        testing_expect(0, "opaque vectors: no memory");
    } else {
        testing_guard_trap();
        for (int meth = 0; meth < 2; ++meth) {
            const gchol_refine_opts_t o = { .method = meth };
            gchol_refine_result_t ref, res;
            int64_t st = solve_col(&p, &o, 0, &ref);
            double *fb = fake, *fx = fb + n;
            gchol_refine_work_t w = { fx + n, fx + 2 * n, fx + 3 * n, n, fx + (4 + m) * n, n, m,
                                      p.host, p.w.host_len };
            memcpy(real, p.B, (size_t)n * sizeof(double));
            p.c.fake = fake;
            p.c.real = real;
            p.c.span = span;
            testing_guard_label("opaque vectors, %s", meth ? "GMRES" : "IR");
            const gchol_refine_ops_t ops = make_ops(&p.c);
            if (st == 0)
                st = gchol_refine_solve(&ops, &o, &w, fb, fx, p.anrm, absmax(n, p.B), &res);
            p.c.fake = NULL;
            testing_expect(st == 0 && res.iter == ref.iter && res.inner == ref.inner &&
                               !memcmp(real + n * sizeof(double), p.X, (size_t)n * sizeof(double)),
                           "%s on opaque vectors: iter %lld, inner %lld, x as on host vectors",
                           meth ? "GMRES" : "IR", (long long)res.iter, (long long)res.inner);
        }
    }
    if (fake != MAP_FAILED) munmap(fake, span);
    free(real);
    problem_free(&p);
}

/* The rate rule under a budget of 30 applications (the automatic ladder's
 * at small n): a rung that converges within half the budget without it
 * converges the same way with it; one that does not converge ends at -31
 * within the budget, and the rule stops some of those early. */
static void test_budget_rate(void)
{
    static const double ks[] = { 1e3, 1e5, 1e6, 1e7, 1e8, 1e10, 1e12, 1e14 };
    enum { kBudget = 30 };
    int early = 0;
    printf("\n-- the rate rule: AUTO with a budget of %d preconditioner applications, fp16 --\n",
           kBudget);
    printf("%5s %4s %7s %4s %7s | %5s %7s | %5s %7s %4s  %s\n", "n", "A", "kappa", "emul", "rho",
           "iter", "precond", "iter", "precond", "stop", "result");
    for (int fam = FAM_GEO; fam <= FAM_LOWRANK; ++fam)
        for (int e = EMUL_L; e <= EMUL_AL; ++e)
            for (int k = 0; k < LEN(ks); ++k) {
                problem_t p;
                if (problem_make(&p, fam, 300, 1, ks[k], kFp16, e, 2000 + (uint64_t)k) != 0) {
                    problem_free(&p);
                    continue;
                }
                const gchol_refine_opts_t o = { .method = GCHOL_REFINE_AUTO },
                                          ob = { .method = GCHOL_REFINE_AUTO, .budget = kBudget };
                gchol_refine_result_t r0, r1;
                const int64_t st0 = solve_col(&p, &o, 0, &r0), st1 = solve_col(&p, &ob, 0, &r1);
                const double bj = col_berr(&p, 0);
                int ok = st0 == 0 && st1 == 0 && r1.preconds <= kBudget;
                if (r0.iter >= 0 && r0.preconds <= kBudget / 2)
                    ok = ok && r1.iter == r0.iter && r1.preconds == r0.preconds;
                else if (r0.iter < 0 || r0.preconds > kBudget)
                    ok = ok && r1.iter == -31;
                if (r1.iter >= 0) ok = ok && bj < sqrt(300.0);
                early += r1.stop == GCHOL_REFINE_SLOW && r1.preconds < kBudget;
                const testing_result_t res = testing_record(ok ? TESTING_PASSED : TESTING_FAILED);
                printf("%5d %4s %7.0e %4s %7.1e | %5lld %7lld | %5lld %7lld %4d  %s\n", 300,
                       fam_name[fam], ks[k], emul_name[e],
                       rho_of(e, ldexp(1, -kFp16.bits), p.kappa_s), (long long)r0.iter,
                       (long long)r0.preconds, (long long)r1.iter, (long long)r1.preconds,
                       r1.stop, testing_result_name(res));
                problem_free(&p);
            }
    testing_expect(early > 0, "the rate rule stopped %d rung(s) before the budget", early);
}

int main(int argc, char **argv)
{
    int suite = 0, quick = 0;
    testing_list_t ns = { 0 };
    const opt_t opts[] = {
        OPT("--suite", OPT_FLAG, &suite, NULL, "the test suite (also the default)"),
        OPT("--quick", OPT_FLAG, &quick, NULL, "fewer cases (n = 50, 200)"),
        OPT("-n", OPT_LIST, &ns, "LIST", "orders of the convergence table (default 50,200,500;"
            " --quick: those <= 200)", .def = "50,200,500"),
        OPT_END
    };
    const opts_program_t prog = { "[--suite] [--quick] [-n LIST]", NULL, 2 };
    opts_parse(argc, argv, opts, &prog);
    while (quick && ns.count > 1 && ns.v[ns.count - 1] > 200) --ns.count;
    printf("testing_refine_engine%s: the refinement engine on the CPU, emulated factors\n",
           quick ? " --quick" : "");
    printf("berr = ||b - A x||_inf / (||A||_inf ||x||_inf eps), formed again independently; "
           "want: conv / -31 / any\n");
    test_tables(&ns, quick);
    test_special();
    test_budget_rate();
    test_opaque();
    opts_free_list(&ns);
    return testing_summary();
}
