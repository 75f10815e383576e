/*
 * mp.h -- the distributed layer's internals (not installed): the grid, the
 * local operations a distributed driver calls, and the drivers themselves.
 *
 * The drivers (potrf_mp.c) hold the algorithm and the communication; every
 * operation on a rank's local data goes through a mp_ops_t table, so the
 * same driver runs on the GPU (ops_gpu.c) and, in the tests, on the CPU
 * (testing/mp_ops_cpu.c) under mpirun on machines without a GPU.
 */
#ifndef GCHOL_SRC_MP_H
#define GCHOL_SRC_MP_H

#include "gchol_mp.h"

#include <cuda_runtime_api.h>

#include <stdint.h>

struct gchol_mp_grid {
    MPI_Comm all;      /* the grid's ranks, rank = myrow * npcol + mycol     */
    MPI_Comm row;      /* this rank's process row, rank = mycol              */
    MPI_Comm col;      /* this rank's process column, rank = myrow           */
    MPI_Comm owned;    /* a communicator the grid made and frees (BLACS's)   */
    int64_t nprow, npcol, myrow, mycol;
    int device;        /* the CUDA device of this rank                       */
    gchol_queue_t queue;  /* the GPU ops' queue and cuBLAS handle (a         */
    void *blas;           /* cublasHandle_t on its stream), made on first use */
    int transport;        /* GCHOL_MP_TRANSPORT_*                             */
    void *nccl_row, *nccl_col; /* NCCL communicators of row and col (ncclComm_t),
                                  with the NCCL transport                    */
    void *side;        /* the transport's stream beside the queue's (cudaStream_t,
                          high priority), and its two events: */
    void *side_from;   /* the queue's point the side stream next starts from  */
    void *side_done;   /* the side stream's work so far                       */
    int on_side;       /* the transport's operations go on the side stream     */
    gchol_trace_t *trace;  /* gchol_mp_grid_set_trace's, or NULL                */
    void *trace_recs;      /* this call's records (trace_mp.c)                  */
    int64_t trace_count, trace_cap, trace_block;
    int trace_broken;      /* this call's timeline given up (a CUDA or host failure) */
    void *trace_t0;        /* the call's start (cudaEvent_t)                   */
};

/*
 * The local operations, on blocks of the *lower view* of sub(A): element
 * (i, j), i >= j. With trans = 0 a view block is stored as is ('L'); with
 * trans = 1 it is stored transposed ('U'): view block V sits in memory as
 * V^T. Work buffers (dense, leading dimension given) are always in view
 * orientation. "Local" memory is the GPU's for the GPU ops, the host's for
 * the CPU ops. Each returns 0 or a library error.
 */
