/*
 * bench_scalapack_llt.c -- an ordinary ScaLAPACK client that times p?potrf_
 * the way ScaLAPACK's own xdllt does, at large orders (Debian's xdllt is built
 * with a small TOTMEM and stops near n = 500). It links MPI, ScaLAPACK/BLACS
 * and LAPACK/BLAS only, never gchol:
 *
 *   mpirun -np P bench_scalapack_llt [-n LIST] [--nb NB] [--grid PxQ]
 *              [--uplo L|U] [--prec d|s] [--niter K] [--csv FILE]
 *
 * runs ScaLAPACK on the CPU, and
 *
 *   mpirun -np P -x LD_PRELOAD=/path/to/build/lib/libgchol_scalapack.so \
 *          bench_scalapack_llt ...
 *
 * runs the same, unchanged binary's p?potrf_ and p?potrs_ on the GPUs through
 * gchol's ScaLAPACK drop-in. Defaults: -n 8192, --nb 1024, the squarest grid
 * p x q (p <= q, p*q = P), --uplo L, --prec d, --niter 3. Ranks beyond p*q
 * wait and finalize.
 *
 * For each n: the SPD matrix A(i,j) = u(max(i,j), min(i,j)) + n [i = j], u
 * uniform in (-1,1) from a hash of (seed, i, j) -- both triangles, the same
 * matrix as bench_mp_potrf and testing_generate_spd for any grid -- a warm-up
 * factorization, then --niter timed ones, each on a fresh copy (copied outside
 * the timed region); a run's time is the slowest rank's, between barriers,
 * and the row shows the median. The last factor solves A x = b (p?potrs_) and
 * r = b - A x (p?gemv_ on the pristine A) gives
 * resid = ||r||_inf / (||A||_inf ||x||_inf n eps), ok when <= 30 and info = 0.
 * Exit status 1 when any check failed.
 */
#include <mpi.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The C BLACS interface and the Fortran tools, as libscalapack exports them. */
void Cblacs_pinfo(int *mypnum, int *nprocs);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int notdone);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
               const int *icsrc, const int *ictxt, const int *lld, int *info);

/* Declared over void * so that one pointer type serves both precisions. The
 * trailing size_t is the Fortran hidden length of the character argument
 * (harmless where the callee, like PBLAS's C p?gemv_, takes none). */
typedef void potrf_fn(const char *uplo, const int *n, void *a, const int *ia, const int *ja,
                      const int *desca, int *info, size_t uplo_len);
typedef void potrs_fn(const char *uplo, const int *n, const int *nrhs, const void *a, const int *ia,
                      const int *ja, const int *desca, void *b, const int *ib, const int *jb,
                      const int *descb, int *info, size_t uplo_len);
typedef void gemv_fn(const char *trans, const int *m, const int *n, const void *alpha, const void *a,
                     const int *ia, const int *ja, const int *desca, const void *x, const int *ix,
                     const int *jx, const int *descx, const int *incx, const void *beta, void *y,
                     const int *iy, const int *jy, const int *descy, const int *incy, size_t trans_len);
potrf_fn pdpotrf_, pspotrf_;
potrs_fn pdpotrs_, pspotrs_;
gemv_fn pdgemv_, psgemv_;

typedef struct {
    char name;  /* 'd' or 's' */
    size_t esz; /* bytes of an element: selects everything else */
    double eps; /* unit roundoff */
    potrf_fn *potrf;
    potrs_fn *potrs;
    gemv_fn *gemv;
} prec_t;

static const prec_t PREC_D = { 'd', sizeof(double), DBL_EPSILON / 2, pdpotrf_, pdpotrs_, pdgemv_ };
static const prec_t PREC_S = { 's', sizeof(float), FLT_EPSILON / 2, pspotrf_, pspotrs_, psgemv_ };

enum { MAXN = 64 }; /* orders in one -n list */
typedef struct {
    int ns[MAXN], nn, nb, p, q, niter;
    char uplo;
    const prec_t *pr;
    const char *csv;
} opts_t;

