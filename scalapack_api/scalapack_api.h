/*
 * scalapack_api.h -- the ScaLAPACK drop-in's internals (not installed): the
 * BLACS calls it needs, found at run time in the program's ScaLAPACK, and a
 * gchol grid over a BLACS grid's ranks.
 */
#ifndef GCHOL_SCALAPACK_API_H
#define GCHOL_SCALAPACK_API_H

#include "gchol_mp.h"

/* The gchol grid of BLACS context ctxt (gchol_mp_grid_from_blacs), on this
 * rank's GPU: at the first call, GCHOL_SCALAPACK_DEVICE's (an index, or
 * "current": the program's), else gchol_mp_use_local_gpu's. 0, or -1 when
 * there is none to make (not a grid of this rank, no BLACS, MPI not started
 * or failed): the caller then leaves the call to ScaLAPACK. */
int gchol_scalapack_grid(int ctxt, gchol_mp_grid_t *grid);

/* Order from which the factorization tries the NCCL transport by default:
 * below it, setting up NCCL's communicators would cost more than it saves. */
enum { kNcclFromN = 16384 };

/* 1 when a factorization of order n tries the NCCL transport (it stays on
 * MPI where NCCL cannot run: ranks sharing a GPU, no libnccl):
 * GCHOL_SCALAPACK_TRANSPORT "nccl" always, "mpi" never, else from order
 * kNcclFromN. */
int gchol_scalapack_nccl(int n);

/* ScaLAPACK's own routine of that name (the next definition after the
 * drop-in's), NULL if the program has none. */
void *gchol_scalapack_next(const char *name);

/* 1 when GCHOL_SCALAPACK is "scalapack": every call goes to ScaLAPACK. */
int gchol_scalapack_cpu_only(void);

/* With GCHOL_SCALAPACK_VERBOSE set (not "0"), rank 0 of MPI_COMM_WORLD
 * prints a line to stderr for each call: "gchol_scalapack: NAME n=N
 * nrhs=K on the GPUs" or "... by ScaLAPACK". */
void gchol_scalapack_report(const char *name, int n, int nrhs, int gpu);

#endif
