/*
 * nccl_mp.c -- the NCCL transport of the distributed layer: NCCL found at
 * run time (libnccl.so.2, dlopen), so that libgchol_mp neither needs it to
 * build nor to load; a communicator per process row and column of a grid,
 * numbered as the grid's MPI ones; gchol_mp_grid_set_transport.
 */
#include "mp.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* NCCL 2's C ABI, the part used here (nccl.h) */
typedef struct { char internal[128]; } mp_nccl_id_t;
typedef int (*nccl_get_id_fn)(mp_nccl_id_t *);
typedef int (*nccl_init_fn)(void **, int, mp_nccl_id_t, int);
typedef int (*nccl_destroy_fn)(void *);
typedef int (*nccl_bcast_fn)(const void *, void *, size_t, int, int, void *, cudaStream_t);
typedef int (*nccl_group_fn)(void);

static struct {
    int loaded; /* 1 found, -1 not found */
    nccl_get_id_fn get_id;
    nccl_init_fn init;
    nccl_destroy_fn destroy;
    nccl_bcast_fn bcast;
    nccl_group_fn group_start, group_end;
    nccl_destroy_fn abort;
} g_nccl;
static pthread_once_t g_nccl_once = PTHREAD_ONCE_INIT;

static void nccl_load(void)
{
    void *h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    g_nccl.loaded = -1;
    if (!h) return;
    g_nccl.get_id = (nccl_get_id_fn)dlsym(h, "ncclGetUniqueId");
    g_nccl.init = (nccl_init_fn)dlsym(h, "ncclCommInitRank");
    g_nccl.destroy = (nccl_destroy_fn)dlsym(h, "ncclCommDestroy");
    g_nccl.bcast = (nccl_bcast_fn)dlsym(h, "ncclBroadcast");
    g_nccl.group_start = (nccl_group_fn)dlsym(h, "ncclGroupStart");
    g_nccl.group_end = (nccl_group_fn)dlsym(h, "ncclGroupEnd");
    g_nccl.abort = (nccl_destroy_fn)dlsym(h, "ncclCommAbort");
    if (g_nccl.get_id && g_nccl.init && g_nccl.destroy && g_nccl.bcast && g_nccl.group_start &&
        g_nccl.group_end && g_nccl.abort)
        g_nccl.loaded = 1;
    else
        dlclose(h);
}

static int nccl_ready(void)
{
    (void)pthread_once(&g_nccl_once, nccl_load);
    return g_nccl.loaded == 1;
}

/* An NCCL communicator over comm's ranks, numbered as in comm: its rank 0
 * makes the id. Collective over comm (the same calls on every rank whatever
 * fails); 0 or a library error of this rank. */
static int64_t comm_init(MPI_Comm comm, void **out)
{
    int rank = 0, size = 0;
    mp_nccl_id_t id;
    memset(&id, 0, sizeof id);
    *out = NULL;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    int64_t st = GCHOL_SUCCESS;
    if (rank == 0 && g_nccl.get_id(&id) != 0) st = GCHOL_ERR_COMM;
    if ((st = gchol_mp_step_status(st, comm)) != GCHOL_SUCCESS) return st;
    if (MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm) != MPI_SUCCESS) return GCHOL_ERR_COMM;
    if (g_nccl.init(out, size, id, rank) != 0) {
        *out = NULL;
        st = GCHOL_ERR_COMM;
    }
    return st;
}

/* destroy: collective (NCCL's own barrier); abort: local, for a failed step */
static void comms_end(gchol_mp_grid_t g, nccl_destroy_fn end)
{
    if (g->nccl_row) (void)end(g->nccl_row);
    if (g->nccl_col) (void)end(g->nccl_col);
    g->nccl_row = g->nccl_col = NULL;
    g->transport = GCHOL_MP_TRANSPORT_MPI;
}

void gchol_mp_nccl_close(gchol_mp_grid_t g) { comms_end(g, g_nccl.destroy); }

void gchol_mp_nccl_abort(gchol_mp_grid_t g) { comms_end(g, g_nccl.abort); }

/* Every rank of the grid on a GPU of its own (their UUIDs differ). */
static int64_t distinct_gpus(gchol_mp_grid_t g)
{
    struct cudaDeviceProp prop;
    int size = 1;
    int64_t st = MPI_Comm_size(g->all, &size) == MPI_SUCCESS ? GCHOL_SUCCESS : GCHOL_ERR_COMM;
    if (st == GCHOL_SUCCESS && !(g->device >= 0 &&
                                 cudaGetDeviceProperties(&prop, g->device) == cudaSuccess))
        st = GCHOL_ERR_NO_DEVICE;
    (void)cudaGetLastError();
    if ((st = gchol_mp_step_status(st, g->all)) != GCHOL_SUCCESS) return st;
    char *uuids = malloc((size_t)size * 16);
    if (!uuids) st = GCHOL_ERR_HOST_ALLOC;
    if ((st = gchol_mp_step_status(st, g->all)) != GCHOL_SUCCESS) { free(uuids); return st; }
    if (MPI_Allgather(prop.uuid.bytes, 16, MPI_BYTE, uuids, 16, MPI_BYTE, g->all) != MPI_SUCCESS)
        st = GCHOL_ERR_COMM;
    for (int a = 0; a < size && st == GCHOL_SUCCESS; ++a)
        for (int b = a + 1; b < size && st == GCHOL_SUCCESS; ++b)
            if (!memcmp(uuids + 16 * a, uuids + 16 * b, 16)) st = GCHOL_ERR_INVALID_VALUE;
    free(uuids);
    return st;
}

