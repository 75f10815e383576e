/*
 * mp_ops_cpu.h -- the distributed drivers' local operations on the CPU
 * (mp_ops_cpu.c), for the tests.
 */
#ifndef GCHOL_TESTING_MP_OPS_CPU_H
#define GCHOL_TESTING_MP_OPS_CPU_H

#include "mp/mp.h"

void gchol_dmp_cpu_ops(mp_ops_t *ops);
void gchol_smp_cpu_ops(mp_ops_t *ops);
/* The same with the direct transport (bcast, gatherv, copy2d) by MPI on the
 * host arrays of grid's rows and columns: the drivers' path for NCCL. */
void gchol_dmp_cpu_ops_direct(mp_ops_t *ops, gchol_mp_grid_t grid);
void gchol_smp_cpu_ops_direct(mp_ops_t *ops, gchol_mp_grid_t grid);

#endif
