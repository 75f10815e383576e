/*
 * scalapack_chol.c -- the ScaLAPACK drop-in's p?potrf_, p?potrs_ and
 * p?posv_ (libgchol_scalapack.so): an unchanged ScaLAPACK program's Cholesky
 * factorizations and solves on its ranks' GPUs, through gchol_mp_?potrf and
 * gchol_mp_?potrs on a gchol grid of the same ranks. Each rank's local parts
 * go to its GPU and back.
 *
 * ScaLAPACK itself (the next routine of the name, the program's) takes the
 * call, on every rank, whenever the drop-in does not: an argument it finds
 * illegal (so that PXERBLA and info stay its own), n = 0, a rank without a
 * usable GPU or without the device memory, a failure on the GPU, or
 * GCHOL_SCALAPACK=scalapack. The ranks agree before any of A or B is
 * written, so a call redone by ScaLAPACK starts from the caller's arrays.
 * posv solves only where the factorization succeeded, as p?posv. Compiled
 * twice (prec.h).
 */
#include "scalapack_api.h"
#include "mp/mp.h"
#include "prec.h"

#include <cuda_runtime_api.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#if defined(GCHOL_PREC_D)
#define PX(name) pd##name##_
#define PX_NAME(name) "pd" #name "_"
#else
#define PX(name) ps##name##_
#define PX_NAME(name) "ps" #name "_"
#endif

typedef void (*potrf_fn)(const char *, const int *, FLOAT *, const int *, const int *,
                         const int *, int *, size_t);
typedef void (*potrs_fn)(const char *, const int *, const int *, const FLOAT *, const int *,
                         const int *, const int *, FLOAT *, const int *, const int *,
                         const int *, int *, size_t);

enum { DTYPE_ = 0, CTXT_, M_, N_, MB_, NB_, RSRC_, CSRC_, LLD_ };
typedef enum { JOB_POTRF, JOB_POTRS, JOB_POSV } job_t;

/* A caller's local array on the GPU: lld x the local columns up to the
 * submatrix's last (what ScaLAPACK asks of the caller's array). */
typedef struct {
    FLOAT *h, *d, *stage;
    size_t bytes;
} part_t;