int64_t gchol_mp_grid_set_transport(gchol_mp_grid_t grid, int transport)
{
    if (!grid) return -1;
    int64_t st = transport == GCHOL_MP_TRANSPORT_MPI || transport == GCHOL_MP_TRANSPORT_NCCL
                     ? GCHOL_SUCCESS : -2;
    if ((st = gchol_mp_agree(st, grid)) != GCHOL_SUCCESS) return st;
    /* the same value on every rank */
    int lo = transport, hi = transport;
    if (MPI_Allreduce(&transport, &lo, 1, MPI_INT, MPI_MIN, grid->all) != MPI_SUCCESS ||
        MPI_Allreduce(&transport, &hi, 1, MPI_INT, MPI_MAX, grid->all) != MPI_SUCCESS)
        st = GCHOL_ERR_COMM;
    else if (lo != hi)
        st = -2;
    if ((st = gchol_mp_agree(st, grid)) != GCHOL_SUCCESS) return st;
    if (transport == grid->transport) return GCHOL_SUCCESS;
    gchol_mp_nccl_close(grid);
    if (transport == GCHOL_MP_TRANSPORT_MPI) return GCHOL_SUCCESS;
    st = nccl_ready() ? GCHOL_SUCCESS : GCHOL_ERR_INVALID_VALUE;
    if ((st = gchol_mp_agree(st, grid)) != GCHOL_SUCCESS) return st;
    if ((st = gchol_mp_agree(distinct_gpus(grid), grid)) != GCHOL_SUCCESS) return st;
    if ((st = gchol_mp_agree(gchol_mp_gpu_open(grid), grid)) != GCHOL_SUCCESS) return st;
    /* NCCL takes the current device: the grid's, then the caller's again */
    int prev = -1;
    if (cudaGetDevice(&prev) != cudaSuccess || cudaSetDevice(grid->device) != cudaSuccess) {
        (void)cudaGetLastError();
        st = GCHOL_ERR_NO_DEVICE;
    }
    if ((st = gchol_mp_agree(st, grid)) == GCHOL_SUCCESS) {
        /* both on every rank, then one agreement: no rank leaves a collective early */
        const int64_t sr = comm_init(grid->row, &grid->nccl_row);
        const int64_t sc = comm_init(grid->col, &grid->nccl_col);
        st = gchol_mp_agree(sr != GCHOL_SUCCESS ? sr : sc, grid);
        if (st != GCHOL_SUCCESS) gchol_mp_nccl_abort(grid);
        else grid->transport = GCHOL_MP_TRANSPORT_NCCL;
    }
    if (prev >= 0) (void)cudaSetDevice(prev);
    return st;
}

int64_t gchol_mp_nccl_bcast(gchol_mp_grid_t g, int along_col, void *buf, size_t count, int dtype,
                            int root, cudaStream_t s)
{
    void *c = along_col ? g->nccl_col : g->nccl_row;
    return c && g_nccl.bcast(buf, buf, count, dtype, root, c, s) == 0 ? GCHOL_SUCCESS
                                                                      : GCHOL_ERR_COMM;
}

int64_t gchol_mp_nccl_gatherv(gchol_mp_grid_t g, int along_col, const void *send, void *recv,
                              const int *counts, const int *displs, size_t elsize, int dtype,
                              cudaStream_t s)
{
    void *c = along_col ? g->nccl_col : g->nccl_row;
    int me = 0, size = 0;
    MPI_Comm comm = along_col ? g->col : g->row;
    if (!c || MPI_Comm_rank(comm, &me) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return GCHOL_ERR_COMM;
    int bad = g_nccl.group_start() != 0;
    for (int p = 0; p < size && !bad; ++p) {
        if (counts[p] == 0) continue;
        char *dst = (char *)recv + (size_t)displs[p] * elsize;
        bad = g_nccl.bcast(p == me ? send : dst, dst, (size_t)counts[p], dtype, p, c, s) != 0;
    }
    bad = (g_nccl.group_end() != 0) || bad;
    return bad ? GCHOL_ERR_COMM : GCHOL_SUCCESS;
}
