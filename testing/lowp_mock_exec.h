/*
 * lowp_mock_exec.h -- testing_lowp_host's mocks running the queued work
 * once the host synchronizes: the products (summed in double), the
 * triangular solves, the diagonal blocks (LAPACK's), the conversions to
 * FP16 / BF16, the copies, the fills and the frees.
 * Part of testing_lowp_host.c, which includes it once, after
 * lowp_mock_state.h.
 */
#ifndef GCHOL_TESTING_LOWP_MOCK_EXEC_H
#define GCHOL_TESTING_LOWP_MOCK_EXEC_H

/* ---- execution of the queued work --------------------------------------------- */
/* Element idx of a product's operand X (type t, buffer r). */
static double operand(const void *X, cudaDataType t, const region_t *r, int tf32, size_t idx)
{
    if (t == CUDA_R_32F) {
        const float v = ((const float *)X)[idx];
        return tf32 && !g_exact ? round_tf32(v) : v;
    }
    const float *sh = g_exact ? shadow_at(r, X) : NULL;
    if (sh) return sh[idx];
    const uint16_t h = ((const uint16_t *)X)[idx];
    return t == CUDA_R_16F ? half_to_float(h) : bf16_to_float(h);
}

static void execute_gemm(const op_t *op)
{
    const int64_t m = op->m, n = op->n, k = op->k;
    const int an = op->ta == CUBLAS_OP_N, bn = op->tb == CUBLAS_OP_N;
    const size_t ea = op->atype == CUDA_R_32F ? 4 : 2, eb = op->btype == CUDA_R_32F ? 4 : 2;
    const region_t *ra = check_matrix("gemm's A", op->a, an ? m : k, an ? k : m, op->lda, ea);
    const region_t *rb = check_matrix("gemm's B", op->b, bn ? k : n, bn ? n : k, op->ldb, eb);
    if (!ra || !rb || !check_matrix("gemm's C", op->dst, m, n, op->ldc, 4)) return;
    if (op->device_scalars && (!check_matrix("gemm's alpha", op->dalpha, 1, 1, 1, 4) ||
                               !check_matrix("gemm's beta", op->dbeta, 1, 1, 1, 4)))
        return;
    /* op(A) by rows and op(B) by columns, k contiguous */
    double *a = malloc((size_t)(m * k + 1) * sizeof(double));
    double *b = malloc((size_t)(n * k + 1) * sizeof(double));
    for (int64_t i = 0; i < m; ++i)
        for (int64_t l = 0; l < k; ++l)
            a[i * k + l] = operand(op->a, op->atype, ra, op->tf32,
                                   (size_t)(an ? i + l * op->lda : l + i * op->lda));
    for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < k; ++l)
            b[j * k + l] = operand(op->b, op->btype, rb, op->tf32,
                                   (size_t)(bn ? l + j * op->ldb : j + l * op->ldb));
    const double alpha = op->device_scalars ? *op->dalpha : op->alpha;
    const double beta = op->device_scalars ? *op->dbeta : op->beta;
    float *C = op->dst;
    for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) {
            double s = 0;
            for (int64_t l = 0; l < k; ++l) s += a[i * k + l] * b[j * k + l];
            float *c = &C[i + j * op->ldc];
            /* beta from the device is applied even when 0 (C must hold numbers),
             * a host 0 leaves C unread, as cuBLAS */
            *c = (float)(alpha * s + (op->device_scalars || beta != 0 ? beta * (double)*c : 0));
        }
    free(a);
    free(b);
    g_products++;
}

/* B := alpha op(A)^-1 B (left) or alpha B op(A)^-1 (right), A's uplo
 * triangle only, non-unit diagonal; in double. */
static void execute_trsm(const op_t *op)
{
    const int left = op->side == CUBLAS_SIDE_LEFT;
    const int64_t ka = left ? op->m : op->n;
    if (!check_matrix("trsm's A", op->a, ka, ka, op->lda, 4) ||
        !check_matrix("trsm's B", op->dst, op->m, op->n, op->ldb, 4))
        return;
    const float *A = op->a;
    float *B = op->dst;
    double *M = calloc((size_t)(ka * ka), sizeof(double)); /* op(A), dense */
    for (int64_t j = 0; j < ka; ++j)
        for (int64_t i = 0; i < ka; ++i)
            if (op->uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j) {
                const double v = A[i + j * op->lda];
                if (op->ta == CUBLAS_OP_N) M[i + j * ka] = v; else M[j + i * ka] = v;
            }
    const int lower = (op->uplo == CUBLAS_FILL_MODE_LOWER) == (op->ta == CUBLAS_OP_N);
    /* left: M x = b per column of B; right: x M = b per row, that is M^T x^T = b^T */
    const int sys_lower = left ? lower : !lower;
    const int64_t count = left ? op->n : op->m;
    double *x = malloc((size_t)ka * sizeof(double));
    for (int64_t c = 0; c < count; ++c) {
        for (int64_t i = 0; i < ka; ++i)
            x[i] = (double)op->alpha * (left ? B[i + c * op->ldb] : B[c + i * op->ldb]);
        for (int64_t t = 0; t < ka; ++t) {
            const int64_t i = sys_lower ? t : ka - 1 - t;
            double s = x[i];
            for (int64_t l = 0; l < ka; ++l) {
                if (sys_lower ? l >= i : l <= i) continue;
                s -= (left ? M[i + l * ka] : M[l + i * ka]) * x[l];
            }
            x[i] = s / M[i + i * ka];
        }
        for (int64_t i = 0; i < ka; ++i) {
            if (left) B[i + c * op->ldb] = (float)x[i];
            else B[c + i * op->ldb] = (float)x[i];
        }
    }
    free(x);
    free(M);
}