static int64_t part_up(part_t *p, FLOAT *h, const gchol_mp_desc_t *d, int64_t jlast,
                       gchol_mp_grid_t g)
{
    int64_t nprow, npcol, myrow, mycol;
    gchol_mp_grid_info(g, &nprow, &npcol, &myrow, &mycol);
    const int64_t locc = gchol_mp_numroc(jlast, d->nb, mycol, d->csrc, npcol);
    p->h = h;
    p->bytes = locc > 0 ? (size_t)(d->lld * locc) * sizeof(FLOAT) : 0;
    if (cudaMalloc((void **)&p->d, p->bytes ? p->bytes : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        p->d = NULL;
        return GCHOL_ERR_DEVICE_ALLOC;
    }
    if (p->bytes && cudaMemcpy(p->d, h, p->bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        return GCHOL_ERR_CUDA;
    return GCHOL_SUCCESS;
}

/* the result to host staging (the caller's array is written only once every
 * rank has its own: part_commit) */
static int64_t part_down(part_t *p)
{
    if (!p->bytes) return GCHOL_SUCCESS;
    if (!(p->stage = malloc(p->bytes))) return GCHOL_ERR_HOST_ALLOC;
    return cudaMemcpy(p->stage, p->d, p->bytes, cudaMemcpyDeviceToHost) == cudaSuccess
               ? GCHOL_SUCCESS : GCHOL_ERR_CUDA;
}

static void part_commit(part_t *p)
{
    if (p->stage) memcpy(p->h, p->stage, p->bytes);
}

static void part_free(part_t *p)
{
    if (p->d) cudaFree(p->d);
    free(p->stage);
}

static gchol_mp_desc_t desc_of(const int *desc)
{
    const gchol_mp_desc_t d = { desc[M_], desc[N_], desc[MB_], desc[NB_], desc[RSRC_],
                                desc[CSRC_], desc[LLD_] };
    return d;
}

/* The job on the GPUs: 0 with *info set, or nonzero (the same on every
 * rank) when ScaLAPACK must take the call. */
static int on_gpu(job_t job, char uplo, int n, int nrhs, FLOAT *a, int ia, int ja,
                  const int *desca, FLOAT *b, int ib, int jb, const int *descb, int *info)
{
    if (gchol_scalapack_cpu_only() || desca[DTYPE_] != 1 || n == 0) return 1;
    if (job != JOB_POTRF && (descb[DTYPE_] != 1 || descb[CTXT_] != desca[CTXT_] || nrhs == 0))
        return 1;
    gchol_mp_grid_t grid = NULL;
    if (gchol_scalapack_grid(desca[CTXT_], &grid) != 0) return 1;
    const gchol_mp_desc_t da = desc_of(desca), db = job == JOB_POTRF ? da : desc_of(descb);
    int64_t ginfo = 0;
    int64_t st = job == JOB_POTRF
                     ? gchol_mp_check_potrf(uplo, n, a, ia, ja, &da, &ginfo, grid)
                     : gchol_mp_check_potrs(uplo, n, nrhs, a, ia, ja, &da, b, ib, jb, &db, &ginfo,
                                            grid);
    part_t pa = { 0 }, pb = { 0 };
    /* the checks and the wish agreed over the grid: all of the grid or none
     * make the collective switch, and a failed one leaves the grid on MPI */
    if (job != JOB_POTRS && (st = gchol_mp_agree(st, grid)) == 0 &&
        gchol_mp_agree(gchol_scalapack_nccl(n) ? 0 : -1, grid) == 0)
        (void)gchol_mp_grid_set_transport(grid, GCHOL_MP_TRANSPORT_NCCL);
    if (st == 0) st = gchol_mp_gpu_open(grid);
    if (st == 0) st = part_up(&pa, a, &da, ja + n - 1, grid);
    if (st == 0 && job != JOB_POTRF) st = part_up(&pb, b, &db, jb + nrhs - 1, grid);
    if ((st = gchol_mp_agree(st, grid)) == 0) {
        mp_ops_t ops; /* set where the agreed status is 0 */
        st = gchol_mp_agree(PFX(mp_gpu_ops)(grid, &ops), grid);
        if (st == 0 && job != JOB_POTRS) {
            st = PFX(mp_potrf_ops)(&ops, uplo, n, pa.d, ia, ja, &da, &ginfo, grid);
            if (st != 0) mp_ops_abandon(grid, &ops);
        }
        if (st == 0 && job != JOB_POTRF && ginfo == 0)
            st = PFX(mp_potrs_ops)(&ops, uplo, n, nrhs, pa.d, ia, ja, &da, pb.d, ib, jb, &db,
                                   grid);
        if (st == 0 && job != JOB_POTRS) st = part_down(&pa);
        if (st == 0 && job != JOB_POTRF) st = part_down(&pb);
        if ((st = gchol_mp_agree(st, grid)) == 0) {
            part_commit(&pa);
            part_commit(&pb);
        }
    }
    part_free(&pa);
    part_free(&pb);
    gchol_mp_grid_destroy(grid);
    if (st != 0) return 1;
    *info = (int)ginfo;
    return 0;
}

void PX(potrf)(const char *uplo, const int *n, FLOAT *a, const int *ia, const int *ja,
               const int *desca, int *info, size_t uplo_len)
{
    (void)uplo_len;
    const int gpu =
        on_gpu(JOB_POTRF, *uplo, *n, 0, a, *ia, *ja, desca, NULL, 0, 0, NULL, info) == 0;
    gchol_scalapack_report(PX_NAME(potrf), *n, 0, gpu);
    if (gpu) return;
    potrf_fn next = (potrf_fn)gchol_scalapack_next(PX_NAME(potrf));
    if (next) next(uplo, n, a, ia, ja, desca, info, 1);
}

void PX(potrs)(const char *uplo, const int *n, const int *nrhs, const FLOAT *a, const int *ia,
               const int *ja, const int *desca, FLOAT *b, const int *ib, const int *jb,
               const int *descb, int *info, size_t uplo_len)
{
    (void)uplo_len;
    const int gpu = on_gpu(JOB_POTRS, *uplo, *n, *nrhs, (FLOAT *)a, *ia, *ja, desca, b, *ib, *jb,
                           descb, info) == 0;
    gchol_scalapack_report(PX_NAME(potrs), *n, *nrhs, gpu);
    if (gpu) return;
    potrs_fn next = (potrs_fn)gchol_scalapack_next(PX_NAME(potrs));
    if (next) next(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info, 1);
}

void PX(posv)(const char *uplo, const int *n, const int *nrhs, FLOAT *a, const int *ia,
              const int *ja, const int *desca, FLOAT *b, const int *ib, const int *jb,
              const int *descb, int *info, size_t uplo_len)
{
    (void)uplo_len;
    const int gpu = on_gpu(JOB_POSV, *uplo, *n, *nrhs, a, *ia, *ja, desca, b, *ib, *jb, descb,
                           info) == 0;
    gchol_scalapack_report(PX_NAME(posv), *n, *nrhs, gpu);
    if (gpu) return;
    potrs_fn next = (potrs_fn)gchol_scalapack_next(PX_NAME(posv));
    if (next) next(uplo, n, nrhs, a, ia, ja, desca, b, ib, jb, descb, info, 1);
}