typedef struct {
    void *ctx;
    int trans;
    /* the view's diagonal block (n x n at a): its lower Cholesky factor;
     * *info as LAPACK's; returns a status (0 or <= -100), never the info */
    int64_t (*potrf)(void *ctx, int trans, int64_t n, void *a, int64_t lda, int64_t *info);
    /* view block B (m x n at b) := B L^-T, L_KK at l as get(lower) left it
     * (stored as the matrix's diagonal block: transposed when trans) */
    int64_t (*trsm)(void *ctx, int trans, int64_t m, int64_t n, const void *l, int64_t ldl,
                    void *b, int64_t ldb);
    /* view diagonal block C (n x n at c) -= A A^T on its lower triangle, A
     * the n x k buffer at a */
    int64_t (*syrk)(void *ctx, int trans, int64_t n, int64_t k, const void *a, int64_t lda,
                    void *c, int64_t ldc);
    /* view block C (m x n at c) -= A B^T, A m x k and B n x k buffers */
    int64_t (*gemm)(void *ctx, int trans, int64_t m, int64_t n, int64_t k, const void *a,
                    int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc);
    /* buffer D (m x n at d, view orientation) := view block S (at s;
     * stored transposed when trans); with lower, S is a diagonal block and
     * only its factor's triangle is copied, as stored, D's other triangle
     * set to zero (S's is never read) */
    int64_t (*get)(void *ctx, int trans, int lower, int64_t m, int64_t n, const void *s,
                   int64_t lds, void *d, int64_t ldd);
    /* plain (not view) local arrays, the right-hand sides and buffers:
     * B (m x n) := L^-1 B (tsolve 0) or L^-T B (tsolve 1), L_KK at l as
     * get(lower) left it */
    int64_t (*trsm_b)(void *ctx, int trans, int tsolve, int64_t m, int64_t n, const void *l,
                      int64_t ldl, void *b, int64_t ldb);
    /* C (m x n) := beta C - op(A) B, op(A) = A (m x k) or, with ta, A^T
     * (A k x m); beta 0 or 1 */
    int64_t (*gemm_b)(void *ctx, int ta, int64_t m, int64_t n, int64_t k, const void *a,
                      int64_t lda, const void *b, int64_t ldb, int beta, void *c, int64_t ldc);
    /* rows x cols between contiguous host memory and local memory (ld) */
    int64_t (*to_host2d)(void *ctx, void *host, const void *local, int64_t ld, int64_t rows,
                         int64_t cols);
    int64_t (*to_local2d)(void *ctx, void *local, int64_t ld, const void *host, int64_t rows,
                          int64_t cols);
    /* host <-> local copies of bytes, and local allocations */
    int64_t (*to_host)(void *ctx, void *host, const void *local, size_t bytes);
    int64_t (*to_local)(void *ctx, void *local, const void *host, size_t bytes);
    int64_t (*alloc)(void *ctx, void **p, size_t bytes);
    void    (*free)(void *ctx, void *p);
    /* waits for every operation issued (the drivers are synchronous) */
    int64_t (*sync)(void *ctx);
    /* The panels' transport between the local memories of a process row
     * (along_col 0) or column (along_col 1), ordered with the operations
     * above; NULL: the drivers move panels through host memory by MPI.
     * bcast: count elements at local from the comm's rank root to all;
     * gatherv: rank p's counts[p] elements (send) to recv + displs[p] on
     * every rank; copy2d: rows x cols between local arrays. */
    int64_t (*bcast)(void *ctx, int along_col, void *local, int64_t count, int root);
    int64_t (*gatherv)(void *ctx, int along_col, const void *send, void *recv, const int *counts,
                       const int *displs);
    int64_t (*copy2d)(void *ctx, void *dst, int64_t ldd, const void *src, int64_t lds,
                      int64_t rows, int64_t cols);
    /* Optional, with the direct transport (NULL: one stream, in order): the
     * transport's operations on a side stream, beside the updates. mark: the
     * point of the operations issued so far; side(1): bcast, gatherv and
     * copy2d go on the side stream, after the mark; side(0): back, the side
     * stream's work so far recorded; wait_side: the operations issued next
     * wait for that work. */
    int64_t (*mark)(void *ctx);
    int64_t (*side)(void *ctx, int on);
    int64_t (*wait_side)(void *ctx);
    /* Optional: the step under way, its block column's first column (for
     * the ops' timeline). */
    void    (*at_step)(void *ctx, int64_t col);
} mp_ops_t;

/* The drivers on checked arguments (n > 0), collective over grid. */
int64_t gchol_dmp_potrf_ops(const mp_ops_t *ops, char uplo, int64_t n, double *A, int64_t ia,
                            int64_t ja, const gchol_mp_desc_t *desc, int64_t *info,
                            gchol_mp_grid_t grid);
int64_t gchol_smp_potrf_ops(const mp_ops_t *ops, char uplo, int64_t n, float *A, int64_t ia,
                            int64_t ja, const gchol_mp_desc_t *desc, int64_t *info,
                            gchol_mp_grid_t grid);

int64_t gchol_dmp_potrs_ops(const mp_ops_t *ops, char uplo, int64_t n, int64_t nrhs,
                            const double *A, int64_t ia, int64_t ja, const gchol_mp_desc_t *desca,
                            double *B, int64_t ib, int64_t jb, const gchol_mp_desc_t *descb,
                            gchol_mp_grid_t grid);
