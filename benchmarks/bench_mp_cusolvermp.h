/*
 * bench_mp_cusolvermp.h -- cuSOLVERMp's cusolverMpPotrf as bench_mp_potrf's
 * peer, on the same block-cyclic matrix and grid (included once, by
 * bench_mp_potrf.c, when built with GCHOL_BENCH_CUSOLVERMP: see the Makefile's
 * CUSOLVERMP_HOME). cuSOLVERMp 0.7 and later: its grid over an NCCL
 * communicator, one GPU per rank; where ranks share a GPU the peer is
 * skipped (NCCL takes one rank per GPU).
 */
#ifndef GCHOL_BENCH_MP_CUSOLVERMP_H
#define GCHOL_BENCH_MP_CUSOLVERMP_H

#include <cusolverMp.h>
#include <nccl.h>

#define PEER_TRY(ok, call)                                                                    \
    do {                                                                                      \
        if (ok && !(call)) {                                                                  \
            fprintf(stderr, "cuSOLVERMp peer: %s failed (%s:%d)\n", #call, __FILE__, __LINE__); \
            ok = 0;                                                                           \
        }                                                                                     \
    } while (0)

typedef struct {
    int ok;              /* 1: the peer runs; agreed over the ranks */
    ncclComm_t nccl;
    cudaStream_t stream;
    cusolverMpHandle_t handle;
    cusolverMpGrid_t grid;
} mp_peer_t;

/* Every rank its own GPU (their UUIDs differ), then NCCL over MPI_COMM_WORLD
 * and cuSOLVERMp's row-major p x q grid, as gchol's. */
static void peer_open(mp_peer_t *pr, int rank, int size, int dev, int64_t p, int64_t q)
{
    memset(pr, 0, sizeof *pr);
    struct cudaDeviceProp prop;
    int ok = cudaGetDeviceProperties(&prop, dev) == cudaSuccess;
    char *uuids = calloc((size_t)size, 16);
    ok = ok && uuids;
    if (ok) {
        MPI_Allgather(prop.uuid.bytes, 16, MPI_BYTE, uuids, 16, MPI_BYTE, MPI_COMM_WORLD);
        for (int a = 0; a < size && ok; ++a)
            for (int b = a + 1; b < size && ok; ++b)
                if (!memcmp(uuids + 16 * a, uuids + 16 * b, 16)) ok = 0;
        if (!ok && rank == 0) printf("# cuSOLVERMp: skipped (ranks share a GPU; NCCL takes one each)\n");
    }
    free(uuids);
    ncclUniqueId id;
    if (ok && rank == 0) PEER_TRY(ok, ncclGetUniqueId(&id) == ncclSuccess);
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) return;
    MPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
    PEER_TRY(ok, ncclCommInitRank(&pr->nccl, size, id, rank) == ncclSuccess);
    PEER_TRY(ok, cudaStreamCreate(&pr->stream) == cudaSuccess);
    PEER_TRY(ok, cusolverMpCreate(&pr->handle, dev, pr->stream) == CUSOLVER_STATUS_SUCCESS);
    PEER_TRY(ok, cusolverMpCreateDeviceGrid(pr->handle, &pr->grid, pr->nccl, (int32_t)p, (int32_t)q,
                                            CUSOLVERMP_GRID_MAPPING_ROW_MAJOR) ==
                     CUSOLVER_STATUS_SUCCESS);
    MPI_Allreduce(&ok, &pr->ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0 && pr->ok) {
        int version = 0;
        (void)cusolverMpGetVersion(pr->handle, &version);
        printf("# cuSOLVERMp %d: cusolverMpPotrf on the same matrix and grid\n", version);
    }
}

static void peer_close(mp_peer_t *pr)
{
    if (pr->grid) (void)cusolverMpDestroyGrid(pr->grid);
    if (pr->handle) (void)cusolverMpDestroy(pr->handle);
    if (pr->stream) (void)cudaStreamDestroy(pr->stream);
    if (pr->nccl) (void)ncclCommDestroy(pr->nccl);
    memset(pr, 0, sizeof *pr);
}

/* The median of niter runs after a warm-up, each on a fresh copy of src
 * (this rank's part, leading dimension lld; single: float), the slowest
 * rank's time between barriers; NaN if the peer fails. *info: rank 0's. */
static double peer_time(const mp_peer_t *pr, int single, char uplo, int64_t n, int64_t nb,
                        int64_t lld, const source_t *src, int64_t niter, double *t, int64_t *info)
{
    int ok = pr->ok;
    cusolverMpMatrixDescriptor_t desc = NULL;
    const cudaDataType_t type = single ? CUDA_R_32F : CUDA_R_64F;
    const size_t bytes = src->bytes;
    void *dA = NULL;
    void *dwork = NULL, *hwork = NULL;
    int *dinfo = NULL, hinfo = -1;
    size_t wdev = 0, whost = 0;
    const cublasFillMode_t fill = uplo == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    PEER_TRY(ok, cusolverMpCreateMatrixDesc(&desc, pr->grid, type, n, n, nb, nb, 0, 0, lld) ==
                     CUSOLVER_STATUS_SUCCESS);
    PEER_TRY(ok, cudaMalloc(&dA, bytes) == cudaSuccess);
    PEER_TRY(ok, cudaMalloc((void **)&dinfo, sizeof(int)) == cudaSuccess);
    PEER_TRY(ok, cusolverMpPotrf_bufferSize(pr->handle, fill, n, dA, 1, 1, desc, type, &wdev,
                                            &whost) == CUSOLVER_STATUS_SUCCESS);
    PEER_TRY(ok, cudaMalloc(&dwork, wdev > 0 ? wdev : 1) == cudaSuccess);
    PEER_TRY(ok, (hwork = malloc(whost > 0 ? whost : 1)) != NULL);
    for (int64_t it = 0; it <= niter; ++it) {
        int all = ok;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) { ok = 0; break; }
        fresh(src, dA); /* the same start as gchol's runs */
        PEER_TRY(ok, cudaMemset(dinfo, 0, sizeof(int)) == cudaSuccess);
        PEER_TRY(ok, cudaDeviceSynchronize() == cudaSuccess);
        /* cusolverMpPotrf is collective: every rank calls it, or none */
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) { ok = 0; break; }
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        PEER_TRY(ok, cusolverMpPotrf(pr->handle, fill, n, dA, 1, 1, desc, type, dwork, wdev,
                                     hwork, whost, dinfo) == CUSOLVER_STATUS_SUCCESS);
        PEER_TRY(ok, cudaStreamSynchronize(pr->stream) == cudaSuccess);
        MPI_Barrier(MPI_COMM_WORLD);
        double dt = MPI_Wtime() - t0, worst = dt;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (it > 0) t[it - 1] = worst;
    }
    PEER_TRY(ok, cudaMemcpy(&hinfo, dinfo, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    *info = hinfo;
    if (desc) (void)cusolverMpDestroyMatrixDesc(desc);
    cudaFree(dA);
    cudaFree(dinfo);
    cudaFree(dwork);
    free(hwork);
    int all = ok;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all) return NAN;
    qsort(t, (size_t)niter, sizeof(double), cmp_double);
    return t[niter / 2];
}

#endif
