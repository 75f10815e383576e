/*
 * testing_mp_potrf.c -- gchol_mp_?potrf (gchol_mp.h), the distributed
 * Cholesky, under mpirun:
 *
 *   mpirun -np P build/testing/testing_mp_dpotrf [--gpu] [--quick]
 *
 * Every grid of P ranks (1 x P, P x 1 and the square one, both rank
 * orders), block sizes from 1 up, n not a multiple of nb, submatrices
 * (ia, ja > 1), both triangles, the process of block 0 moved off (0, 0);
 * SPD matrices (B B^T / n + I / 2) and ones that fail: a negative or NaN
 * pivot at column k, a NaN below the diagonal. Each rank builds the same
 * global matrix (the other triangle of sub(A) NaN, the rest random), keeps
 * its block-cyclic part with NaN padding rows, and factors: with the CPU
 * local operations (the algorithm and its communication, on any machine),
 * or with --gpu the public routine on each rank's GPU (gchol_mp_use_local_gpu:
 * one of its own where the node has as many as ranks, else shared). Then, with the factor assembled on every rank:
 *   info equal to reference LAPACK's and the same on every rank;
 *   LAPACK's residual ratio ||A - L L^T|| / (n ||A|| eps) < 30 when 0;
 *   every local entry outside sub(A)'s triangle, and the padding, bit for
 *   bit unchanged.
 * Also the argument checks, agreed over the grid, and without a GPU the
 * public routine's GCHOL_ERR_NO_DEVICE on every rank. Rank 0 prints; the
 * last line is "SUMMARY passed=P failed=F skipped=S".
 */
#include "mp_ops_cpu.h"
#include "prec.h"
#include "util.h"

#include <cuda_runtime_api.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define MP_POTRF gchol_mp_dpotrf
#else
#define MP_POTRF gchol_mp_spotrf
#endif

static int g_rank, g_gpu;
/* the CPU ops with the direct transport (the drivers' path for NCCL) */
static int g_direct;
static MPI_Comm g_world;

/* rank 0 records and prints what every rank agrees on (all passed) */
static void expect_all(int ok, const char *what)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, g_world);
    if (g_rank == 0) testing_expect(all, "%s", what);
}

typedef enum { K_SPD, K_NEG, K_NAN_PIVOT, K_NAN_BELOW } kind_t;
static const char *kind_name[] = { "spd", "neg", "nan-pivot", "nan-below" };

typedef struct {
    int64_t nprow, npcol;
    char order, uplo;
    int64_t n, nb, ia, ja, rsrc, csrc;
    kind_t kind;
    int64_t k; /* the failing column, 1-based */
} mp_case_t;

/* global (gi, gj) -> its owner's local (li, lj); 1 when this rank owns it */
static int local_of(const gchol_mp_desc_t *d, int64_t myrow, int64_t mycol, int64_t nprow,
                    int64_t npcol, int64_t gi, int64_t gj, int64_t *li, int64_t *lj)
{
    const int64_t I = gi / d->mb, J = gj / d->nb;
    if ((d->rsrc + I) % nprow != myrow || (d->csrc + J) % npcol != mycol) return 0;
    *li = I / nprow * d->mb + gi % d->mb;
    *lj = J / npcol * d->nb + gj % d->nb;
    return 1;
}

#if defined(GCHOL_PREC_D)
#define MP_POTRS gchol_mp_dpotrs
#else
#define MP_POTRS gchol_mp_spotrs
#endif

/* A X = B with the factor just made (local part F): sub(B) at (ib, jb) on
 * A's process row, its columns in blocks of 2 from the last process column;
 * ?potrs's ratio ||B - A X|| / (||A|| ||X|| n eps) < 30 on the gathered X,
 * everything else of B unchanged. */