int64_t gchol_smp_potrs_ops(const mp_ops_t *ops, char uplo, int64_t n, int64_t nrhs,
                            const float *A, int64_t ia, int64_t ja, const gchol_mp_desc_t *desca,
                            float *B, int64_t ib, int64_t jb, const gchol_mp_desc_t *descb,
                            gchol_mp_grid_t grid);

/* The GPU ops of a grid (ops_gpu.c): its queue and cuBLAS handle made on
 * first use (GCHOL_ERR_NO_DEVICE without a GPU). */
int64_t gchol_dmp_gpu_ops(gchol_mp_grid_t grid, mp_ops_t *ops);
int64_t gchol_smp_gpu_ops(gchol_mp_grid_t grid, mp_ops_t *ops);
/* Every rank's status over comm: the most negative (panel_mp.c). */
int64_t gchol_mp_step_status(int64_t st, MPI_Comm comm);

/* The NCCL transport (nccl_mp.c): its communicators closed (collective); a broadcast
 * and a gather (counts and displs in elements of elsize bytes, dtype NCCL's)
 * along the grid's rows or columns on stream s. */
void gchol_mp_nccl_close(gchol_mp_grid_t grid);
/* ... or aborted (local: after a failed step, whose peers may have left) */
void gchol_mp_nccl_abort(gchol_mp_grid_t grid);
int64_t gchol_mp_nccl_bcast(gchol_mp_grid_t g, int along_col, void *buf, size_t count, int dtype,
                            int root, cudaStream_t s);
int64_t gchol_mp_nccl_gatherv(gchol_mp_grid_t g, int along_col, const void *send, void *recv,
                              const int *counts, const int *displs, size_t elsize, int dtype,
                              cudaStream_t s);

/* After a factorization through ops failed on this rank: on the NCCL
 * transport its kernels may wait for peers that left, so the communicators
 * are aborted and the streams waited for. */
static inline void mp_ops_abandon(gchol_mp_grid_t grid, const mp_ops_t *ops)
{
    if (!ops->bcast) return;
    gchol_mp_nccl_abort(grid);
    (void)ops->sync(ops->ctx);
}

/* The timeline (trace_mp.c), each a no-op without a trace: the call's
 * start on the queue's stream; an operation's start on stream s, then its
 * end with what it was (stream_id 0 updates, 1 transport); the call's end,
 * every stream synchronized (ok: store the events). Each returns 0: a
 * failure of the timeline's own gives it up (no events), not the call. */
int64_t gchol_mp_trace_start(gchol_mp_grid_t g);
int64_t gchol_mp_trace_begin(gchol_mp_grid_t g, cudaStream_t s);
int64_t gchol_mp_trace_end(gchol_mp_grid_t g, cudaStream_t s, int stream_id, int op, int64_t m,
                           int64_t n, int64_t k);
void gchol_mp_trace_finish(gchol_mp_grid_t g, int ok);

/* The grid's queue and handle (ops_gpu.c); 0 or a library error. */
int64_t gchol_mp_gpu_open(gchol_mp_grid_t grid);
void gchol_mp_gpu_close(gchol_mp_grid_t grid);

/* p?potrf's argument checks (0 or -i, this rank's view; the callers agree
 * over the grid with gchol_mp_agree). */
int64_t gchol_mp_check_potrf(char uplo, int64_t n, const void *A, int64_t ia, int64_t ja,
                             const gchol_mp_desc_t *desc, const int64_t *info,
                             gchol_mp_grid_t grid);
/* p?potrs's (0 or -i, this rank's view). */
int64_t gchol_mp_check_potrs(char uplo, int64_t n, int64_t nrhs, const void *A, int64_t ia,
                             int64_t ja, const gchol_mp_desc_t *desca, const void *B, int64_t ib,
                             int64_t jb, const gchol_mp_desc_t *descb, const int64_t *info,
                             gchol_mp_grid_t grid);
/* The same value on every rank of grid: the negative code of the smallest
 * argument position any rank found bad, else the most negative library
 * error, else code. GCHOL_ERR_COMM if MPI fails. */
int64_t gchol_mp_agree(int64_t code, gchol_mp_grid_t grid);

#endif
