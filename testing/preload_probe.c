/*
 * preload_probe.c -- an ordinary LAPACKE program, linked with LAPACKE and
 * OpenBLAS only (not with gchol): it factors and solves one SPD system and
 * prints "info <k> solve <ratio>". testing_preload.sh runs it with
 * LD_PRELOAD=lib/libgchol_lapack.so to check that the shim takes an
 * unchanged program's calls. With PROBE_CHDIR set it first changes to that
 * directory (a relative LD_PRELOAD path must still find the GPU engine).
 *   preload_probe n
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cblas.h>
#include <lapacke.h>

int main(int argc, char **argv)
{
    const int n = argc > 1 ? atoi(argv[1]) : 1000, nrhs = 3;
    double *a = malloc((size_t)n * n * 8), *a0 = malloc((size_t)n * n * 8);
    double *b = malloc((size_t)n * nrhs * 8), *x = malloc((size_t)n * nrhs * 8);
    if (!a || !a0 || !b || !x || n < 1) return 2;
    const char *dir = getenv("PROBE_CHDIR");
    if (dir && *dir && chdir(dir) != 0) return 3;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            a[i + (size_t)j * n] = (i == j ? n : 0) + 1.0 / (1.0 + fabs((double)(i - j))) +
                                   0.25 * sin(0.37 * i * j + 1.0);
    for (int j = 0; j < n; ++j) /* symmetric */
        for (int i = 0; i < j; ++i) a[i + (size_t)j * n] = a[j + (size_t)i * n];
    for (int i = 0; i < n * nrhs; ++i) b[i] = cos(0.1 * i);
    memcpy(a0, a, (size_t)n * n * 8);
    memcpy(x, b, (size_t)n * nrhs * 8);
    lapack_int info = LAPACKE_dposv(LAPACK_COL_MAJOR, 'L', n, nrhs, a, n, x, n);
    /* ||b - A0 x||_inf / (||A0||_inf ||x||_inf n eps) */
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, nrhs, n, -1.0, a0, n, x, n, 1.0, b, n);
    double rn = 0, xn = 0, an = 0;
    for (int i = 0; i < n * nrhs; ++i) { rn = fmax(rn, fabs(b[i])); xn = fmax(xn, fabs(x[i])); }
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j) s += fabs(a0[i + (size_t)j * n]);
        an = fmax(an, s);
    }
    printf("info %d solve %.3e\n", (int)info, rn / (an * xn * n * 2.220446049250313e-16));
    free(a); free(a0); free(b); free(x);
    return 0;
}