static void run_solve(const mp_case_t *c, gchol_mp_grid_t grid, const gchol_mp_desc_t *da,
                      FLOAT *F, const double *S, uint64_t seed)
{
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(grid, &nprow, &npcol, &myrow, &mycol);
    const int64_t n = c->n, nb = c->nb, nrhs = 1 + (int64_t)(seed % 3) * 2;
    const int64_t t = 1 + (int64_t)(seed % 2), ib = 1 + t * nb, jb = 2;
    const int64_t iarow = (da->rsrc + (c->ia - 1) / nb) % nprow;
    const int64_t rsrc = ((iarow - t) % nprow + nprow) % nprow, csrc = npcol - 1, nbb = 2;
    const int64_t M = ib - 1 + n + 2, N = jb - 1 + nrhs + 1;
    const int64_t locr = gchol_mp_numroc(M, nb, myrow, rsrc, nprow);
    const int64_t locc = gchol_mp_numroc(N, nbb, mycol, csrc, npcol);
    const int64_t lld = (locr > 1 ? locr : 1) + 2, cols = locc > 1 ? locc : 1;
    gchol_mp_desc_t db;
    int64_t st = gchol_mp_desc_init(&db, M, N, nb, nbb, rsrc, csrc, grid, lld);
    FLOAT *B = malloc((size_t)(lld * cols) * sizeof(FLOAT));
    FLOAT *B0 = malloc((size_t)(lld * cols) * sizeof(FLOAT));
    double *Bs = calloc((size_t)(n * nrhs), sizeof(double));
    double *X = calloc((size_t)(n * nrhs), sizeof(double));
    for (int64_t i = 0; i < lld * cols; ++i) B[i] = (FLOAT)NAN;
    for (int64_t lj = 0; lj < locc; ++lj)
        for (int64_t li = 0; li < locr; ++li) {
            const int64_t gi = ((li / nb) * nprow + (myrow - rsrc + nprow) % nprow) * nb + li % nb;
            const int64_t gj = ((lj / nbb) * npcol + (mycol - csrc + npcol) % npcol) * nbb + lj % nbb;
            B[li + lj * lld] = (FLOAT)testing_hash_uniform(seed + 3, gi, gj);
        }
    memcpy(B0, B, (size_t)(lld * cols) * sizeof(FLOAT));
    int64_t info = TESTING_INFO_POISON;
    if (st == GCHOL_SUCCESS && g_gpu) {
        FLOAT *dA = NULL, *dB = NULL;
        const size_t ab = (size_t)(da->lld * (gchol_mp_numroc(da->n, nb, mycol, da->csrc, npcol) > 1
                                                  ? gchol_mp_numroc(da->n, nb, mycol, da->csrc, npcol) : 1)) * sizeof(FLOAT);
        const size_t bb = (size_t)(lld * cols) * sizeof(FLOAT);
        if (cudaMalloc((void **)&dA, ab) != cudaSuccess || cudaMalloc((void **)&dB, bb) != cudaSuccess ||
            cudaMemcpy(dA, F, ab, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(dB, B, bb, cudaMemcpyHostToDevice) != cudaSuccess)
            st = GCHOL_ERR_CUDA;
        if (st == GCHOL_SUCCESS)
            st = MP_POTRS(c->uplo, n, nrhs, dA, c->ia, c->ja, da, dB, ib, jb, &db, &info, grid);
        if (dB && cudaMemcpy(B, dB, bb, cudaMemcpyDeviceToHost) != cudaSuccess && st == 0)
            st = GCHOL_ERR_CUDA;
        cudaFree(dA);
        cudaFree(dB);
    } else if (st == GCHOL_SUCCESS) {
        mp_ops_t ops;
        if (g_direct) PFX(mp_cpu_ops_direct)(&ops, grid);
        else PFX(mp_cpu_ops)(&ops);
        st = PFX(mp_potrs_ops)(&ops, c->uplo, n, nrhs, F, c->ia, c->ja, da, B, ib, jb, &db, grid);
        info = 0;
    }
    /* X and the original sub(B) on every rank; the rest of B unchanged */
    int64_t changed = 0;
    for (int64_t lj = 0; lj < locc; ++lj)
        for (int64_t li = 0; li < lld; ++li) {
            int in = 0;
            if (li < locr) {
                const int64_t gi = ((li / nb) * nprow + (myrow - rsrc + nprow) % nprow) * nb + li % nb;
                const int64_t gj = ((lj / nbb) * npcol + (mycol - csrc + npcol) % npcol) * nbb + lj % nbb;
                const int64_t si = gi - (ib - 1), sj = gj - (jb - 1);
                in = si >= 0 && si < n && sj >= 0 && sj < nrhs;
                if (in) {
                    X[si + sj * n] = (double)B[li + lj * lld];
                    Bs[si + sj * n] = (double)B0[li + lj * lld];
                }
            }
            if (!in && memcmp(&B[li + lj * lld], &B0[li + lj * lld], sizeof(FLOAT)) != 0) ++changed;
        }
    double *Xa = calloc((size_t)(n * nrhs), sizeof(double)), *Ba = calloc((size_t)(n * nrhs), sizeof(double));
    MPI_Allreduce(X, Xa, (int)(n * nrhs), MPI_DOUBLE, MPI_SUM, g_world);
    MPI_Allreduce(Bs, Ba, (int)(n * nrhs), MPI_DOUBLE, MPI_SUM, g_world);
    int64_t changed_all = 0, st_lo = st, st_hi = st;
    MPI_Allreduce(&changed, &changed_all, 1, MPI_INT64_T, MPI_SUM, g_world);
    MPI_Allreduce(&st, &st_lo, 1, MPI_INT64_T, MPI_MIN, g_world);
    MPI_Allreduce(&st, &st_hi, 1, MPI_INT64_T, MPI_MAX, g_world);
    const double ratio = testing_solve_berr('d', c->uplo, n, nrhs, S, n, Ba, n, Xa, n) *
                         testing_eps('d') / testing_eps(PREC_CHAR);
    char what[200];
    snprintf(what, sizeof what, "  potrs nrhs=%lld ib=%lld jb=%lld: st %lld..%lld info %lld ratio %.2e changed %lld",
             (long long)nrhs, (long long)ib, (long long)jb, (long long)st_lo, (long long)st_hi,
             (long long)info, ratio, (long long)changed_all);
    expect_all(st_lo == 0 && st_hi == 0 && info == 0 && changed_all == 0 && ratio >= 0 &&
                   ratio < TESTING_TOL, what);
    free(B); free(B0); free(Bs); free(X); free(Xa); free(Ba);
}

static void run_case(const mp_case_t *c, gchol_mp_grid_t grid, uint64_t seed)
{
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(grid, &nprow, &npcol, &myrow, &mycol);
    const int64_t n = c->n, nb = c->nb, M = c->ia - 1 + n + 5, N = c->ja - 1 + n + 3;
    const int upper = c->uplo == 'U';
    /* sub(A), symmetric, in double; its failure planted in the uplo triangle */
    double *S = malloc((size_t)(n * n) * sizeof(double));
    testing_generate_gram_spd('d', n, S, n, 0.5, seed);
    if (c->kind != K_SPD) {
        const int64_t k = c->k - 1, other = k + 1 < n ? k + 1 : (k > 0 ? k - 1 : k);
        double *at = c->kind == K_NAN_BELOW ? (upper ? &S[(k < other ? k : other) + (k < other ? other : k) * n]
                                                     : &S[(k > other ? k : other) + (k > other ? other : k) * n])
                                            : &S[k + k * n];
        *at = c->kind == K_NEG ? -1.0 : NAN;
    }
    /* the global matrix: sub(A)'s uplo triangle from S, its other triangle
     * NaN, everything else random */
    const int64_t locr = gchol_mp_numroc(M, nb, myrow, c->rsrc, nprow);
    const int64_t locc = gchol_mp_numroc(N, nb, mycol, c->csrc, npcol);
    const int64_t lld = (locr > 1 ? locr : 1) + 3, cols = locc > 1 ? locc : 1;
    FLOAT *A = malloc((size_t)(lld * cols) * sizeof(FLOAT));
    FLOAT *A0 = malloc((size_t)(lld * cols) * sizeof(FLOAT));
    for (int64_t i = 0; i < lld * cols; ++i) A[i] = (FLOAT)NAN; /* padding rows stay NaN */
    gchol_mp_desc_t desc;
    int64_t st = gchol_mp_desc_init(&desc, M, N, nb, nb, c->rsrc, c->csrc, grid, lld);
    for (int64_t gj = 0; gj < N; ++gj)
        for (int64_t gi = 0; gi < M; ++gi) {
            int64_t li, lj;
            if (!local_of(&desc, myrow, mycol, nprow, npcol, gi, gj, &li, &lj)) continue;
            const int64_t si = gi - (c->ia - 1), sj = gj - (c->ja - 1);
            double v = testing_hash_uniform(seed + 1, gi, gj);
            if (si >= 0 && si < n && sj >= 0 && sj < n)
                v = (upper ? si <= sj : si >= sj) ? S[si + sj * n] : NAN;
            A[li + lj * lld] = (FLOAT)v;
        }
    memcpy(A0, A, (size_t)(lld * cols) * sizeof(FLOAT));

    int64_t info = TESTING_INFO_POISON;
    if (st == GCHOL_SUCCESS && g_gpu) {
        FLOAT *dA = NULL;
        const size_t bytes = (size_t)(lld * cols) * sizeof(FLOAT);
        if (cudaMalloc((void **)&dA, bytes) != cudaSuccess ||
            cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice) != cudaSuccess) st = GCHOL_ERR_CUDA;
        if (st == GCHOL_SUCCESS) st = MP_POTRF(c->uplo, n, dA, c->ia, c->ja, &desc, &info, grid);
        if (dA && cudaMemcpy(A, dA, bytes, cudaMemcpyDeviceToHost) != cudaSuccess && st == 0)
            st = GCHOL_ERR_CUDA;
        cudaFree(dA);
    } else if (st == GCHOL_SUCCESS) {
        mp_ops_t ops;
        if (g_direct) PFX(mp_cpu_ops_direct)(&ops, grid);
        else PFX(mp_cpu_ops)(&ops);
        st = PFX(mp_potrf_ops)(&ops, c->uplo, n, A, c->ia, c->ja, &desc, &info, grid);
    }

    /* info: the reference's, on every rank */
    const int64_t want = testing_reference_info('d', c->uplo, n, S, n);
    int64_t lo = info, hi = info;
    MPI_Allreduce(&info, &lo, 1, MPI_INT64_T, MPI_MIN, g_world);
    MPI_Allreduce(&info, &hi, 1, MPI_INT64_T, MPI_MAX, g_world);
    /* untouched: every local entry but sub(A)'s uplo triangle, padding too */
    int64_t changed = 0;
    for (int64_t lj = 0; lj < cols; ++lj)
        for (int64_t li = 0; li < lld; ++li) {
            int inside = 0;
            if (li < locr && lj < locc) {
                const int64_t gi = ((li / nb) * nprow + (myrow - c->rsrc + nprow) % nprow) * nb + li % nb;
                const int64_t gj = ((lj / nb) * npcol + (mycol - c->csrc + npcol) % npcol) * nb + lj % nb;
                const int64_t si = gi - (c->ia - 1), sj = gj - (c->ja - 1);
                inside = si >= 0 && si < n && sj >= 0 && sj < n && (upper ? si <= sj : si >= sj);
            }
            if (!inside && memcmp(&A[li + lj * lld], &A0[li + lj * lld], sizeof(FLOAT)) != 0)
                ++changed;
        }
    int64_t changed_all = 0;
    MPI_Allreduce(&changed, &changed_all, 1, MPI_INT64_T, MPI_SUM, g_world);
    /* the factor on every rank: each sub(A) entry from its owner */
    double resid = 0;
    if (want == 0 && lo == 0 && hi == 0) {
        double *L = calloc((size_t)(n * n), sizeof(double)), *Ls = calloc((size_t)(n * n), sizeof(double));
        for (int64_t sj = 0; sj < n; ++sj)
            for (int64_t si = upper ? 0 : sj; si < (upper ? sj + 1 : n); ++si) {
                int64_t li, lj;
                if (local_of(&desc, myrow, mycol, nprow, npcol, c->ia - 1 + si, c->ja - 1 + sj, &li, &lj))
                    L[si + sj * n] = (double)A[li + lj * lld];
            }
        MPI_Allreduce(L, Ls, (int)(n * n), MPI_DOUBLE, MPI_SUM, g_world);
        /* in the tested precision: A and its factor rounded to it */
        FLOAT *Ap = malloc((size_t)(n * n) * sizeof(FLOAT)), *Lp = malloc((size_t)(n * n) * sizeof(FLOAT));
        for (int64_t i = 0; i < n * n; ++i) { Ap[i] = (FLOAT)S[i]; Lp[i] = (FLOAT)Ls[i]; }
        resid = testing_residual_cpu(PREC_CHAR, c->uplo, n, Ap, n, Lp, n);
        free(L); free(Ls); free(Ap); free(Lp);
    }
    char what[256];
    snprintf(what, sizeof what,
             "%c %lldx%lld%c n=%-4lld nb=%-3lld ia=%-3lld ja=%-3lld src=(%lld,%lld) %-9s "
             "st %lld info %lld..%lld (ref %lld) resid %.2e changed %lld",
             c->uplo, (long long)c->nprow, (long long)c->npcol, c->order, (long long)n,
             (long long)nb, (long long)c->ia, (long long)c->ja, (long long)c->rsrc,
             (long long)c->csrc, kind_name[c->kind], (long long)st, (long long)lo, (long long)hi,
             (long long)want, resid, (long long)changed_all);
    const int ok = st == GCHOL_SUCCESS && lo == want && hi == want && changed_all == 0 &&
                   (want != 0 || (resid >= 0 && resid < TESTING_TOL));
    expect_all(ok, what);
    if (ok && want == 0) run_solve(c, grid, &desc, A, S, seed);
    free(S); free(A); free(A0);
}

