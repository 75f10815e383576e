/*
 * gchol_mp.h -- distributed Cholesky of gchol over MPI: a matrix in
 * ScaLAPACK's 2D block-cyclic layout across the ranks of a process grid,
 * one GPU per rank (or several ranks sharing one), each rank's local part
 * in its GPU's memory. Panels move between ranks by MPI through host
 * memory, or GPU to GPU by NCCL (gchol_mp_grid_set_transport).
 *
 * Conventions as in gchol.h (which this header includes): column-major,
 * 64-bit sizes, uplo 'L'/'U'. Every routine is collective over the grid's
 * ranks and returns the same value on each: 0, -i for bad argument i (for a
 * descriptor, -(100 i + j) with j its ScaLAPACK field: 3 M, 4 N, 5 MB,
 * 6 NB, 7 RSRC, 8 CSRC, 9 LLD), or a library error <= -100
 * (GCHOL_ERR_COMM when MPI fails). Link with -lgchol_mp -lgchol.
 */
#ifndef GCHOL_MP_H
#define GCHOL_MP_H

#include <mpi.h>

#include "gchol.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A process grid: nprow x npcol ranks of an MPI communicator. */
typedef struct gchol_mp_grid *gchol_mp_grid_t;

/* A matrix descriptor: ScaLAPACK's DESC fields 3-9. Global m x n, blocks
 * mb x nb, block (0, 0) on process row rsrc and column csrc; each rank's
 * local part column-major with leading dimension lld >= max(1, local rows). */
typedef struct {
    int64_t m, n, mb, nb, rsrc, csrc, lld;
} gchol_mp_desc_t;

/* ---------------------------------------------------------------------------
 * gchol_mp_use_local_gpu: makes this rank's GPU current: device
 * (node-local rank) mod (the node's device count), one GPU a rank where
 * there are as many as ranks on the node. The node-local rank comes from the
 * launcher (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, PMIX_LOCAL_RANK,
 * PMI_LOCAL_RANK, SLURM_LOCALID), else it is the rank in MPI_COMM_WORLD.
 *   device (1) receives the device (NULL: not wanted).
 * Local (no communication): call it before gchol_mp_grid_create.
 * GCHOL_ERR_NO_DEVICE without a GPU; GCHOL_ERR_COMM when MPI is not started.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_use_local_gpu(int *device);

/* ---------------------------------------------------------------------------
 * gchol_mp_grid_create: the grid of the first nprow * npcol ranks of comm,
 * rank r at (r / npcol, r % npcol) for order 'R' (row-major, BLACS's
 * default) or (r % nprow, r / nprow) for 'C'. Collective over comm.
 *   comm (1) an MPI communicator of at least nprow * npcol ranks;
 *   nprow (2) >= 1, npcol (3) >= 1; order (4) 'R' or 'C';
 *   grid (5) receives the grid; NULL on the ranks of comm beyond the grid.
 * Each rank works on the CUDA device current when it calls this.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_grid_create(MPI_Comm comm, int64_t nprow, int64_t npcol, char order,
                             gchol_mp_grid_t *grid);
/* ---------------------------------------------------------------------------
 * gchol_mp_grid_from_blacs: the grid of BLACS context ictxt (the same
 * process rows and columns, each rank at its BLACS place), for a program
 * that has BLACS (ScaLAPACK); libgchol_mp finds BLACS at run time. Collective
 * over the BLACS grid's ranks only.
 *   ictxt (1) a BLACS grid context this rank belongs to (else -1);
 *   grid (2) receives the grid.
 * GCHOL_ERR_INVALID_VALUE when the program has no BLACS.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_grid_from_blacs(int ictxt, gchol_mp_grid_t *grid);
/* Collective over the grid's ranks; NULL is a no-op. */
int64_t gchol_mp_grid_destroy(gchol_mp_grid_t grid);
/* The grid's shape and this rank's place in it (local, any argument NULL). */
int64_t gchol_mp_grid_info(gchol_mp_grid_t grid, int64_t *nprow, int64_t *npcol, int64_t *myrow,
                           int64_t *mycol);

/* How gchol_mp_?potrf moves panels between ranks. */
enum {
    GCHOL_MP_TRANSPORT_MPI  = 0, /* through host memory by MPI (a new grid's)   */
    GCHOL_MP_TRANSPORT_NCCL = 1  /* GPU to GPU by NCCL: every rank its own GPU  */
};
/* ---------------------------------------------------------------------------
 * gchol_mp_grid_set_transport: the transport of the grid's factorizations
 * (potrs moves its blocks by MPI either way). Collective over the grid.
 *   grid (1); transport (2) GCHOL_MP_TRANSPORT_MPI or _NCCL.
 * NCCL is found at run time (libnccl.so.2); GCHOL_ERR_INVALID_VALUE where it
 * is not, or where two ranks share a GPU (NCCL takes one rank per GPU);
 * GCHOL_ERR_NO_DEVICE where a rank has no GPU; GCHOL_ERR_COMM when NCCL's
 * setup fails; -2 also when the ranks pass different values. A failed switch
 * to NCCL, or a factorization failing with a library error on it, leaves the
 * grid on MPI.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_grid_set_transport(gchol_mp_grid_t grid, int transport);

/* ---------------------------------------------------------------------------
 * gchol_mp_grid_set_trace: this rank's timeline of the grid's next
 * factorizations (gchol_mp_?potrf), from CUDA events: an event for each local
 * operation, stream 0 the updates' stream (GCHOL_OP_POTRF_DIAG, TRSM, SYRK,
 * GEMM, GCHOL_OP_COPY, and with NCCL the diagonal block's GCHOL_OP_BCAST),
 * stream 1 the transport's side stream (GCHOL_OP_BCAST, GATHER, COPY; with
 * the NCCL transport), block the first column of the step's block column in
 * sub(A)'s view, times from the call's start on this rank. Local, not
 * collective.
 *   grid (1); trace (2) caller-owned (gchol.h), its count set by each
 *       factorization (events past capacity are not stored), or NULL: none.
 * Host-side panel moves (the MPI transport) are not events; count is 0 when
 * the timeline could not be recorded (the factorization goes on). Costs a
 * little time.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_grid_set_trace(gchol_mp_grid_t grid, gchol_trace_t *trace);

/* ScaLAPACK's NUMROC: the rows (or columns) of an n-long dimension in
 * blocks of nb that process iproc of nprocs holds when block 0 is on
 * isrcproc. */
