/*
 * bench_mp_resid.h -- bench_mp_potrf's check of each factor it times (included
 * once, by bench_mp_potrf.c): a solve with it, as ScaLAPACK's xdllt checks a
 * factorization too large to multiply back. With b uniform in (-1,1),
 * gchol_mp_?potrs gives x, then r = b - A x from the pristine matrix, and
 *
 *     resid = ||r||_inf / (||A||_inf ||x||_inf n eps)
 *
 * (eps: LAPACK's dlamch('E') or slamch('E')); the factor passes when it is at
 * most 30. A is the whole symmetric matrix: fill_cols writes both triangles
 * and sums each column's magnitudes, whose largest global sum is ||A||_inf.
 */
#ifndef GCHOL_BENCH_MP_RESID_H
#define GCHOL_BENCH_MP_RESID_H

#include <float.h>

#define RESID_THRESHOLD 30.0

/* Every rank's local values v (count, at rows (by_row) or columns of this
 * rank) summed into one global n-vector g on every rank. */
static void allsum_global(const fill_t *f, int by_row, const double *v, int64_t count, double *g)
{
    memset(g, 0, (size_t)f->n * sizeof(double));
    for (int64_t l = 0; l < count; ++l)
        g[by_row ? global_index(l, f->nb, f->nprow, f->myrow)
                 : global_index(l, f->nb, f->npcol, f->mycol)] += v[l];
    MPI_Allreduce(MPI_IN_PLACE, g, (int)f->n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* ||A||_inf from the local column sums fill_cols left in f->colsum: the
 * global column sums' largest (a column's sum is its row's, A symmetric). */
static double matrix_norm_inf(const fill_t *f)
{
    double *g = bench_malloc((size_t)f->n * sizeof(double)), norm = 0;
    allsum_global(f, 0, f->colsum, f->locc, g);
    for (int64_t j = 0; j < f->n; ++j) norm = g[j] > norm ? g[j] : norm;
    free(g);
    return norm;
}

/* The check above, with the factor in dA (as gchol_mp_?potrf left it) and
 * the pristine matrix in src; dA holds A afterwards. *info: potrs's. */
static double solve_residual(const fill_t *f, char uplo, gchol_mp_grid_t grid,
                             const gchol_mp_desc_t *desc, void *dA, const source_t *src,
                             double anorm, int64_t *info)
{
    const int single = f->single;
    const size_t es = single ? sizeof(float) : sizeof(double);
    const int64_t n = f->n, locr = f->locr, locc = f->locc;
    const int64_t locb = gchol_mp_numroc(1, f->nb, f->mycol, 0, f->npcol); /* b's column */
    const int64_t lldb = locr > 1 ? locr : 1;
    double *bg = bench_malloc((size_t)n * sizeof(double));
    double *xg = bench_malloc((size_t)n * sizeof(double));
    double *tmp = bench_malloc((size_t)(locr > locc ? locr : locc) * sizeof(double) + 1);
    void *hv = bench_malloc((size_t)(locr > locc ? locr : locc) * es + 1);
    for (int64_t i = 0; i < n; ++i) bg[i] = testing_hash_uniform(f->seed + 1, i, 0);
    if (single) for (int64_t i = 0; i < n; ++i) bg[i] = (float)bg[i];

    /* x = A \ b, b in the grid's first process column */
    gchol_mp_desc_t descb;
    BENCH_GCHOL(gchol_mp_desc_init(&descb, n, 1, f->nb, f->nb, 0, 0, grid, lldb));
    void *dB = NULL;
    BENCH_CUDA(cudaMalloc(&dB, (size_t)(lldb * (locb > 0 ? locb : 1)) * es));
    for (int64_t li = 0; li < locr * locb; ++li) {
        const double b = bg[global_index(li, f->nb, f->nprow, f->myrow)];
        if (single) ((float *)hv)[li] = (float)b;
        else ((double *)hv)[li] = b;
    }
    BENCH_CUDA(cudaMemcpy(dB, hv, (size_t)(locr * locb) * es, cudaMemcpyHostToDevice));
    if (single)
        BENCH_GCHOL(gchol_mp_spotrs(uplo, n, 1, dA, 1, 1, desc, dB, 1, 1, &descb, info, grid));
    else
        BENCH_GCHOL(gchol_mp_dpotrs(uplo, n, 1, dA, 1, 1, desc, dB, 1, 1, &descb, info, grid));
    BENCH_CUDA(cudaMemcpy(hv, dB, (size_t)(locr * locb) * es, cudaMemcpyDeviceToHost));
    for (int64_t li = 0; li < locr * locb; ++li)
        tmp[li] = single ? ((float *)hv)[li] : ((double *)hv)[li];
    allsum_global(f, 1, tmp, locr * locb, xg);

    /* y = A x: this rank's block times x at its columns, summed over the grid */
    fresh(src, dA);
    for (int64_t lj = 0; lj < locc; ++lj) {
        const double x = xg[global_index(lj, f->nb, f->npcol, f->mycol)];
        if (single) ((float *)hv)[lj] = (float)x;
        else ((double *)hv)[lj] = x;
    }
    void *dx = NULL, *dy = NULL;
    BENCH_CUDA(cudaMalloc(&dx, (size_t)(locc > 0 ? locc : 1) * es));
    BENCH_CUDA(cudaMalloc(&dy, (size_t)(locr > 0 ? locr : 1) * es));
    BENCH_CUDA(cudaMemcpy(dx, hv, (size_t)locc * es, cudaMemcpyHostToDevice));
    BENCH_CUDA(cudaMemset(dy, 0, (size_t)(locr > 0 ? locr : 1) * es));
    if (locr > 0 && locc > 0) {
        cublasHandle_t h;
        BENCH_CUBLAS(cublasCreate(&h));
        const double one_d = 1, zero_d = 0;
        const float one_s = 1, zero_s = 0;
        if (single)
            BENCH_CUBLAS(cublasSgemv_64(h, CUBLAS_OP_N, locr, locc, &one_s, dA, f->lld, dx, 1,
                                        &zero_s, dy, 1));
        else
            BENCH_CUBLAS(cublasDgemv_64(h, CUBLAS_OP_N, locr, locc, &one_d, dA, f->lld, dx, 1,
                                        &zero_d, dy, 1));
        BENCH_CUBLAS(cublasDestroy(h));
    }
    BENCH_CUDA(cudaMemcpy(hv, dy, (size_t)locr * es, cudaMemcpyDeviceToHost));
    for (int64_t li = 0; li < locr; ++li)
        tmp[li] = single ? ((float *)hv)[li] : ((double *)hv)[li];
    double *yg = bench_malloc((size_t)n * sizeof(double));
    allsum_global(f, 1, tmp, locr, yg);

    double rnorm = 0, xnorm = 0;
    int finite = 1;
    for (int64_t i = 0; i < n; ++i) {
        const double r = fabs(bg[i] - yg[i]), x = fabs(xg[i]);
        finite = finite && isfinite(r) && isfinite(x);
        rnorm = r > rnorm ? r : rnorm;
        xnorm = x > xnorm ? x : xnorm;
    }
    const double eps = single ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
    BENCH_CUDA(cudaFree(dB));
    BENCH_CUDA(cudaFree(dx));
    BENCH_CUDA(cudaFree(dy));
    free(bg);
    free(xg);
    free(yg);
    free(tmp);
    free(hv);
    if (!finite || !(anorm > 0) || !(xnorm > 0)) return INFINITY;
    return rnorm / (anorm * xnorm * (double)n * eps);
}

#endif