/* The argument checks, the same answer on every rank, nothing touched. */
static void run_badargs(gchol_mp_grid_t grid)
{
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(grid, &nprow, &npcol, &myrow, &mycol);
    const int64_t nb = 4, M = 20;
    const int64_t lld = gchol_mp_numroc(M, nb, myrow, 0, nprow) + 1;
    gchol_mp_desc_t d;
    gchol_mp_desc_init(&d, M, M, nb, nb, 0, 0, grid, lld);
    FLOAT *A = calloc((size_t)(lld * M), sizeof(FLOAT));
    int64_t info = TESTING_INFO_POISON;
    struct { const char *what; int64_t want; char uplo; int64_t n, ia, ja; gchol_mp_desc_t d; int null_info; } t[] = {
        { "uplo 'X'", -1, 'X', 8, 1, 1, d, 0 },
        { "n = -1", -2, 'L', -1, 1, 1, d, 0 },
        { "ia = 0", -4, 'L', 8, 0, 1, d, 0 },
        { "ja = 0", -5, 'L', 8, 1, 0, d, 0 },
        { "ia not a block's first row", -4, 'L', 8, 2, 1, d, 0 },
        { "ja not a block's first column", -5, 'U', 8, 1, 3, d, 0 },
        { "ia + n - 1 > M", -603, 'L', 17, 5, 1, d, 0 },
        { "ja + n - 1 > N", -604, 'L', 17, 1, 5, d, 0 },
        { "info NULL", -7, 'L', 8, 1, 1, d, 1 },
    };
    char what[160];
    for (int i = 0; i < TESTING_LEN(t); ++i) {
        const int64_t ret = MP_POTRF(t[i].uplo, t[i].n, A, t[i].ia, t[i].ja, &t[i].d,
                                     t[i].null_info ? NULL : &info, grid);
        snprintf(what, sizeof what, "%s: returns %lld (want %lld)", t[i].what, (long long)ret,
                 (long long)t[i].want);
        expect_all(ret == t[i].want && info == TESTING_INFO_POISON, what);
    }
    /* descriptor fields, ScaLAPACK's -(600 + j) */
    gchol_mp_desc_t bad = d;
    bad.nb = nb + 1; /* mb != nb */
    int64_t ret = MP_POTRF('L', 8, A, 1, 1, &bad, &info, grid);
    snprintf(what, sizeof what, "MB != NB: returns %lld (want -606)", (long long)ret);
    expect_all(ret == -606, what);
    bad = d;
    bad.rsrc = nprow;
    ret = MP_POTRF('L', 8, A, 1, 1, &bad, &info, grid);
    snprintf(what, sizeof what, "RSRC = nprow: returns %lld (want -607)", (long long)ret);
    expect_all(ret == -607, what);
    /* a bad LLD on rank 0 alone: every rank says so */
    bad = d;
    if (myrow == 0 && mycol == 0) bad.lld = 0;
    ret = MP_POTRF('L', 8, A, 1, 1, &bad, &info, grid);
    snprintf(what, sizeof what, "LLD too small on one rank: returns %lld on every rank (want -609)",
             (long long)ret);
    expect_all(ret == -609, what);
    ret = MP_POTRF('L', 8, A, 1, 1, &d, &info, NULL);
    snprintf(what, sizeof what, "grid NULL: returns %lld (want -8)", (long long)ret);
    expect_all(ret == -8, what);
    /* a valid call: on the GPU, or without one a clear status on every rank */
    info = TESTING_INFO_POISON;
    ret = MP_POTRF('L', 0, A, 1, 1, &d, &info, grid);
    snprintf(what, sizeof what, "n = 0: returns %lld, info %lld", (long long)ret, (long long)info);
    expect_all(ret == 0 && info == 0, what);
    if (!g_gpu && !testing_have_gpu()) {
        ret = MP_POTRF('L', 8, A, 1, 1, &d, &info, grid);
        snprintf(what, sizeof what, "no GPU: returns %lld (want GCHOL_ERR_NO_DEVICE)", (long long)ret);
        expect_all(ret == GCHOL_ERR_NO_DEVICE || ret == GCHOL_ERR_DRIVER_TOO_OLD, what);
    }
    /* the transport's setting */
    ret = gchol_mp_grid_set_transport(grid, 7);
    snprintf(what, sizeof what, "set_transport(7): returns %lld (want -2)", (long long)ret);
    expect_all(ret == -2, what);
    ret = gchol_mp_grid_set_transport(NULL, GCHOL_MP_TRANSPORT_MPI);
    snprintf(what, sizeof what, "set_transport(grid NULL): returns %lld (want -1)", (long long)ret);
    expect_all(ret == -1, what);
    ret = gchol_mp_grid_set_transport(grid, GCHOL_MP_TRANSPORT_MPI);
    snprintf(what, sizeof what, "set_transport(MPI): returns %lld (want 0)", (long long)ret);
    expect_all(ret == 0, what);
    if (nprow * npcol > 1) {
        ret = gchol_mp_grid_set_transport(grid, myrow == 0 && mycol == 0 ? GCHOL_MP_TRANSPORT_NCCL
                                                                          : GCHOL_MP_TRANSPORT_MPI);
        snprintf(what, sizeof what, "set_transport: NCCL on one rank, MPI on the others: returns "
                 "%lld (want -2)", (long long)ret);
        expect_all(ret == -2, what);
    }
    if (!testing_have_gpu()) { /* NCCL needs a GPU a rank, whether or not it is found */
        ret = gchol_mp_grid_set_transport(grid, GCHOL_MP_TRANSPORT_NCCL);
        int64_t lo = ret, hi = ret;
        MPI_Allreduce(&ret, &lo, 1, MPI_INT64_T, MPI_MIN, g_world);
        MPI_Allreduce(&ret, &hi, 1, MPI_INT64_T, MPI_MAX, g_world);
        snprintf(what, sizeof what, "set_transport(NCCL) without a GPU: returns %lld..%lld (want "
                 "GCHOL_ERR_NO_DEVICE, or GCHOL_ERR_INVALID_VALUE without NCCL)", (long long)lo,
                 (long long)hi);
        expect_all(lo == hi && (ret == GCHOL_ERR_NO_DEVICE || ret == GCHOL_ERR_INVALID_VALUE), what);
    }
    /* the timeline's setting */
    gchol_trace_t no_events = { NULL, 5, 0 };
    ret = gchol_mp_grid_set_trace(NULL, NULL);
    snprintf(what, sizeof what, "set_trace(grid NULL): returns %lld (want -1)", (long long)ret);
    expect_all(ret == -1, what);
    ret = gchol_mp_grid_set_trace(grid, &no_events);
    snprintf(what, sizeof what, "set_trace(capacity 5, events NULL): returns %lld (want -2)",
             (long long)ret);
    expect_all(ret == -2, what);
    ret = gchol_mp_grid_set_trace(grid, NULL);
    snprintf(what, sizeof what, "set_trace(NULL): returns %lld (want 0)", (long long)ret);
    expect_all(ret == 0, what);
    free(A);
}

