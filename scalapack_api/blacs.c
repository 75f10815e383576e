/*
 * blacs.c -- the ScaLAPACK drop-in's view of the program: a gchol grid over
 * a BLACS grid's ranks on the ranks' GPUs, ScaLAPACK's own routines behind
 * the drop-in's, and GCHOL_SCALAPACK*. BLACS and ScaLAPACK are the
 * program's, found at run time.
 */
#define _GNU_SOURCE
#include "scalapack_api.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *gchol_scalapack_next(const char *name) { return dlsym(RTLD_NEXT, name); }

int gchol_scalapack_cpu_only(void)
{
    const char *v = getenv("GCHOL_SCALAPACK");
    return v && !strcmp(v, "scalapack");
}

/* This rank's GPU, once: GCHOL_SCALAPACK_DEVICE's index, or "current" (the
 * program's), else the node-local rank's (gchol_mp_use_local_gpu). */
static void use_gpu_once(void)
{
    static int done = 0;
    if (done) return;
    done = 1;
    const char *v = getenv("GCHOL_SCALAPACK_DEVICE");
    if (v && !strcmp(v, "current")) return;
    char *end = NULL;
    const long d = v && *v ? strtol(v, &end, 10) : -1;
    if (v && *v && end && !*end && d >= 0 && d <= INT_MAX) {
        if (cudaSetDevice((int)d) != cudaSuccess) (void)cudaGetLastError();
        return;
    }
    (void)gchol_mp_use_local_gpu(NULL);
}

int gchol_scalapack_grid(int ctxt, gchol_mp_grid_t *grid)
{
    int inited = 0;
    *grid = NULL;
    if (MPI_Initialized(&inited) != MPI_SUCCESS || !inited) return -1;
    use_gpu_once();
    return gchol_mp_grid_from_blacs(ctxt, grid) == GCHOL_SUCCESS && *grid ? 0 : -1;
}

int gchol_scalapack_nccl(int n)
{
    const char *v = getenv("GCHOL_SCALAPACK_TRANSPORT");
    if (v && !strcmp(v, "mpi")) return 0;
    if (v && !strcmp(v, "nccl")) return 1;
    return n >= kNcclFromN;
}

void gchol_scalapack_report(const char *name, int n, int nrhs, int gpu)
{
    const char *v = getenv("GCHOL_SCALAPACK_VERBOSE");
    if (!v || !*v || !strcmp(v, "0")) return;
    int inited = 0, rank = 0;
    if (MPI_Initialized(&inited) == MPI_SUCCESS && inited) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) return;
    fprintf(stderr, "gchol_scalapack: %s n=%d nrhs=%d %s\n", name, n, nrhs,
            gpu ? "on the GPUs" : "by ScaLAPACK");
}
