/*
 * shim_probe.c -- a LAPACK caller that links the shim and no LAPACK at all
 * (the situation of a program linked --as-needed, whose only LAPACK
 * references the shim satisfies), or (--plugin lib.so) that loads a plugin
 * with dlopen(RTLD_LOCAL) which calls LAPACK itself (Python, R or MATLAB
 * extensions). Either way dlsym(RTLD_NEXT) from the shim finds no CPU
 * LAPACK; testing_preload.sh checks that the shim finds one all the same.
 * Solves one SPD system with dposv_ and prints "info <k> solve <ratio>",
 * then "cuda_libs <before> <after>": whether the CUDA runtime or cuBLAS was
 * mapped into the process before the call and after it (the shim opens its
 * GPU engine, and with it CUDA, only at its first call routed to the GPU).
 *   shim_probe n | shim_probe --plugin path n
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dposv_(const char *uplo, const int *n, const int *nrhs, double *a, const int *lda,
            double *b, const int *ldb, int *info, size_t uplo_len);

/* 1 if the CUDA runtime or cuBLAS is mapped into this process. */
static int cuda_mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, "libcudart") != NULL || strstr(line, "libcublas") != NULL;
    if (f) fclose(f);
    return found;
}

/* The same solve, as the plugin exports it. */
int probe_solve(int n);

int probe_solve(int n)
{
    const int nrhs = 2;
    double *a = malloc((size_t)n * n * 8), *a0 = malloc((size_t)n * n * 8);
    double *x = malloc((size_t)n * nrhs * 8), *b = malloc((size_t)n * nrhs * 8);
    if (!a || !a0 || !x || !b) return 2;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
            a[i + (size_t)j * n] = (i == j ? n : 0) + 1.0 / (1.0 + fabs((double)(i - j)));
    for (int i = 0; i < n * nrhs; ++i) b[i] = x[i] = sin(0.3 * i + 0.1);
    memcpy(a0, a, (size_t)n * n * 8);
    const int cuda_before = cuda_mapped();
    int info = -1;
    dposv_("L", &n, &nrhs, a, &n, x, &n, &info, 1);
    double rn = 0, xn = 0, an = 0;
    for (int i = 0; i < n; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j) s += fabs(a0[i + (size_t)j * n]);
        an = fmax(an, s);
        for (int k = 0; k < nrhs; ++k) {
            double r = b[i + (size_t)k * n];
            for (int j = 0; j < n; ++j) r -= a0[i + (size_t)j * n] * x[j + (size_t)k * n];
            rn = fmax(rn, fabs(r));
            xn = fmax(xn, fabs(x[i + (size_t)k * n]));
        }
    }
    printf("info %d solve %.3e\n", info, rn / (an * xn * n * 2.220446049250313e-16));
    printf("cuda_libs %d %d\n", cuda_before, cuda_mapped());
    free(a); free(a0); free(x); free(b);
    return 0;
}

#ifndef SHIM_PLUGIN
int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--plugin") == 0) {
        void *h = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
        int (*solve)(int) = h ? (int (*)(int))dlsym(h, "probe_solve") : NULL;
        if (!solve) {
            fprintf(stderr, "cannot load %s: %s\n", argv[2], dlerror());
            return 2;
        }
        return solve(atoi(argv[3]));
    }
    return probe_solve(argc > 1 ? atoi(argv[1]) : 500);
}
#endif
