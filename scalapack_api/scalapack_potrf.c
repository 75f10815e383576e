/*
 * scalapack_potrf.c -- the ScaLAPACK drop-in's pdpotrf_ and pspotrf_
 * (libgchol_scalapack.so): an unchanged ScaLAPACK program's Cholesky
 * factorizations on its ranks' GPUs, through gchol_mp_?potrf on a gchol
 * grid of the same ranks. Each rank's local part goes to its GPU and back.
 *
 * ScaLAPACK itself (the next pdpotrf_, the program's) takes the call, on
 * every rank, whenever the drop-in does not: an argument ScaLAPACK finds
 * illegal (so that PXERBLA and info stay its own), n = 0, a rank without a
 * usable GPU or without the device memory, a failure on the GPU, or
 * GCHOL_SCALAPACK=scalapack. The ranks agree before any of A is written, so
 * a call redone by ScaLAPACK starts from the caller's A. Compiled twice
 * (prec.h).
 */
#include "scalapack_api.h"
#include "mp/mp.h"
#include "prec.h"

#include <cuda_runtime_api.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define DROPIN_NAME "pdpotrf_"
#define DROPIN_POTRF pdpotrf_
#else
#define DROPIN_NAME "pspotrf_"
#define DROPIN_POTRF pspotrf_
#endif

typedef void (*potrf_fn)(const char *, const int *, FLOAT *, const int *, const int *,
                         const int *, int *, size_t);

enum { DTYPE_ = 0, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_ };

/* gchol's factorization of the caller's local part; 0 with *info set, or
 * nonzero (the same on every rank) when ScaLAPACK must take the call */
static int on_gpu(char uplo, int n, FLOAT *a, int ia, int ja, const int *desca, int *info)
{
    if (gchol_scalapack_cpu_only() || desca[DTYPE_] != 1 || n == 0) return 1;
    gchol_mp_grid_t grid = NULL;
    MPI_Comm comm = MPI_COMM_NULL;
    if (gchol_scalapack_grid(desca[CTXT_], &grid, &comm) != 0) return 1;
    const gchol_mp_desc_t d = { desca[M_], desca[N_], desca[MB_], desca[NB_], desca[RSRC_],
                                desca[CSRC_], desca[LLD_] };
    int64_t ginfo = 0;
    int64_t st = gchol_mp_check_potrf(uplo, n, a, ia, ja, &d, &ginfo, grid);
    /* the local part's device copy: lld x the local columns up to sub(A)'s
     * last (what p?potrf asks of the caller's array) */
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(grid, &nprow, &npcol, &myrow, &mycol);
    const int64_t locc = st == 0 ? gchol_mp_numroc(ja + n - 1, d.nb, mycol, d.csrc, npcol) : 0;
    const size_t bytes = (size_t)(d.lld * (locc > 0 ? locc : 1)) * sizeof(FLOAT);
    FLOAT *dA = NULL;
    if (st == 0) st = gchol_mp_gpu_open(grid);
    if (st == 0 && cudaMalloc((void **)&dA, bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        dA = NULL;
        st = GCHOL_ERR_DEVICE_ALLOC;
    }
    if (st == 0 && locc > 0 && cudaMemcpy(dA, a, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        st = GCHOL_ERR_CUDA;
    if ((st = gchol_mp_agree(st, grid)) == 0) {
        mp_ops_t ops;
        st = PFX(mp_gpu_ops)(grid, &ops);
        if ((st = gchol_mp_agree(st, grid)) == 0)
            st = PFX(mp_potrf_ops)(&ops, uplo, n, dA, ia, ja, &d, &ginfo, grid);
        /* the result reaches A only once every rank has its own on the host */
        FLOAT *h = st == 0 && locc > 0 ? malloc(bytes) : NULL;
        if (st == 0 && locc > 0)
            st = !h ? GCHOL_ERR_HOST_ALLOC
               : cudaMemcpy(h, dA, bytes, cudaMemcpyDeviceToHost) != cudaSuccess ? GCHOL_ERR_CUDA
               : 0;
        if ((st = gchol_mp_agree(st, grid)) == 0 && h) memcpy(a, h, bytes);
        free(h);
    }
    if (dA) cudaFree(dA);
    gchol_scalapack_grid_free(grid, comm);
    if (st != 0) return 1;
    *info = (int)ginfo;
    return 0;
}

void DROPIN_POTRF(const char *uplo, const int *n, FLOAT *a, const int *ia, const int *ja,
                  const int *desca, int *info, size_t uplo_len)
{
    (void)uplo_len;
    if (on_gpu(*uplo, *n, a, *ia, *ja, desca, info) == 0) return;
    potrf_fn next = (potrf_fn)gchol_scalapack_next(DROPIN_NAME);
    if (next) next(uplo, n, a, ia, ja, desca, info, 1);
}