int64_t gchol_mp_numroc(int64_t n, int64_t nb, int64_t iproc, int64_t isrcproc, int64_t nprocs);

/* ---------------------------------------------------------------------------
 * gchol_mp_desc_init: fills desc as ScaLAPACK's DESCINIT and checks it.
 *   desc (1); m (2) >= 0; n (3) >= 0; mb (4) >= 1; nb (5) >= 1;
 *   rsrc (6) in [0, nprow); csrc (7) in [0, npcol); grid (8);
 *   lld (9) >= max(1, this rank's local rows).
 * Local (no communication).
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_desc_init(gchol_mp_desc_t *desc, int64_t m, int64_t n, int64_t mb, int64_t nb,
                           int64_t rsrc, int64_t csrc, gchol_mp_grid_t grid, int64_t lld);

/* ---------------------------------------------------------------------------
 * gchol_mp_?potrf: the Cholesky factor of the n x n SPD submatrix
 * sub(A) = A(ia:ia+n-1, ja:ja+n-1) of a distributed matrix, as ScaLAPACK's
 * p?potrf.
 *   uplo (1) 'L' (A = L L^T, L into the lower triangle of sub(A)) or 'U'
 *       (A = U^T U); the other triangle is neither read nor written;
 *   n (2) >= 0;
 *   dA (3) this rank's local part of A, device memory (lld x its local
 *       columns); not NULL where this rank holds part of sub(A);
 *   ia (4), ja (5) >= 1, each the first row / column of a block
 *       ((ia - 1) % mb == 0, (ja - 1) % nb == 0);
 *   desca (6) A's descriptor: mb = nb, ia + n - 1 <= m, ja + n - 1 <= n;
 *   info (7) receives LAPACK's info on every rank: 0, or k > 0 when the
 *       leading minor of order k of sub(A) is not positive definite (a pivot
 *       <= 0 or NaN; the factorization stops there, the block column of
 *       that pivot and those after it are then unspecified);
 *   grid (8).
 * Synchronous. Arguments are checked in order on every rank and agreed
 * over the grid before any GPU work; nothing is touched on failure.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_dpotrf(char uplo, int64_t n, double *dA, int64_t ia, int64_t ja,
                        const gchol_mp_desc_t *desca, int64_t *info, gchol_mp_grid_t grid);
int64_t gchol_mp_spotrf(char uplo, int64_t n, float *dA, int64_t ia, int64_t ja,
                        const gchol_mp_desc_t *desca, int64_t *info, gchol_mp_grid_t grid);

/* ---------------------------------------------------------------------------
 * gchol_mp_?potrs: A X = B with the Cholesky factor of sub(A) from
 * gchol_mp_?potrf, as ScaLAPACK's p?potrs: sub(B) = B(ib:ib+n-1,
 * jb:jb+nrhs-1) is overwritten with X.
 *   uplo (1), n (2) as potrf; nrhs (3) >= 0;
 *   dA (4), ia (5), ja (6), desca (7): the factor, as potrf left it
 *       (desca's mb = nb, ia and ja the first of a block);
 *   dB (8) this rank's local part of B, device memory;
 *   ib (9), jb (10) >= 1: sub(B)'s rows start a block on A's process row
 *       ((ib - 1) % mb_B == 0, the same process row as ia);
 *   descb (11): mb_B = nb_A;
 *   info (12) receives 0 on every rank; grid (13).
 * Synchronous; arguments checked and agreed as potrf's.
 * ------------------------------------------------------------------------- */
int64_t gchol_mp_dpotrs(char uplo, int64_t n, int64_t nrhs, const double *dA, int64_t ia,
                        int64_t ja, const gchol_mp_desc_t *desca, double *dB, int64_t ib,
                        int64_t jb, const gchol_mp_desc_t *descb, int64_t *info,
                        gchol_mp_grid_t grid);
int64_t gchol_mp_spotrs(char uplo, int64_t n, int64_t nrhs, const float *dA, int64_t ia,
                        int64_t ja, const gchol_mp_desc_t *desca, float *dB, int64_t ib,
                        int64_t jb, const gchol_mp_desc_t *descb, int64_t *info,
                        gchol_mp_grid_t grid);

#ifdef __cplusplus
}
#endif

#endif
