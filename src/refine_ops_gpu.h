/*
 * refine_ops_gpu.h -- the refinement engine's operations on the GPU
 * (refine_ops_gpu.c), for the mixed-precision solve. Not installed.
 */
#ifndef GCHOL_REFINE_OPS_GPU_H
#define GCHOL_REFINE_OPS_GPU_H

#include "refine_engine.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

/* The state of the operations: the caller fills every field. */
typedef struct {
    int64_t          n;
    const double    *dA;     /* the original A, its `fill` triangle       */
    int64_t          ldda;
    cublasFillMode_t fill;
    const double    *d;      /* n: S = D A D, D = diag(d)                 */
    const float     *L;      /* lower factor of S (single), ld ldl        */
    int64_t          ldl;
    float           *t;      /* n floats of scratch                       */
    double          *dnorms; /* 3 doubles of device scratch               */
    double          *dh;     /* 2 (m + 2) doubles of device scratch       */
    double          *dy;     /* m + 1 doubles of device scratch           */
    double          *amax;   /* 1 double of device scratch (the
                                preconditioner's scale)                    */
    cublasHandle_t   blas;   /* bound to stream, pointer mode host        */
    cudaStream_t     stream;
    const float     *inv;    /* NULL, or L's diagonal blocks of nbinv
                                inverted (ld nbinv, block k in columns k..):
                                the solves then multiply by them          */
    int64_t          nbinv;
    float           *u;      /* n floats of scratch (with inv)            */
    /* the block ops (several right-hand sides, up to nblock columns) */
    int64_t          nblock;
    float           *tb, *ub; /* n x nblock floats each (ub with inv), ld ldtb */
    int64_t          ldtb;
    double          *dnormsb; /* 2 nblock doubles of device scratch        */
    double          *amaxb;   /* nblock doubles of device scratch          */
    /* the residual's and GMRES's A x, one right-hand side */
    double          *symv_work; /* gchol_symv_work(n) doubles: gchol's symv
                                   kernel (deterministic, A read once at
                                   near copy rate); NULL: cuBLAS dsymv     */
} gchol_gpu_ops_t;

/* The table of operations on g (g must outlive its use). */
void gchol_gpu_ops_table(gchol_gpu_ops_t *g, gchol_refine_ops_t *ops);

/* The block operations on g (ctx: the single table's, g). */
void gchol_gpu_block_ops_table(gchol_refine_block_ops_t *bops);

#endif