static void execute(const op_t *op)
{
    switch (op->kind) {
    case OP_MEMSET: {
        region_t *r = check_matrix("memset", op->dst, (int64_t)op->bytes, 1, (int64_t)op->bytes, 1);
        if (!r) return;
        memset(op->dst, op->value, op->bytes);
        float *sh = op->value == 0 ? shadow_at(r, op->dst) : NULL;
        for (size_t i = 0; sh && i < op->bytes / 2; ++i) sh[i] = 0;
        return;
    }
    case OP_MEMSET2D:
        if (!check_matrix("memset2D", op->dst, (int64_t)op->width, (int64_t)op->height,
                          (int64_t)op->pitch, 1))
            return;
        for (size_t r = 0; r < op->height; ++r)
            memset((char *)op->dst + r * op->pitch, op->value, op->width);
        return;
    case OP_COPY:
        if (check_matrix("copy's source", op->a, (int64_t)op->bytes, 1, (int64_t)op->bytes, 1))
            memcpy(op->dst, op->a, op->bytes);
        return;
    case OP_GEMM: execute_gemm(op); return;
    case OP_TRSM: execute_trsm(op); return;
    case OP_TILED:
    case OP_POTRF: {
        if (!check_matrix("diagonal block", op->dst, op->n, op->n, op->lda, 4) ||
            !check_matrix("info word", op->dinfo, 1, 1, 1, 8))
            return;
        /* the tiled kernel leaves a word already set alone */
        if (op->kind == OP_TILED && *op->dinfo != 0) return;
        const lapack_int info = LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'L', (lapack_int)op->n,
                                                    op->dst, (lapack_int)op->lda);
        if (op->kind == OP_POTRF) *op->dinfo = info;
        else if (info > 0) *op->dinfo = op->col0 + info;
        return;
    }
    case OP_ADD_DIAG: {
        if (!check_matrix("add_diag's S", op->dst, op->n, op->n, op->lda, 4)) return;
        float *S = op->dst;
        for (int64_t i = 0; i < op->n; ++i) S[i + i * op->lda] += op->scale;
        return;
    }
    case OP_TO_LOWP: {
        const region_t *rp = check_matrix("panel_to_lowp's P", op->dst, op->m, op->n, op->ldb, 2);
        if (!check_matrix("panel_to_lowp's S", op->a, op->m, op->n, op->lda, 4) || !rp ||
            (op->copy && !check_matrix("panel_to_lowp's copy", op->copy, op->m, op->n, op->ldc, 4)))
            return;
        const float *S = op->a;
        uint16_t *P = op->dst;
        float *sh = shadow_at(rp, op->dst);
        for (int64_t j = 0; j < op->n; ++j)
            for (int64_t i = 0; i < op->m; ++i) {
                const float v = S[i + j * op->lda], w = op->scale * v;
                P[i + j * op->ldb] = op->bf16 ? float_to_bf16(w) : float_to_half(w);
                if (sh) sh[i + j * op->ldb] = w;
                if (op->copy) op->copy[i + j * op->ldc] = v;
            }
        return;
    }
    case OP_INV_TO_LOWP: {
        const int64_t n = op->n;
        const region_t *rh = check_matrix("inverse_to_lowp's Wh", op->dst, n, n, op->ldb, 2);
        if (!check_matrix("inverse_to_lowp's W", op->a, n, n, op->lda, 4) || !rh ||
            !check_matrix("inverse_to_lowp's words", op->words, 3, 1, 3, 4))
            return;
        const float *W = op->a;
        uint32_t amax = 0; /* a non-negative float orders as its bits; NaN above Inf */
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i) {
                const uint32_t x = float_bits(fabsf(W[i + j * op->lda]));
                if (x > amax) amax = x;
            }
        const float m = bits_float(amax);
        int e = 0;
        const int finite = m > 0 && m <= 3.402823466e38f;
        if (finite) (void)frexpf(m, &e);
        const int f = finite ? 15 - e : 0;
        uint16_t *Wh = op->dst;
        float *sh = shadow_at(rh, op->dst);
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i) {
                const float w = ldexpf(W[i + j * op->lda], f);
                Wh[i + j * op->ldb] = op->bf16 ? float_to_bf16(w) : float_to_half(w);
                if (sh) sh[i + j * op->ldb] = w;
            }
        float *words = op->words;
        memcpy(&words[0], &amax, 4);
        words[1] = ldexpf(1.0f / op->scale, -f);
        words[2] = 0.0f;
        return;
    }
    case OP_RECORD: g_record_done[op->record] = 1; return;
    case OP_WAIT: return;
    case OP_FREE: {
        region_t *r = region_of(op->dst);
        if (!r || !r->library || r->base != op->dst || r->freed) {
            mock_error("cudaFreeAsync of what is not a live allocation");
            return;
        }
        r->freed = 1; /* kept, poisoned: a later use reads NaN */
        memset(r->base, 0xff, r->bytes);
        for (size_t i = 0; i < r->bytes / 2 + 1; ++i) r->shadow[i] = NAN;
        return;
    }
    }
}

#endif