/* On the GPU: one factorization's timeline (gchol_mp_grid_set_trace) on
 * this grid, the factor checked as any case's; every event well formed, and
 * with NCCL on several ranks the panels' moves on the side stream. */
static void run_traced(int64_t p, int64_t q, char order, gchol_mp_grid_t grid, uint64_t seed)
{
    enum { CAP = 8192 };
    static gchol_trace_event_t ev[CAP];
    gchol_trace_t tr = { ev, CAP, -1 };
    const int64_t n = 100, nb = 16;
    expect_all(gchol_mp_grid_set_trace(grid, &tr) == GCHOL_SUCCESS, "set_trace(a trace)");
    const mp_case_t c = { p, q, order, 'L', n, nb, 1, 1, 0, 0, K_SPD, 0 };
    run_case(&c, grid, seed);
    (void)gchol_mp_grid_set_trace(grid, NULL);
    int64_t bad = 0, side = 0, moves = 0;
    for (int64_t e = 0; e < tr.count && e < CAP; ++e) {
        const gchol_trace_event_t *x = &ev[e];
        bad += !(x->stream == 0 || x->stream == 1) || x->op < GCHOL_OP_POTRF_DIAG ||
               x->op > GCHOL_OP_COPY || !(x->start_ms >= 0.f && x->end_ms >= x->start_ms) ||
               x->block < 0 || x->block >= n || x->block % nb != 0;
        side += x->stream == 1;
        moves += x->op == GCHOL_OP_BCAST || x->op == GCHOL_OP_GATHER;
    }
    const int want_side = g_direct && p * q > 1;
    char what[256];
    snprintf(what, sizeof what, "timeline: %lld events, %lld malformed, %lld on the side stream, "
             "%lld broadcasts and gathers%s", (long long)tr.count, (long long)bad, (long long)side,
             (long long)moves, want_side ? " (want some on the side stream)" : "");
    expect_all(tr.count > 0 && tr.count <= CAP && bad == 0 && (!want_side || (side > 0 && moves > 0)),
               what);
}