static int g_rank;

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "bench_scalapack_llt: rank %d: out of memory allocating %zu bytes\n", g_rank, bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* splitmix64 finalizer; u(seed, i, j) uniform in (-1,1), independent of the grid. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double hash_uniform(uint64_t seed, int64_t i, int64_t j)
{
    const uint64_t key = mix64(seed + 0x9E3779B97F4A7C15ull) ^ ((uint64_t)i * 0xD6E8FEB86659FD93ull)
                       ^ ((uint64_t)j * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull);
    return 2.0 * ((double)(mix64(key) >> 11) * 0x1.0p-53) - 1.0;
}

static double get(const prec_t *pr, const void *p, int64_t k)
{
    return pr->esz == sizeof(double) ? ((const double *)p)[k] : (double)((const float *)p)[k];
}
static void set(const prec_t *pr, void *p, int64_t k, double v)
{
    if (pr->esz == sizeof(double))
        ((double *)p)[k] = v;
    else
        ((float *)p)[k] = (float)v;
}

/* 0-based global index of local index l (block nb, source process 0). */
static int64_t l2g(int64_t l, int nb, int iproc, int nprocs)
{
    return (l / nb) * nb * nprocs + (int64_t)iproc * nb + l % nb;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void usage(void)
{
    fprintf(stderr, "usage: mpirun -np P bench_scalapack_llt [-n LIST] [--nb NB] [--grid PxQ]\n"
                    "           [--uplo L|U] [--prec d|s] [--niter K] [--csv FILE]\n");
}

/* Every n on this rank's part of the grid; returns 1 when a check failed. */
static int bench(const opts_t *o, MPI_Comm comm, int ctxt, int nprocs)
{
    const prec_t *pr = o->pr;
    const int nb = o->nb, niter = o->niter, p = o->p, q = o->q;
    const uint64_t seed = 42; /* bench_mp_potrf's: the same matrices */
    const char uplo = o->uplo;
    int nprow, npcol, myrow, mycol, failed = 0;
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);

    FILE *out = NULL;
    if (g_rank == 0) {
        const char *pre = getenv("LD_PRELOAD");
        printf("# bench_scalapack_llt: ScaLAPACK p%cpotrf_, %d ranks, grid %dx%d, uplo %c, prec %c, "
               "median of %d runs after a warm-up\n", pr->name, nprocs, p, q, uplo, pr->name, niter);
        printf("# LD_PRELOAD: %s\n", pre && *pre ? pre : "none");
        printf("# %8s %6s %7s %12s %10s %10s %5s %s\n", "n", "nb", "grid", "seconds", "GFLOP/s",
               "resid", "info", "check");
        fflush(stdout);
        if (o->csv) {
            if (!(out = fopen(o->csv, "w")))
                fprintf(stderr, "bench_scalapack_llt: cannot write %s\n", o->csv);
            else
                fprintf(out, "prec,n,nb,p,q,uplo,seconds,gflops,resid,info\n");
        }
    }

    const int izero = 0, ione = 1;
    double *times = xmalloc((size_t)(niter + 1) * sizeof(double));
    for (int t = 0; t < o->nn; ++t) {
        const int n = o->ns[t];
        const int locr = numroc_(&n, &nb, &myrow, &izero, &nprow);
        const int locc = numroc_(&n, &nb, &mycol, &izero, &npcol);
        const int lld = locr > 1 ? locr : 1, lldb = lld;
        int desca[9], descb[9], info;
        descinit_(desca, &n, &n, &nb, &nb, &izero, &izero, &ctxt, &lld, &info);
        descinit_(descb, &n, &ione, &nb, &nb, &izero, &izero, &ctxt, &lldb, &info);

        /* Local sizes in 64 bits: a part can pass 2^31 elements. */
        const size_t bytes = (size_t)lld * (size_t)locc * pr->esz;
        void *A0 = xmalloc(bytes), *A = xmalloc(bytes);
        double *colsum = xmalloc((size_t)n * sizeof(double));
        memset(colsum, 0, (size_t)n * sizeof(double));

        /* Column sums of |A| from the stored values: ||A||_inf = max (A symmetric). */
#ifdef _OPENMP
#pragma omp parallel for schedule(static)
#endif
        for (int64_t lj = 0; lj < locc; ++lj) {
            const int64_t j = l2g(lj, nb, mycol, npcol);
            double s = 0;
            for (int64_t li = 0; li < locr; ++li) {
                const int64_t i = l2g(li, nb, myrow, nprow), k = li + lj * lld;
                set(pr, A0, k, hash_uniform(seed, i > j ? i : j, i > j ? j : i) + (i == j ? (double)n : 0.0));
                s += fabs(get(pr, A0, k));
            }
            colsum[j] = s;
        }
        MPI_Allreduce(MPI_IN_PLACE, colsum, n, MPI_DOUBLE, MPI_SUM, comm);
        double anorm = 0;
        for (int j = 0; j < n; ++j)
            anorm = colsum[j] > anorm ? colsum[j] : anorm;
        free(colsum);

        /* Run 0 is the warm-up (first-touch, library and device start-up). */
        for (int it = 0; it <= niter; ++it) {
            memcpy(A, A0, bytes);
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            pr->potrf(&uplo, &n, A, &ione, &ione, desca, &info, 1);
            MPI_Barrier(comm);
            times[it] = MPI_Wtime() - t0;
            MPI_Allreduce(MPI_IN_PLACE, &times[it], 1, MPI_DOUBLE, MPI_MAX, comm);
        }
        /* ScaLAPACK's info is global; rank 0's, so that no rank skips the solve alone. */
        MPI_Bcast(&info, 1, MPI_INT, 0, comm);
        qsort(times + 1, (size_t)niter, sizeof(double), cmp_double);
        const double sec = niter % 2 ? times[1 + niter / 2] : 0.5 * (times[niter / 2] + times[1 + niter / 2]);
        const double gflops = (double)n * n * n / 3.0 / sec * 1e-9;

        /* Check the last factor: x = A \ b, r = b - A0 x. b lives in process column 0. */
        double resid = NAN;
        if (info == 0) {
            const int locb = mycol == 0 ? locr : 0;
            const size_t bbytes = (size_t)lldb * pr->esz;
            void *x = xmalloc(bbytes), *r = xmalloc(bbytes);
            for (int64_t li = 0; li < locb; ++li)
                set(pr, x, li, hash_uniform(seed + 1, l2g(li, nb, myrow, nprow), 0));
            memcpy(r, x, bbytes);
            int sinfo;
            pr->potrs(&uplo, &n, &ione, A, &ione, &ione, desca, x, &ione, &ione, descb, &sinfo, 1);
            const double dm1 = -1, d1 = 1;
            const float sm1 = -1, s1 = 1;
            const void *alpha = pr->esz == sizeof(double) ? (const void *)&dm1 : (const void *)&sm1;
            const void *beta = pr->esz == sizeof(double) ? (const void *)&d1 : (const void *)&s1;
            pr->gemv("N", &n, &n, alpha, A0, &ione, &ione, desca, x, &ione, &ione, descb, &ione, beta,
                     r, &ione, &ione, descb, &ione, 1);
            double nrm[2] = { 0, 0 }; /* ||r||_inf, ||x||_inf */
            for (int64_t li = 0; li < locb; ++li) {
                nrm[0] = fmax(nrm[0], fabs(get(pr, r, li)));
                nrm[1] = fmax(nrm[1], fabs(get(pr, x, li)));
            }
            MPI_Allreduce(MPI_IN_PLACE, nrm, 2, MPI_DOUBLE, MPI_MAX, comm);
            resid = nrm[0] / (anorm * nrm[1] * n * pr->eps);
            if (sinfo != 0)
                info = sinfo; /* shows as a failure below */
            free(x);
            free(r);
        }
        const int ok = info == 0 && resid <= 30; /* false for NaN too */
        failed |= !ok;
        if (g_rank == 0) {
            char grid[32];
            snprintf(grid, sizeof grid, "%dx%d", p, q);
            printf("  %8d %6d %7s %12.4f %10.2f %10.3g %5d %s\n", n, nb, grid, sec, gflops, resid, info,
                   ok ? "ok" : "FAILED");
            fflush(stdout);
            if (out) {
                fprintf(out, "%c,%d,%d,%d,%d,%c,%.6f,%.3f,%.6g,%d\n", pr->name, n, nb, p, q, uplo, sec,
                        gflops, resid, info);
                fflush(out);
            }
        }
        free(A0);
        free(A);
    }
    free(times);
    if (out)
        fclose(out);
    return failed;
}

