/*
 * sm90.c -- the tables of sm_90 (H100 / H200). The potrf switch, block
 * sizes, upper-triangle rule and syrk_diag's dispatch were measured on the
 * H200; the host-interface sizes on the H100.
 * Each group names the command that re-measures it (tools/retune.sh runs
 * the benchmark sweeps and prints the rows to paste here).
 */
#include "tune.h"

#define L GCHOL_VARIANT_LEFT
#define ON GCHOL_LOOKAHEAD_ON

const gchol_tune_t gchol_tune_sm90_table = {
    .name = "sm_90",
    .prec[GCHOL_TUNE_D] = {
        /* Left-looking with lookahead above the tiled switch: the bulk gemm
         * on the main stream, the last term and the panel on the panel
         * stream. Wider block columns give the bulk gemm a better shape:
         * 2048 from 24576, where the updates run on the wide tiles, but 1024
         * for 27648 <= n < 30720 (2048 2% slower at 28672).
         * Re-measure: tools/retune.sh potrf-blocks d */
        .auto_rows = {
            {      4608, L,  128,  128, ON },
            {     10240, L, 1024, 1024, ON },
            {     20480, L, 1024,  512, ON },
            {     24576, L, 1024,  256, ON },
            {     27648, L, 2048,  256, ON },
            {     30720, L, 1024,  256, ON },
            { INT64_MAX, L, 2048,  256, ON },
        },
        /* The single-kernel tiled potrf below 4864 (on the H200 1.01 against
         * 1.18 ms at 4096; they tie at 5120).
         * Re-measure: tools/retune.sh potrf-switch d */
        .tiled_below = 4864,
        /* 'U' keeps the view: the swap lost 5-25% in double. */
        .upper_swap_from = INT64_MAX,
        /* The host interface's transfers run beside the left-looking
         * lookahead only: it takes that driver from 4608.
         * Re-measure: tools/retune.sh potrf-host d */
        .io_tiled_below = 4608,
        /* Its copies interleave with the block columns: nb 1024 where the
         * device table widens to 2048 (2048 3-6% slower from pinned memory). */
        .io_nb = 1024,
        .io_nb_from = 24576,
        /* cuBLAS dsyrk runs the diagonal updates at ~40 TFLOP/s: better
         * than gemm on the full square's twice the flops. */
        .syrk_via_gemm = 0,
        .last_term_update_min_k = INT64_MAX,
        .gemm_upper_chunk = 0,
        .gemm_lower_chunk = 0,
        /* cublasLt's 128 x 128 tiles from ld or n 18432, every layout: 2-5%
         * faster inside the factorization there, slower below.
         * Re-measure: tools/retune.sh potrf-blocks d (around 16384-20480) */
        .gemm_wide_tile_ld = 18432,
        .gemm_wide_tile_k = 0,
        .tf32_syrk_update = 0,
        .tf32_update_min_fill_pct = 75,
        /* Realigned wherever the fused form runs (2-11% faster from 8192). */
        .rfp_realign_from = 0,
        /* cuBLAS's dgmm + dsyrk for 2048 <= m < 16384, where gchol's kernel
         * ran at 0.72-0.91x its speed on the H200 (0.84x at 8192 x 32768);
         * at m = 1024 the kernel's split long dimension wins (1.50x at
         * 1024 x 65536), and from 16384 its triangle ties or wins.
         * Re-measure: tools/retune.sh syrk-diag d */
        .syrk_diag_cublas_from_m = 2048,
        .syrk_diag_cublas_below_m = 16384,
    },
    .prec[GCHOL_TUNE_S] = {
        /* Wider block columns than double, the bulk updates running on the
         * 3xTF32 kernel (1536 / 1024 at 16384: 27.7 ms against 28.1).
         * Re-measure: tools/retune.sh potrf-blocks s */
        .auto_rows = {
            {      6144, L,  128,  128, ON },
            {     10240, L, 1024, 1024, ON },
            {     20480, L, 1536, 1024, ON },
            { INT64_MAX, L, 2048,  512, ON },
        },
        /* The tiled kernel, its tile products on 3xTF32, below 7680 (on the
         * H200 left-looking ran 5% faster at 8192, lower; they tie at 7168).
         * Re-measure: tools/retune.sh potrf-switch s */
        .tiled_below = 7680,
        /* 'U' swaps its triangles block by block beside the left-looking
         * lookahead (7% faster than the view at 16384). */
        .upper_swap_from = 6144,
        /* Host interface and pftrf's fused form: left-looking from 6144
         * (pftrf 3.4 ms fused against 7.4 in four steps there).
         * Re-measure: tools/retune.sh potrf-host s */
        .io_tiled_below = 6144,
        .io_nb = 0,
        .io_nb_from = INT64_MAX,
        /* cuBLAS ssyrk with small n and long k runs at ~6 TFLOP/s: sgemm on
         * the full square into scratch is faster. */
        .syrk_via_gemm = 1,
        /* The last term through the 3xTF32 kernel from nb 1024 (spotrf 8192
         * 'L' 6.38 -> 5.83 ms). */
        .last_term_update_min_k = 1024,
        /* sgemm (T, N) picks a slow kernel at some shapes: upper's updates
         * in 4096-row pieces (spotrf 'U' 32768: 283 -> 265 ms), lower's in
         * 8192. */
        .gemm_upper_chunk = 4096,
        .gemm_lower_chunk = 8192,
        /* The updates run on the 3xTF32 kernel: no wide-tile gemm. */
        .gemm_wide_tile_ld = INT64_MAX,
        .gemm_wide_tile_k = INT64_MAX,
        /* The bulk update (syrk and the gemm below it) in one launch of the
         * 3xTF32 syrk kernel (65-70 TFLOP/s against sgemm's ~50), where its
         * tiles fill 3/4 of the last wave or more. */
        .tf32_syrk_update = 1,
        .tf32_update_min_fill_pct = 75,
        .rfp_realign_from = 0,
        /* gchol's 3xTF32 kernel beats cuBLAS's FP32 sgemm everywhere. */
        .syrk_diag_cublas_from_m = INT64_MAX,
        .syrk_diag_cublas_below_m = INT64_MAX,
    },
    /* Column chunks of A * D up to 1 GiB: 8192 columns at m = 16384. */
    .syrk_diag_cublas_scratch_bytes = (size_t)1 << 30,
    .syrk_diag_cublas_min_kc = 1024,

    /* Pinned staging: 16 MiB buffers (~0.4 ms of DMA each); eight threads
     * (sixteen won on one machine and lost on another).
     * Re-measure: tools/retune.sh host-threads */
    .stage_bytes = (size_t)16 << 20,
    .stage_parallel_min = (size_t)1 << 20,
    .host_threads = 8,

    /* Streamed host forms: few large blocks compute fastest, but the first
     * block's copy and the last one's product overlap nothing. The first
     * block an eighth of the largest, which has max(m / 2, 4096) columns,
     * at most 1 GiB (16384 x 16384 double: 115 ms against 134 with 128 MB
     * blocks); C back in 4 parts beside the last product from m = 8192.
     * Re-measure: tools/retune.sh host-blocks */
    .host_block_max_bytes = (int64_t)1 << 30,
    .host_block_min_cols = 4096,
    .host_first_block_frac = 8,
    .host_parts = 4,
    .host_parts_from_m = 8192,

    /* Host-memory potrf: bands of 1024 view columns, their diagonal blocks
     * (256) through two pinned slots (four: 5-15% slower at 8192), copied
     * back two steps after they are final. */
    .host_copy_nb = 256,
    .host_band = 1024,
    .host_lag = 2,
    .host_slots = 2,

    /* FP16 / BF16 Cholesky: block columns of 1024 feed the tensor cores;
     * below 4096, 256 keeps most of the work in the low-precision updates.
     * The inverted diagonal blocks turn the preconditioner's 2 n / 512
     * dependent strsv (~30 us each) into gemv. The panels through them on
     * FP16 tensor cores and the bulk two panels at a time (gemm inner
     * dimension 2048) take the factorization at n = 32768 from 81 ms to 41.
     * Re-measure: bench_xposv --lowp-table */
    .lowp_nb_small = 256,
    .lowp_nb_large_from = 4097,
    .lowp_nb_large = 1024,
    .lowp_keep_inverse = 1,
    .lowp_panel_inverse = 3,
    .lowp_lookahead = 3,
    .lowp_update_leaf = 0, /* one gemm per block column */

    /* The automatic ladder: FP16, then double. FP16 may take 0.45 of the
     * double solve's time, so that a matrix that must end in double costs
     * at most ~1.45 double solves; the double solve's times are gchol
     * dpotrf + dpotrs, one right-hand side, at n = 1024 .. 32768.
     * Below 28672 that share is less than the FP16 solve takes (at 16384
     * 22 ms against 0.45 x 32.2; at 32768 74 against 0.45 x 225), so the
     * attempt would only delay the double solve.
     * Re-measure: bench_posv, bench_xposv (its table and --kappa-table) */
    .xposv_auto_lowp_from_n = 28672,
    .xposv_auto_fp32 = 0,
    .xposv_auto_share = 0.45,
    .xposv_auto_double_ms = { 0.359, 0.683, 1.608, 5.980, 32.17, 224.8 },
    .xposv_auto_solve_gbs = 3000, /* ~70% of the copy rate */

    /* The residual and GMRES's A z by gchol's symv kernel: the stored
     * triangle read once near the copy rate, where cuBLAS dsymv reaches
     * ~2.0 TB/s (2.27 ms at n = 32768); deterministic.
     * Re-measure: testing_symv (its table: gchol against cuBLAS) */
    .xposv_symv = 1,

    /* Batched potrf: block columns of 32 on cuBLAS's batched products past
     * the rows kernel (from 65), well ahead of the warp kernel on large
     * batches (2 GiB, at 96: 2.4 ms against 4.1 in double, 2.6 against 3.7
     * in single; at 512 in double 3.5 against the tiled kernel's 11.1); at
     * 64 the rows kernel is ahead (2.5 ms against 2.7 in double). Every
     * batch: below 257 the tiles and live tiles kernels take the small
     * batches first (below), and from 257 the products, their panel step
     * in one launch, are ahead of a kernel per matrix even on a few
     * matrices: 1 matrix of 300 / 512, 0.27 / 0.44 ms against 0.43 / 0.82
     * in double, 0.22 / 0.38 against 0.46 / 0.69 in single; 10 matrices,
     * 0.28 / 0.48 against 0.44 / 0.47 and 0.23 / 0.46 against 0.47 / 0.70.
     * Re-measure: bench_potrf_batched --kernel auto|cublas|warp|mma
     * [--cublas-nb] [--bytes] [--small] */
    .batched_cublas_from_n = { 65, 65 },
    .batched_cublas_nb = 32,
    .batched_cublas_min_bytes = 0,
    /* ... and below 256 MiB each block column in two launches (one
     * product, the panel step in one kernel): 100 matrices of 512, 0.68 ms
     * against 0.80 in double, 0.57 against 0.72 in single; at 256 MiB
     * 0.75 against 0.94 and 0.89 against 1.04; at 512 MiB level at 512
     * and behind at 300 in double (1.30 against 1.12); at 2 GiB behind
     * (4.16 against 3.52 at 512 in double).
     * Re-measure: bench_potrf_batched --kernel cublas --cublas-fused 1|2
     * -n 300,512 [--bytes] [--small] */
    .batched_cublas_fused_max_bytes = { (int64_t)256 << 20, (int64_t)256 << 20 },
    /* ... and on those batches the last 256 columns or fewer as one
     * trailing matrix on the live tiles kernel: 100 matrices of 512 in
     * 0.48 ms against 0.53 in single, 0.60 against 0.71 in double (at 400
     * 0.34 against 0.40, 0.41 against 0.47; at 300 level in single, 0.33
     * against 0.40 in double). On 2 GiB the block columns are ahead (at
     * 512 4.7 ms against 5.9 in single, 3.6 against 4.0 in double).
     * Re-measure: bench_potrf_batched --cublas-tail 256|-1 -n 300,400,512
     * [--bytes] [--small] */
    .batched_cublas_tail_n = { 256, 256 },
    /* The tiles kernel from 65 to 192 in double and to 256 in single below
     * 256 MiB: a block's matrix takes about 40 us at 128 in double (2 GiB
     * in 2.5 ms, 62 waves of two blocks an SM), so 100 matrices, one
     * wave, beat the products' 0.15 ms; on 2 GiB the products stay ahead
     * (2.35 ms at 128 in double, 2.4 against 3.9 at 160): a crossover of
     * 250 to 400 MB.
     * Re-measure: bench_potrf_batched --kernel auto|tiles [--bytes] */
    .batched_tiles_max_bytes = (int64_t)256 << 20,
    /* ... and from 48 on batches below 8 MiB, ahead of the rows kernel: at
     * 4 MiB (n = 64: 0.021 ms against 0.027 in double, 0.019 against 0.024
     * in single) a wave of blocks with a 32-pivot chain a tile beats a
     * barrier a column; at 16 MiB the rows kernel is ahead by 15 to 30%,
     * and at 33 to 40 it is level or ahead at any size.
     * Re-measure: bench_potrf_batched --kernel auto|tiles -n 33,40,48,56,64 --bytes */
    .batched_tiles_small_from_n = { 48, 48 },
    .batched_tiles_small_bytes = (int64_t)8 << 20,
    /* ... and on those batches the panels kernel from 17 to 32: at 100
     * matrices of 17 / 24 / 32, 0.009 / 0.011 / 0.012 ms against the lane
     * groups' 0.014 in double, 0.008 / 0.009 / 0.010 against 0.010 /
     * 0.011 / 0.011 in single; at 2,000 matrices of 32 (8 MB in single)
     * level in double and 9% behind in single.
     * Re-measure: bench_potrf_batched -n 17,24,32 --small 100 against
     * --kernel panel (the lane groups) */
    .batched_panels_small_from_n = { 17, 17 },
    /* The replica kernel from 17 to 64 on batches of at most 2 matrices
     * an SM in double (264), 3 in single (396): at 100 matrices 0.0108 ms
     * at 32 in double against the panels kernel's 0.011, 0.016 at 64
     * against 0.018. Its time over the tuning's other choice, in double:
     * 0.92-0.96 at 264 matrices of 17 to 32, 0.83-0.92 of 40, 48 and 64
     * (1.06 at 56), 1.07-1.28 at 400; in single: level at 264 of 17 to 32
     * and 0.88-0.96 at 400, 1.07-1.15 at 600; 0.59-0.77 at 264 and 400 of
     * 40 to 64.
     * Re-measure: bench_potrf_batched --kernel auto|replica
     * -n 17,24,32,40,48,56,64 --bytes 1 --small 264|400|600 */
    .batched_replica_per_sm = { 2, 3 },
    .batched_replica_from_n = { 17, 17 },
    .batched_replica_max_n = { 64, 64 },
    /* The FP64 tensor cores' warp kernel (kernel.batched_dmma_*) on batches
     * of 256 MiB and more in double, 64 MiB in single, ahead of all the
     * above: at 2 GiB in double 1.40 ms at 64, 1.69 at 128, 2.10 at 192
     * (the kernels below: 2.50, 2.28, 2.44); at 224 behind the live tiles
     * kernel (2.40 against 2.15). In single 1.85 ms at 64, 2.16 at 128,
     * level at 160 (2.71 against 2.73), behind from 192 (3.17 against
     * 2.96). At 128 MiB in double 0.11 ms at 64 against 0.18 and 0.13 at
     * 128 against 0.15, but 0.27 at 192 against 0.20; at 64 MiB behind from
     * 128 (0.090 against 0.082). In single at 64 MiB 0.072 ms at 64
     * against 0.107, 0.100 at 128 against 0.120. Three blocks an SM in
     * double (four: 2.21 ms against 1.90 at 128, its registers spilled),
     * four in single (2.35 against 2.45 at 128, 2.25 against 2.60 at 64).
     * Re-measure: bench_potrf_batched --kernel auto|dmma [--bytes]
     * [--dmma-blocks 3|4] */
    .batched_dmma_min_bytes = { (int64_t)256 << 20, (int64_t)64 << 20 },
    /* The live tiles kernel (batched_live_*) from 193 to 256, ahead of all
     * the above, on every batch; one block an SM in double, two in single,
     * latency-bound. At 256, 2 GiB: 2.00 ms in double (block columns 2.69),
     * 2.39 in single (block columns 3.34); 100 matrices: 0.08 and 0.06 ms
     * (block columns 0.42 and 0.34). From 193: at 192 the warp kernel is
     * ahead on 2 GiB (2.10 ms against 2.49 in double), level on 256 MiB.
     * Re-measure: bench_potrf_batched --kernel live|tiles|dmma|cublas [--bytes] */
    .batched_live_from_n = { 193, 193 },
    .batched_live_max_n = { 256, 256 },
    .batched_live_max_bytes = { 0, 0 },

    /* The tiled kernel at one block per SM up to 5376, its chain block
     * helped by a second block of its cluster; syrk_diag's split rule at
     * the kernel's flop rate over the memory bandwidth (15 flops per byte
     * in double, 23 in single).
     * Re-measure: tools/retune.sh tiled-blocks */
    .kernel = {
        .tiled_one_block_up_to = 5376,
        .tiled_cluster_helper = 1,
        .syrk_diag_flops_per_byte = { 15, 23 },
        /* Batched potrf / potrs: lane groups in registers to n = 16, a row
         * per thread from 17 to 64 (at n = 24 in double, 2.1 ms against the
         * lane groups' 3.1 for a 2 GiB batch), then the left-looking panel
         * kernel, the tiled left-looking kernel from 192 in double and 384
         * in single to 512 (at n = 512 in double, 11.1 ms against 20.0).
         * Re-measure: bench_potrf_batched --kernel auto|blocked|panel|rows|mma */
        .batched_reg_max_n = 32,
        /* the warp kernel (a warp a matrix, block columns of 32) past the
         * rows kernel, to 128 in double and 192 in single: the
         * variable-size form's (the fixed-order forms take the products
         * from 65).
         * Re-measure: bench_potrf_batched --kernel auto|warp|rows|cublas */
        .batched_warp_max_n = { 128, 192 },
        .batched_rows_from_n = { 17, 17 },
        .batched_rows_max_n = { 64, 64 },
        .batched_mma_from_n = { 192, 384 },
        .batched_mma_max_n = { 512, 512 },
        /* The tiled kernel's chunks through one buffer: from 192 to 512
         * two buffers are no faster where two blocks an SM still fit, and
         * slower where they do not (11.2 ms against 8.0 at n = 256 in
         * double).
         * Re-measure: bench_potrf_batched --kernel mma|mma1|mma2 */
        .batched_mma_buffers = 1,
        /* batched potrs: in double, L read where it is used from 256 (one
         * right-hand side at n = 512: 1.6 ms against 4.6 staged); in single
         * its panels staged in shared memory at every order (at 512, 2.3 ms
         * against 2.4 direct, and ahead below).
         * Re-measure: bench_potrf_batched --potrs staged|direct */
        .batched_potrs_direct_from_n = { 256, 0 },
        .batched_smem_max_n = 1,
        .batched_hybrid_max_n = 0,
        .batched_tiles_from_n = { 65, 65 },
        .batched_tiles_max_n = { 192, 256 },
        .batched_dmma_from_n = { 33, 33 },
        .batched_dmma_max_n = { 192, 128 },
        .batched_dmma_blocks = { 3, 4 },
    },
};
