/*
 * default.c -- the tables of every GPU without its own (sm_80, unknown
 * architectures): sm_90's choices, which are correct on any GPU, with the
 * tiled kernel's cluster helper off (thread block clusters need sm_90).
 * Nothing here was measured on those GPUs; a GPU that gets measured gets its
 * own file (tools/retune.sh prints the rows).
 */
#include "tune.h"

#define L GCHOL_VARIANT_LEFT
#define ON GCHOL_LOOKAHEAD_ON

const gchol_tune_t gchol_tune_default_table = {
    .name = "default",
    .prec[GCHOL_TUNE_D] = {
        .auto_rows = {
            {      4608, L,  128,  128, ON },
            {     10240, L, 1024, 1024, ON },
            {     20480, L, 1024,  512, ON },
            {     24576, L, 1024,  256, ON },
            {     27648, L, 2048,  256, ON },
            {     30720, L, 1024,  256, ON },
            { INT64_MAX, L, 2048,  256, ON },
        },
        .tiled_below = 4864,
        .upper_swap_from = INT64_MAX,
        .io_tiled_below = 4608,
        .io_nb = 1024,
        .io_nb_from = 24576,
        .syrk_via_gemm = 0,
        .last_term_update_min_k = INT64_MAX,
        .gemm_upper_chunk = 0,
        .gemm_lower_chunk = 0,
        .gemm_wide_tile_ld = 18432,
        .gemm_wide_tile_k = 0,
        .tf32_syrk_update = 0,
        .tf32_update_min_fill_pct = 75,
        .rfp_realign_from = 0,
        .syrk_diag_cublas_from_m = 2048,
        .syrk_diag_cublas_below_m = 16384,
    },
    .prec[GCHOL_TUNE_S] = {
        .auto_rows = {
            {      6144, L,  128,  128, ON },
            {     10240, L, 1024, 1024, ON },
            {     20480, L, 1536, 1024, ON },
            { INT64_MAX, L, 2048,  512, ON },
        },
        .tiled_below = 7680,
        .upper_swap_from = 6144,
        .io_tiled_below = 6144,
        .io_nb = 0,
        .io_nb_from = INT64_MAX,
        .syrk_via_gemm = 1,
        .last_term_update_min_k = 1024,
        .gemm_upper_chunk = 4096,
        .gemm_lower_chunk = 8192,
        .gemm_wide_tile_ld = INT64_MAX,
        .gemm_wide_tile_k = INT64_MAX,
        .tf32_syrk_update = 1,
        .tf32_update_min_fill_pct = 75,
        .rfp_realign_from = 0,
        .syrk_diag_cublas_from_m = INT64_MAX,
        .syrk_diag_cublas_below_m = INT64_MAX,
    },
    .syrk_diag_cublas_scratch_bytes = (size_t)256 << 20,
    .syrk_diag_cublas_min_kc = 1024,
    .stage_bytes = (size_t)16 << 20,
    .stage_parallel_min = (size_t)1 << 20,
    .host_threads = 8,
    .host_block_max_bytes = (int64_t)1 << 30,
    .host_block_min_cols = 4096,
    .host_first_block_frac = 8,
    .host_parts = 4,
    .host_parts_from_m = 8192,
    .host_copy_nb = 256,
    .host_band = 1024,
    .host_lag = 2,
    .host_slots = 2,
    .kernel = {
        .tiled_one_block_up_to = 5376,
        .tiled_cluster_helper = 0,
        .syrk_diag_flops_per_byte = { 15, 23 },
    },
};
