/*
 * testing_scalapack_dropin.c -- libgchol_scalapack.so's p?potrf_ against
 * ScaLAPACK's own, in one program under mpirun:
 *
 *   mpirun -np P build/testing/testing_scalapack_ddropin
 *
 * The program links the drop-in ahead of ScaLAPACK, as an unchanged
 * ScaLAPACK program does under LD_PRELOAD, and reaches ScaLAPACK's own
 * p?potrf_ by dlsym on its library. On BLACS grids of the P ranks, on the
 * same block-cyclic matrices (SPD, and failing at a column), both factor
 * their own copy: the infos must agree on every rank; where the drop-in
 * left the call to ScaLAPACK (no GPU, or GCHOL_SCALAPACK=scalapack) the
 * local arrays must be equal bit for bit; on a GPU the factors must agree
 * to a few ulps of the order and everything outside sub(A)'s triangle be
 * unchanged. Illegal arguments must give ScaLAPACK's own info. Rank 0
 * prints; the last line is "SUMMARY passed=P failed=F skipped=S".
 */
#define _GNU_SOURCE
#include "prec.h"
#include "util.h"

#include <mpi.h>

#include "gchol_mp.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define POTRF pdpotrf_
#define POTRF_NAME "pdpotrf_"
#else
#define POTRF pspotrf_
#define POTRF_NAME "pspotrf_"
#endif

typedef void (*potrf_fn)(const char *, const int *, FLOAT *, const int *, const int *,
                         const int *, int *, size_t);
typedef void (*posv_fn)(const char *, const int *, const int *, FLOAT *, const int *,
                        const int *, const int *, FLOAT *, const int *, const int *, const int *,
                        int *, size_t);
#if defined(GCHOL_PREC_D)
#define POSV pdposv_
#define POSV_NAME "pdposv_"
#else
#define POSV psposv_
#define POSV_NAME "psposv_"
#endif
void POSV(const char *uplo, const int *n, const int *nrhs, FLOAT *a, const int *ia, const int *ja,
          const int *desca, FLOAT *b, const int *ib, const int *jb, const int *descb, int *info,
          size_t len);
static posv_fn g_real_posv;
void POTRF(const char *uplo, const int *n, FLOAT *a, const int *ia, const int *ja,
           const int *desca, int *info, size_t len);
void Cblacs_get(int, int, int *);
void Cblacs_gridinit(int *, const char *, int, int);
void Cblacs_gridinfo(int, int *, int *, int *, int *);
void Cblacs_gridexit(int);
int numroc_(const int *, const int *, const int *, const int *, const int *);
void descinit_(int *, const int *, const int *, const int *, const int *, const int *,
               const int *, const int *, const int *, int *);

static int g_rank;

static void expect_all(int ok, const char *what)
{
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (g_rank == 0) testing_expect(all, "%s", what);
}

/* Over every rank: the largest difference relative to the largest entry
 * (the difference itself when that is 0), and the count of entries that
 * differ where they may not. */
