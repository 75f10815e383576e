/*
 * grid.c -- process grids, descriptors and the distributed argument checks
 * (gchol_mp.h).
 */
#include "mp.h"

#include <cuda_runtime_api.h>

#include <limits.h>
#include <stdlib.h>

/* The first of the launchers' node-local rank variables that is set. */
static int node_local_rank(void)
{
    static const char *const names[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                         "PMIX_LOCAL_RANK", "PMI_LOCAL_RANK", "SLURM_LOCALID" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        const char *v = getenv(names[i]);
        char *end = NULL;
        const long r = v && *v ? strtol(v, &end, 10) : -1;
        if (v && *v && end && !*end && r >= 0 && r <= INT_MAX) return (int)r;
    }
    return -1;
}

int64_t gchol_mp_use_local_gpu(int *device)
{
    int count = 0, rank = node_local_rank(), inited = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
        (void)cudaGetLastError();
        return GCHOL_ERR_NO_DEVICE;
    }
    if (rank < 0) {
        if (MPI_Initialized(&inited) != MPI_SUCCESS || !inited ||
            MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS)
            return GCHOL_ERR_COMM;
    }
    const int dev = rank % count;
    if (cudaSetDevice(dev) != cudaSuccess) {
        (void)cudaGetLastError();
        return GCHOL_ERR_NO_DEVICE;
    }
    if (device) *device = dev;
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_grid_create(MPI_Comm comm, int64_t nprow, int64_t npcol, char order,
                             gchol_mp_grid_t *grid)
{
    int size = 0, rank = 0;
    if (grid) *grid = NULL;
    if (comm == MPI_COMM_NULL) return -1;
    if (MPI_Comm_size(comm, &size) != MPI_SUCCESS || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    if (nprow < 1) return -2;
    if (npcol < 1 || nprow * npcol > size) return -3;
    if (order != 'R' && order != 'r' && order != 'C' && order != 'c') return -4;
    if (!grid) return -5;
    const int in = rank < nprow * npcol;
    MPI_Comm all = MPI_COMM_NULL;
    if (MPI_Comm_split(comm, in ? 0 : MPI_UNDEFINED, rank, &all) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    if (!in) return GCHOL_SUCCESS;
    struct gchol_mp_grid *g = calloc(1, sizeof *g);
    int64_t st = g ? GCHOL_SUCCESS : GCHOL_ERR_HOST_ALLOC;
    if (g) {
        const int row_major = order == 'R' || order == 'r';
        g->nprow = nprow;
        g->npcol = npcol;
        g->myrow = row_major ? rank / npcol : rank % nprow;
        g->mycol = row_major ? rank % npcol : rank / nprow;
        g->row = g->col = g->all = g->owned = MPI_COMM_NULL;
        if (cudaGetDevice(&g->device) != cudaSuccess) {
            (void)cudaGetLastError();
            g->device = -1; /* no GPU here: the GPU routines say so */
        }
        /* the grid's own numbering: row-major in the grid */
        if (MPI_Comm_split(all, 0, (int)(g->myrow * npcol + g->mycol), &g->all) != MPI_SUCCESS ||
            MPI_Comm_split(all, (int)g->myrow, (int)g->mycol, &g->row) != MPI_SUCCESS ||
            MPI_Comm_split(all, (int)g->mycol, (int)g->myrow, &g->col) != MPI_SUCCESS)
            st = GCHOL_ERR_COMM;
    }
    /* every rank of the grid learns whether all got this far */
    int64_t worst = st;
    if (MPI_Allreduce(&st, &worst, 1, MPI_INT64_T, MPI_MIN, all) != MPI_SUCCESS)
        worst = GCHOL_ERR_COMM;
    MPI_Comm_free(&all);
    if (worst != GCHOL_SUCCESS) {
        gchol_mp_grid_destroy(g);
        return worst;
    }
    *grid = g;
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_grid_destroy(gchol_mp_grid_t g)
{
    if (!g) return GCHOL_SUCCESS;
    int64_t st = GCHOL_SUCCESS;
    gchol_mp_gpu_close(g);
    MPI_Comm *comms[4] = { &g->row, &g->col, &g->all, &g->owned };
    for (int i = 0; i < 4; ++i)
        if (*comms[i] != MPI_COMM_NULL && MPI_Comm_free(comms[i]) != MPI_SUCCESS &&
            st == GCHOL_SUCCESS)
            st = GCHOL_ERR_COMM;
    free(g);
    return st;
}

int64_t gchol_mp_grid_info(gchol_mp_grid_t g, int64_t *nprow, int64_t *npcol, int64_t *myrow,
                           int64_t *mycol)
{
    if (!g) return -1;
    if (nprow) *nprow = g->nprow;
    if (npcol) *npcol = g->npcol;
    if (myrow) *myrow = g->myrow;
    if (mycol) *mycol = g->mycol;
    return GCHOL_SUCCESS;
}

int64_t gchol_mp_numroc(int64_t n, int64_t nb, int64_t iproc, int64_t isrcproc, int64_t nprocs)
{
    if (n <= 0 || nb <= 0 || nprocs <= 0) return 0;
    const int64_t mydist = (nprocs + iproc - isrcproc) % nprocs; /* distance from the source */
    const int64_t nblocks = n / nb;
    int64_t num = nblocks / nprocs * nb;
    const int64_t extra = nblocks % nprocs;
    if (mydist < extra) num += nb;
    else if (mydist == extra) num += n % nb;
    return num;
}

int64_t gchol_mp_desc_init(gchol_mp_desc_t *desc, int64_t m, int64_t n, int64_t mb, int64_t nb,
                           int64_t rsrc, int64_t csrc, gchol_mp_grid_t grid, int64_t lld)
{
    if (!desc) return -1;
    if (m < 0) return -2;
    if (n < 0) return -3;
    if (mb < 1) return -4;
    if (nb < 1) return -5;
    if (!grid) return -8;
    if (rsrc < 0 || rsrc >= grid->nprow) return -6;
    if (csrc < 0 || csrc >= grid->npcol) return -7;
    const int64_t locr = gchol_mp_numroc(m, mb, grid->myrow, rsrc, grid->nprow);
    if (lld < (locr > 1 ? locr : 1)) return -9;
    desc->m = m;
    desc->n = n;
    desc->mb = mb;
    desc->nb = nb;
    desc->rsrc = rsrc;
    desc->csrc = csrc;
    desc->lld = lld;
    return GCHOL_SUCCESS;
}

/* A descriptor's own fields, ScaLAPACK's -(100 pos + field), 0 if good. */
static int64_t check_desc(const gchol_mp_desc_t *d, int64_t pos, gchol_mp_grid_t g)
{
    if (d->m < 0) return -(100 * pos + 3);
    if (d->n < 0) return -(100 * pos + 4);
    if (d->mb < 1) return -(100 * pos + 5);
    if (d->nb < 1) return -(100 * pos + 6);
    if (d->rsrc < 0 || d->rsrc >= g->nprow) return -(100 * pos + 7);
    if (d->csrc < 0 || d->csrc >= g->npcol) return -(100 * pos + 8);
    const int64_t locr = gchol_mp_numroc(d->m, d->mb, g->myrow, d->rsrc, g->nprow);
    if (d->lld < (locr > 1 ? locr : 1)) return -(100 * pos + 9);
    return 0;
}

/* Whether this rank holds part of the m x n submatrix at (i, j). */
static int holds(const gchol_mp_desc_t *d, int64_t i, int64_t j, int64_t m, int64_t n,
                 gchol_mp_grid_t g)
{
    const int64_t r = gchol_mp_numroc(i + m - 1, d->mb, g->myrow, d->rsrc, g->nprow) -
                      gchol_mp_numroc(i - 1, d->mb, g->myrow, d->rsrc, g->nprow);
    const int64_t c = gchol_mp_numroc(j + n - 1, d->nb, g->mycol, d->csrc, g->npcol) -
                      gchol_mp_numroc(j - 1, d->nb, g->mycol, d->csrc, g->npcol);
    return m > 0 && n > 0 && r > 0 && c > 0;
}

int64_t gchol_mp_check_potrf(char uplo, int64_t n, const void *A, int64_t ia, int64_t ja,
                             const gchol_mp_desc_t *d, const int64_t *info, gchol_mp_grid_t g)
{
    /* ScaLAPACK's order: the descriptor's own fields, then the arguments
     * against it (PCHK1MAT), then p?potrf's block alignment and shape */
    int64_t st;
    if (uplo != 'L' && uplo != 'l' && uplo != 'U' && uplo != 'u') return -1;
    if (n < 0) return -2;
    if (!d) return -6;
    if ((st = check_desc(d, 6, g)) != 0) return st;
    if (ia < 1) return -4;
    if (ja < 1) return -5;
    if (n > 0 && ia + n - 1 > d->m) return -603;
    if (n > 0 && ja + n - 1 > d->n) return -604;
    if (d->mb != d->nb) return -606;
    if ((ia - 1) % d->mb != 0) return -4;
    if ((ja - 1) % d->nb != 0) return -5;
    if (!info) return -7;
    /* dA is needed where this rank holds part of sub(A) */
    if (!A && holds(d, ia, ja, n, n, g)) return -3;
    return 0;
}

int64_t gchol_mp_check_potrs(char uplo, int64_t n, int64_t nrhs, const void *A, int64_t ia,
                             int64_t ja, const gchol_mp_desc_t *da, const void *B, int64_t ib,
                             int64_t jb, const gchol_mp_desc_t *db, const int64_t *info,
                             gchol_mp_grid_t g)
{
    int64_t st;
    if (uplo != 'L' && uplo != 'l' && uplo != 'U' && uplo != 'u') return -1;
    if (n < 0) return -2;
    if (nrhs < 0) return -3;
    if (!da) return -7;
    if ((st = check_desc(da, 7, g)) != 0) return st;
    if (ia < 1) return -5;
    if (ja < 1) return -6;
    if (n > 0 && ia + n - 1 > da->m) return -703;
    if (n > 0 && ja + n - 1 > da->n) return -704;
    if (!db) return -11;
    if ((st = check_desc(db, 11, g)) != 0) return st;
    if (ib < 1) return -9;
    if (jb < 1) return -10;
    if (n > 0 && ib + n - 1 > db->m) return -1103;
    if (nrhs > 0 && jb + nrhs - 1 > db->n) return -1104;
    if ((ia - 1) % da->mb != 0) return -5;
    if ((ja - 1) % da->nb != 0) return -6;
    if (da->mb != da->nb) return -706;
    const int64_t iarow = (da->rsrc + (ia - 1) / da->mb) % g->nprow;
    const int64_t ibrow = (db->rsrc + (ib - 1) / db->mb) % g->nprow;
    if ((ib - 1) % db->mb != 0 || ibrow != iarow) return -9;
    if (db->mb != da->nb) return -1106;
    if (!info) return -12;
    if (!A && holds(da, ia, ja, n, n, g)) return -4;
    if (!B && holds(db, ib, jb, n, nrhs, g)) return -8;
    return 0;
}

int64_t gchol_mp_agree(int64_t code, gchol_mp_grid_t g)
{
    /* order: an argument's position (-i as 100 i, -(100 i + j) as is),
     * then library errors, then success */
    int64_t key = INT64_MAX, best = INT64_MAX;
    if (code < 0 && code > -100) key = -code * 100;
    else if (code <= -300) key = -code;
    else if (code < 0) key = 1000000 - code;
    if (MPI_Allreduce(&key, &best, 1, MPI_INT64_T, MPI_MIN, g->all) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    if (best == INT64_MAX) return code;
    if (best >= 1000000) return -(best - 1000000);
    return best % 100 == 0 ? -(best / 100) : -best;
}