int main(int argc, char **argv)
{
    opts_t o = { .nn = 0, .nb = 1024, .p = 0, .q = 0, .niter = 3, .uplo = 'L', .pr = &PREC_D, .csv = NULL };
    int nprocs, bad = 0;
    MPI_Init(&argc, &argv);
    Cblacs_pinfo(&g_rank, &nprocs);

    for (int a = 1; a < argc && !bad; a += 2) { /* every option takes a value */
        const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
        if (!val) {
            bad = 1;
        } else if (!strcmp(opt, "-n")) {
            for (char *s = (char *)val, *end; *s && !bad; s = *end ? end + 1 : end) {
                const long v = strtol(s, &end, 10);
                bad = end == s || v < 1 || v > INT32_MAX || (*end && *end != ',') || o.nn == MAXN;
                if (!bad)
                    o.ns[o.nn++] = (int)v;
            }
        } else if (!strcmp(opt, "--nb")) {
            bad = (o.nb = atoi(val)) < 1;
        } else if (!strcmp(opt, "--grid")) {
            bad = sscanf(val, "%dx%d", &o.p, &o.q) != 2 || o.p < 1 || o.q < 1;
        } else if (!strcmp(opt, "--uplo")) {
            o.uplo = (char)(val[0] & ~0x20); /* upper case */
            bad = (o.uplo != 'L' && o.uplo != 'U') || val[1];
        } else if (!strcmp(opt, "--prec")) {
            o.pr = val[0] == 's' ? &PREC_S : &PREC_D;
            bad = (val[0] != 'd' && val[0] != 's') || val[1];
        } else if (!strcmp(opt, "--niter")) {
            bad = (o.niter = atoi(val)) < 1;
        } else if (!strcmp(opt, "--csv")) {
            o.csv = val;
        } else {
            bad = 1;
        }
    }
    if (o.nn == 0)
        o.ns[o.nn++] = 8192;
    if (o.p == 0) { /* the squarest p x q with p <= q */
        for (o.p = 1; (o.p + 1) * (o.p + 1) <= nprocs; ++o.p) {}
        while (nprocs % o.p)
            --o.p;
        o.q = nprocs / o.p;
    }
    if (!bad && (int64_t)o.p * o.q > nprocs) {
        if (g_rank == 0)
            fprintf(stderr, "bench_scalapack_llt: grid %dx%d needs %d ranks, have %d\n", o.p, o.q,
                    o.p * o.q, nprocs);
        bad = 1;
    }
    if (bad) {
        if (g_rank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }

    int ctxt, nprow, npcol, myrow, mycol;
    Cblacs_get(-1, 0, &ctxt);
    Cblacs_gridinit(&ctxt, "Row", o.p, o.q);
    Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    const int in_grid = g_rank < o.p * o.q && myrow >= 0;
    /* The grid's own communicator, so that extra ranks take no part in reductions. */
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, in_grid ? 0 : MPI_UNDEFINED, g_rank, &comm);
    int failed = 0;
    if (in_grid) {
        failed = bench(&o, comm, ctxt, nprocs);
        Cblacs_gridexit(ctxt);
        MPI_Comm_free(&comm);
    }
    Cblacs_exit(1); /* 1: MPI is finalized below, by the program */
    MPI_Finalize();
    return failed;
}
