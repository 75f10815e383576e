/*
 * mp_ops_cpu.h -- the distributed drivers' local operations on the CPU
 * (mp_ops_cpu.c), for the tests.
 */
#ifndef GCHOL_TESTING_MP_OPS_CPU_H
#define GCHOL_TESTING_MP_OPS_CPU_H

#include "mp/mp.h"

void gchol_dmp_cpu_ops(mp_ops_t *ops);
void gchol_smp_cpu_ops(mp_ops_t *ops);

#endif