/* numroc against ScaLAPACK's own */
extern int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *np);
static void run_numroc(void)
{
    int bad = 0;
    for (int n = 0; n < 40; n += 3)
        for (int nb = 1; nb < 9; nb += 2)
            for (int np = 1; np < 5; ++np)
                for (int src = 0; src < np; ++src)
                    for (int p = 0; p < np; ++p)
                        bad += numroc_(&n, &nb, &p, &src, &np) !=
                               gchol_mp_numroc(n, nb, p, src, np);
    char what[96];
    snprintf(what, sizeof what, "gchol_mp_numroc equals ScaLAPACK's numroc (%d differ)", bad);
    expect_all(bad == 0, what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    g_world = MPI_COMM_WORLD;
    int size = 1;
    MPI_Comm_rank(g_world, &g_rank);
    MPI_Comm_size(g_world, &size);
    int quick = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--gpu")) g_gpu = 1;
        else if (!strcmp(argv[i], "--quick")) quick = 1;
    }
    if (g_rank == 0)
        printf("gchol_mp_%cpotrf on %d rank%s (%s local operations)\n", PREC_CHAR, size,
               size > 1 ? "s" : "", g_gpu ? "GPU" : "CPU");
    if (g_gpu && !testing_have_gpu()) {
        if (g_rank == 0) {
            testing_skip("--gpu: no GPU");
            testing_summary();
        }
        MPI_Finalize();
        return 0;
    }
    /* a GPU of its own per rank where the node has enough (the NCCL pass) */
    int dev = 0;
    if (g_gpu) expect_all(gchol_mp_use_local_gpu(&dev) == GCHOL_SUCCESS, "gchol_mp_use_local_gpu");
    run_numroc();
    /* the grids: 1 x P, P x 1, and the squarest other, both orders */
    int64_t shapes[3][2] = { { 1, size }, { size, 1 }, { 0, 0 } };
    int nshapes = size > 1 ? 2 : 1;
    for (int64_t r = 2; r * r <= size; ++r)
        if (size % r == 0) { shapes[2][0] = r; shapes[2][1] = size / r; }
    if (shapes[2][0] > 0) nshapes = 3;
    static const int64_t nbs_full[] = { 1, 3, 8, 16, 64 }, ns_full[] = { 1, 7, 37, 100, 161 };
    static const int64_t nbs_quick[] = { 3, 16 }, ns_quick[] = { 7, 37, 100 };
    const int64_t *nbs = quick ? nbs_quick : nbs_full, *ns = quick ? ns_quick : ns_full;
    const int nnb = quick ? 2 : 5, nn = quick ? 3 : 5;
    uint64_t seed = 1000;
    for (g_direct = 0; g_direct <= 1; ++g_direct)
    for (int s = 0; s < nshapes; ++s)
        for (int o = 0; o < 2; ++o) {
            const char order = o ? 'C' : 'R';
            gchol_mp_grid_t grid = NULL;
            int64_t st = gchol_mp_grid_create(g_world, shapes[s][0], shapes[s][1], order, &grid);
            if (st != GCHOL_SUCCESS || !grid) {
                expect_all(0, "gchol_mp_grid_create");
                continue;
            }
            /* on GPUs the direct pass is NCCL's, where every rank has a GPU of its own */
            if (g_gpu && g_direct &&
                (st = gchol_mp_grid_set_transport(grid, GCHOL_MP_TRANSPORT_NCCL)) != GCHOL_SUCCESS) {
                if (g_rank == 0 && s == 0 && o == 0)
                    testing_skip("the NCCL transport: set_transport returns %lld here (NCCL not "
                                 "found, or ranks sharing a GPU)", (long long)st);
                gchol_mp_grid_destroy(grid);
                continue;
            }
            if (g_rank == 0)
                printf("\n-- grid %lldx%lld, rank order %c%s --\n", (long long)shapes[s][0],
                       (long long)shapes[s][1], order,
                       !g_direct ? "" : g_gpu ? ", the NCCL transport"
                                                  : ", panels moved by the direct transport's path");
            if (s == 0 && o == 0 && !g_direct) run_badargs(grid);
            for (int b = 0; b < nnb; ++b)
                for (int i = 0; i < nn; ++i)
                    for (int u = 0; u < 2; ++u) {
                        mp_case_t c = { shapes[s][0], shapes[s][1], order, u ? 'U' : 'L', ns[i],
                                        nbs[b], 1, 1, 0, 0, K_SPD, 0 };
                        /* a submatrix and block 0 elsewhere on every other case */
                        if ((b + i + u) % 2) {
                            c.ia = 1 + nbs[b];
                            c.ja = 1 + 2 * nbs[b];
                            c.rsrc = c.nprow - 1;
                            c.csrc = c.npcol > 1 ? 1 : 0;
                        }
                        run_case(&c, grid, ++seed);
                    }
            if (g_gpu) run_traced(shapes[s][0], shapes[s][1], order, grid, ++seed);
            /* failures at a column inside a block, at a block's first and
             * last, and the last column */
            const int64_t n = quick ? 37 : 100, nb = 8;
            const int64_t ks[] = { 1, 9, 16, 29, n };
            for (int kd = K_NEG; kd <= K_NAN_BELOW; ++kd)
                for (int k = 0; k < TESTING_LEN(ks); ++k)
                    for (int u = 0; u < 2; ++u) {
                        if (kd == K_NAN_BELOW && ks[k] == n) continue; /* nothing below */
                        mp_case_t c = { shapes[s][0], shapes[s][1], order, u ? 'U' : 'L', n, nb,
                                        1 + nb, 1, 0, 0, (kind_t)kd, ks[k] };
                        run_case(&c, grid, ++seed);
                    }
            /* with NCCL, an order where each step's panel work and updates
             * take long enough to let ordering mistakes between the streams
             * show */
            for (int u = 0; g_gpu && g_direct && o == 0 && !quick && u < 2; ++u) {
                mp_case_t c = { shapes[s][0], shapes[s][1], order, u ? 'U' : 'L', 1500, 128,
                                1, 1, 0, 0, K_SPD, 0 };
                run_case(&c, grid, ++seed);
            }
            gchol_mp_grid_destroy(grid);
        }
    int rc = 0;
    if (g_rank == 0) rc = testing_summary();
    MPI_Finalize();
    return rc;
}
