/*
 * grid_blacs.c -- gchol_mp_grid_from_blacs: a gchol grid over the ranks of
 * a BLACS grid, for programs that already have one. BLACS is the
 * program's own (ScaLAPACK's), found at run time: libgchol_mp links none.
 */
#define _GNU_SOURCE
#include "mp.h"

#include <dlfcn.h>
#include <stdlib.h>

typedef void (*gridinfo_fn)(int, int *, int *, int *, int *);
typedef void (*igsum2d_fn)(int, const char *, const char *, int, int, int *, int, int, int);

int64_t gchol_mp_grid_from_blacs(int ictxt, gchol_mp_grid_t *grid)
{
    gridinfo_fn gridinfo = (gridinfo_fn)dlsym(RTLD_DEFAULT, "Cblacs_gridinfo");
    igsum2d_fn igsum2d = (igsum2d_fn)dlsym(RTLD_DEFAULT, "Cigsum2d");
    int nprow = -1, npcol = -1, myrow = -1, mycol = -1, inited = 0, wrank = 0;
    if (!grid) return -2;
    *grid = NULL;
    if (!gridinfo || !igsum2d) return GCHOL_ERR_INVALID_VALUE; /* no BLACS in this program */
    if (MPI_Initialized(&inited) != MPI_SUCCESS || !inited) return GCHOL_ERR_COMM;
    gridinfo(ictxt, &nprow, &npcol, &myrow, &mycol);
    if (nprow < 1 || npcol < 1 || myrow < 0 || mycol < 0) return -1;
    /* the grid's ranks in MPI_COMM_WORLD, row-major, summed by BLACS itself
     * over the grid (collective over the grid's ranks only); then a
     * communicator of them alone, so that no rank outside is waited for */
    const int np = nprow * npcol;
    int *ranks = calloc((size_t)np, sizeof(int));
    if (!ranks) return GCHOL_ERR_HOST_ALLOC; /* a few ints */
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    ranks[myrow * npcol + mycol] = wrank;
    igsum2d(ictxt, "All", " ", np, 1, ranks, np, -1, -1);
    MPI_Group world = MPI_GROUP_NULL, members = MPI_GROUP_NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    int64_t st = MPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS &&
                         MPI_Group_incl(world, np, ranks, &members) == MPI_SUCCESS &&
                         MPI_Comm_create_group(MPI_COMM_WORLD, members, 0x67636c, &comm) ==
                             MPI_SUCCESS
                     ? GCHOL_SUCCESS : GCHOL_ERR_COMM;
    if (world != MPI_GROUP_NULL) MPI_Group_free(&world);
    if (members != MPI_GROUP_NULL) MPI_Group_free(&members);
    free(ranks);
    if (st == GCHOL_SUCCESS) st = gchol_mp_grid_create(comm, nprow, npcol, 'R', grid);
    if (st == GCHOL_SUCCESS && *grid) {
        (*grid)->owned = comm; /* freed with the grid */
        return GCHOL_SUCCESS;
    }
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    return st != GCHOL_SUCCESS ? st : GCHOL_ERR_COMM;
}