static double reduce_difference(double diff, double max, int64_t differ, int64_t *differ_all)
{
    double dall = 0, mall = 0;
    MPI_Allreduce(&diff, &dall, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&max, &mall, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&differ, differ_all, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    return mall > 0 ? dall / mall : dall;
}

static int gpu_used(void)
{
    const char *v = getenv("GCHOL_SCALAPACK");
    return testing_have_gpu() && !(v && !strcmp(v, "scalapack"));
}

/* One case on BLACS context ctxt: sub(A) of order n at (ia, ja), blocks
 * nb; fail_k > 0 plants a negative pivot at that column. */
static void run_case(potrf_fn real, int ctxt, char uplo, int n, int nb, int ia, int ja, int fail_k,
                     uint64_t seed)
{
    int nprow, npcol, myrow, mycol, zero = 0, dinfo = 0;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    const int M = ia - 1 + n + 4, N = ja - 1 + n + 2, upper = uplo == 'U';
    const int locr = numroc_(&M, &nb, &myrow, &zero, &nprow);
    const int locc = numroc_(&N, &nb, &mycol, &zero, &npcol);
    int lld = locr > 1 ? locr : 1, desc[9];
    descinit_(desc, &M, &N, &nb, &nb, &zero, &zero, &ctxt, &lld, &dinfo);
    double *S = malloc((size_t)n * n * sizeof(double));
    testing_generate_gram_spd('d', n, S, n, 0.5, seed);
    if (fail_k > 0) S[(fail_k - 1) + (size_t)(fail_k - 1) * n] = -1.0;
    const size_t cnt = (size_t)lld * (locc > 0 ? locc : 1);
    FLOAT *A1 = malloc(cnt * sizeof(FLOAT)), *A2 = malloc(cnt * sizeof(FLOAT));
    for (size_t i = 0; i < cnt; ++i) A1[i] = 0;
    for (int lj = 0; lj < locc; ++lj)
        for (int li = 0; li < locr; ++li) {
            const int gi = (li / nb * nprow + myrow) * nb + li % nb;
            const int gj = (lj / nb * npcol + mycol) * nb + lj % nb;
            const int si = gi - (ia - 1), sj = gj - (ja - 1);
            double v = testing_hash_uniform(seed + 7, gi, gj);
            if (si >= 0 && si < n && sj >= 0 && sj < n) v = S[si + (size_t)sj * n];
            A1[li + (size_t)lj * lld] = (FLOAT)v;
        }
    memcpy(A2, A1, cnt * sizeof(FLOAT));
    int info1 = -12345, info2 = -12345;
    /* posv on B (ia's rows, 3 columns) beside potrf, on other copies */
    const int nrhs = 3, NB3 = 3, lldb = lld;
    const int locb = numroc_(&NB3, &nb, &mycol, &zero, &npcol);
    int descb[9];
    descinit_(descb, &M, &NB3, &nb, &nb, &zero, &zero, &ctxt, &lldb, &dinfo);
    const size_t cntb = (size_t)lldb * (locb > 0 ? locb : 1);
    FLOAT *A3 = malloc(cnt * sizeof(FLOAT)), *A4 = malloc(cnt * sizeof(FLOAT));
    FLOAT *B3 = malloc(cntb * sizeof(FLOAT)), *B4 = malloc(cntb * sizeof(FLOAT));
    memcpy(A3, A1, cnt * sizeof(FLOAT));
    memcpy(A4, A1, cnt * sizeof(FLOAT));
    for (size_t i = 0; i < cntb; ++i) B3[i] = B4[i] = (FLOAT)testing_hash_uniform(seed + 9, (int64_t)i, 0);
    int info3 = -12345, info4 = -12345, one = 1;
    POSV(&uplo, &n, &nrhs, A3, &ia, &ja, desc, B3, &ia, &one, descb, &info3, 1);
    g_real_posv(&uplo, &n, &nrhs, A4, &ia, &ja, desc, B4, &ia, &one, descb, &info4, 1);
    double bmax = 0, bdiff = 0;
    int64_t bdiffer = 0;
    for (size_t i = 0; i < cntb; ++i) {
        if (memcmp(&B3[i], &B4[i], sizeof(FLOAT)) == 0) continue;
        if (!gpu_used()) ++bdiffer;
        const double d = fabs((double)B3[i] - (double)B4[i]);
        if (!(d <= bdiff)) bdiff = d;
        if (fabs((double)B4[i]) > bmax) bmax = fabs((double)B4[i]);
    }
    int64_t bdiffer_all = 0;
    const double brel = reduce_difference(bdiff, bmax, bdiffer, &bdiffer_all);
    char pw[200];
    snprintf(pw, sizeof pw, "%c n=%-3d nb=%-2d posv: info %d (ScaLAPACK %d), B entries differing %lld, "
             "difference %.1e", uplo, n, nb, info3, info4, (long long)bdiffer_all, brel);
    expect_all(info3 == info4 && bdiffer_all == 0 &&
                   (info4 != 0 || brel <= 1000.0 * n * testing_eps(PREC_CHAR)), pw);
    free(A3); free(A4); free(B3); free(B4);

    POTRF(&uplo, &n, A1, &ia, &ja, desc, &info1, 1);
    real(&uplo, &n, A2, &ia, &ja, desc, &info2, 1);
    /* the comparison: bit for bit, or the factor's entries close and the
     * rest unchanged */
    int64_t differ = 0;
    double dmax = 0, amax = 0;
    for (int lj = 0; lj < locc; ++lj)
        for (int li = 0; li < locr; ++li) {
            const size_t p = li + (size_t)lj * lld;
            const int gi = (li / nb * nprow + myrow) * nb + li % nb;
            const int gj = (lj / nb * npcol + mycol) * nb + lj % nb;
            const int si = gi - (ia - 1), sj = gj - (ja - 1);
            const int in = si >= 0 && si < n && sj >= 0 && sj < n && (upper ? si <= sj : si >= sj);
            if (memcmp(&A1[p], &A2[p], sizeof(FLOAT)) == 0) continue;
            if (!in || !gpu_used()) ++differ;
            else {
                const double d = fabs((double)A1[p] - (double)A2[p]);
                if (!(d <= dmax)) dmax = d; /* NaN stays */
            }
            if (in && fabs((double)A2[p]) > amax) amax = fabs((double)A2[p]);
        }
    int64_t differ_all = 0;
    const double rel = reduce_difference(dmax, amax, differ, &differ_all);
    const int ok = info1 == info2 && differ_all == 0 &&
                   (info2 != 0 || rel <= 100.0 * n * testing_eps(PREC_CHAR));
    char what[200];
    snprintf(what, sizeof what,
             "%c %dx%d n=%-3d nb=%-2d ia=%-2d ja=%-2d fail=%-2d info %d (ScaLAPACK %d) "
             "entries differing %lld, factor difference %.1e",
             uplo, nprow, npcol, n, nb, ia, ja, fail_k, info1, info2, (long long)differ_all, rel);
    expect_all(ok, what);
    free(S); free(A1); free(A2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    void *lib = dlopen("libscalapack-openmpi.so.2.2", RTLD_NOW | RTLD_NOLOAD);
    if (!lib) lib = dlopen("libscalapack-openmpi.so", RTLD_NOW | RTLD_NOLOAD);
    potrf_fn real = lib ? (potrf_fn)dlsym(lib, POTRF_NAME) : NULL;
    g_real_posv = lib ? (posv_fn)dlsym(lib, POSV_NAME) : NULL;
    if (g_rank == 0)
        printf("libgchol_scalapack %s against ScaLAPACK's on %d rank%s (%s)\n", POTRF_NAME, size,
               size > 1 ? "s" : "", gpu_used() ? "GPU" : "no GPU: ScaLAPACK takes every call");
    if (!real || real == (potrf_fn)POTRF || !g_real_posv || g_real_posv == (posv_fn)POSV) {
        expect_all(0, "ScaLAPACK's own " POTRF_NAME " found behind the drop-in");
        if (g_rank == 0) testing_summary();
        MPI_Finalize();
        return 1;
    }
    int shapes[3][2] = { { 1, size }, { size, 1 }, { 0, 0 } }, nshapes = size > 1 ? 2 : 1;
    for (int r = 2; r * r <= size; ++r)
        if (size % r == 0) { shapes[2][0] = r; shapes[2][1] = size / r; }
    if (shapes[2][0] > 0) nshapes = 3;
    uint64_t seed = 500;
    for (int s = 0; s < nshapes; ++s) {
        int ctxt = 0;
        Cblacs_get(-1, 0, &ctxt);
        Cblacs_gridinit(&ctxt, "Row", shapes[s][0], shapes[s][1]);
        static const int ns[] = { 1, 13, 40, 97 }, nbs[] = { 2, 5, 16 };
        for (int i = 0; i < 4; ++i)
            for (int b = 0; b < 3; ++b)
                for (int u = 0; u < 2; ++u) {
                    const int off = (i + b + u) % 2;
                    run_case(real, ctxt, u ? 'U' : 'L', ns[i], nbs[b], 1 + off * nbs[b],
                             1 + 2 * off * nbs[b], 0, ++seed);
                }
        for (int u = 0; u < 2; ++u) {
            run_case(real, ctxt, u ? 'U' : 'L', 40, 5, 6, 1, 17, ++seed);
            run_case(real, ctxt, u ? 'U' : 'L', 40, 5, 1, 1, 40, ++seed);
        }
        /* gchol_mp_grid_from_blacs: BLACS's shape and places */
        {
            int pr, pc, mr, mc;
            int64_t gpr = -1, gpc = -1, gmr = -1, gmc = -1;
            Cblacs_gridinfo(ctxt, &pr, &pc, &mr, &mc);
            gchol_mp_grid_t g = NULL;
            const int64_t st = gchol_mp_grid_from_blacs(ctxt, &g);
            if (g) gchol_mp_grid_info(g, &gpr, &gpc, &gmr, &gmc);
            char w[120];
            snprintf(w, sizeof w, "gchol_mp_grid_from_blacs: %lld, %lldx%lld at (%lld,%lld), BLACS %dx%d at (%d,%d)",
                     (long long)st, (long long)gpr, (long long)gpc, (long long)gmr, (long long)gmc,
                     pr, pc, mr, mc);
            expect_all(st == 0 && g && gpr == pr && gpc == pc && gmr == mr && gmc == mc, w);
            gchol_mp_grid_destroy(g);
        }
        /* an illegal n: ScaLAPACK's info (-2) from its own check */
        int n = -1, one = 1, info1 = 0, zero = 0, nb = 4, desc[9], dinfo, lld = 8, m = 8;
        descinit_(desc, &m, &m, &nb, &nb, &zero, &zero, &ctxt, &lld, &dinfo);
        FLOAT a[64] = { 0 };
        POTRF("L", &n, a, &one, &one, desc, &info1, 1);
        char what[96];
        snprintf(what, sizeof what, "n = -1: info %d (ScaLAPACK's -2)", info1);
        expect_all(info1 == -2, what);
        Cblacs_gridexit(ctxt);
    }
    int rc = 0;
    if (g_rank == 0) rc = testing_summary();
    MPI_Finalize();
    return rc;
}
