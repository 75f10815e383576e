/*
 * blacs.c -- the ScaLAPACK drop-in's view of the program: a gchol grid over
 * a BLACS grid's ranks, ScaLAPACK's own routines behind the drop-in's, and
 * GCHOL_SCALAPACK. BLACS and ScaLAPACK are the program's, found at run time.
 */
#define _GNU_SOURCE
#include "scalapack_api.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

void *gchol_scalapack_next(const char *name) { return dlsym(RTLD_NEXT, name); }

int gchol_scalapack_cpu_only(void)
{
    const char *v = getenv("GCHOL_SCALAPACK");
    return v && !strcmp(v, "scalapack");
}

int gchol_scalapack_grid(int ctxt, gchol_mp_grid_t *grid)
{
    int inited = 0;
    *grid = NULL;
    if (MPI_Initialized(&inited) != MPI_SUCCESS || !inited) return -1;
    return gchol_mp_grid_from_blacs(ctxt, grid) == GCHOL_SUCCESS && *grid ? 0 : -1;
}
