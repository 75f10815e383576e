/*
 * blacs.c -- the ScaLAPACK drop-in's view of BLACS: a gchol grid over the
 * ranks of a BLACS grid, and ScaLAPACK's own routines behind the drop-in's.
 * BLACS and ScaLAPACK are the program's; the drop-in finds them at run time.
 */
#define _GNU_SOURCE
#include "scalapack_api.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef void (*gridinfo_fn)(int, int *, int *, int *, int *);
typedef void (*igsum2d_fn)(int, const char *, const char *, int, int, int *, int, int, int);

void *gchol_scalapack_next(const char *name) { return dlsym(RTLD_NEXT, name); }

int gchol_scalapack_cpu_only(void)
{
    const char *v = getenv("GCHOL_SCALAPACK");
    return v && !strcmp(v, "scalapack");
}

int gchol_scalapack_grid(int ctxt, gchol_mp_grid_t *grid, MPI_Comm *comm)
{
    gridinfo_fn gridinfo = (gridinfo_fn)dlsym(RTLD_DEFAULT, "Cblacs_gridinfo");
    igsum2d_fn igsum2d = (igsum2d_fn)dlsym(RTLD_DEFAULT, "Cigsum2d");
    int nprow = -1, npcol = -1, myrow = -1, mycol = -1, inited = 0, wrank = 0;
    *grid = NULL;
    *comm = MPI_COMM_NULL;
    if (!gridinfo || !igsum2d || MPI_Initialized(&inited) != MPI_SUCCESS || !inited) return -1;
    gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0) return -1;
    /* the grid's ranks in MPI_COMM_WORLD, row-major, summed over the grid by
     * BLACS itself (collective over the grid's ranks only) */
    const int np = nprow * npcol;
    int *ranks = calloc((size_t)np, sizeof(int));
    if (!ranks) return -1; /* a few ints */
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    ranks[myrow * npcol + mycol] = wrank;
    igsum2d(ctxt, "All", " ", np, 1, ranks, np, -1, -1);
    MPI_Group world = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
    int ok = MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
             MPI_Group_incl(world, np, ranks, &members) == MPI_SUCCESS &&
             MPI_Comm_create_group(MPI_COMM_WORLD, members, 0x67636c, comm) == MPI_SUCCESS;
    if (world != MPI_GROUP_NULL) MPI_Group_free(&world);
    if (members != MPI_GROUP_NULL) MPI_Group_free(&members);
    free(ranks);
    if (ok) ok = gchol_mp_grid_create(*comm, nprow, npcol, 'R', grid) == GCHOL_SUCCESS && *grid;
    if (!ok) {
        gchol_scalapack_grid_free(*grid, *comm);
        *grid = NULL;
        *comm = MPI_COMM_NULL;
        return -1;
    }
    return 0;
}

void gchol_scalapack_grid_free(gchol_mp_grid_t grid, MPI_Comm comm)
{
    if (grid) gchol_mp_grid_destroy(grid);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
}
