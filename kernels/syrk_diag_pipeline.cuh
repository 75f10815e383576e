/*
 * syrk_diag_pipeline.cuh -- syrk_diag's main loop: three pipeline stages
 * copied by cp.async, scaled by d in shared memory, and multiplied by the
 * warp tiles (syrk_diag_tile.cuh), with each stage's copies and scaling
 * issued in parts between the multiply steps of the stage before.
 *
 * Part of syrk_diag.cu's translation unit (its anonymous namespace);
 * include it from there only.
 */
#ifndef GCHOL_SYRK_DIAG_PIPELINE_CUH
#define GCHOL_SYRK_DIAG_PIPELINE_CUH

#include "syrk_diag_tile.cuh"

namespace gchol {
namespace {

/* Stage b of the pipeline holds A's rows at smem + b*Stage, B's after them,
 * then BK entries of d. A diagonal tile copies its rows twice, as A and as
 * B, which keeps the copy code free of branches. */

/* Stages of the pipeline. */
constexpr int kAsyncStages = 3;

/* Elements of one stage: A's and B's tiles, then d. */
template <typename T, bool kKMajor> constexpr int stage_size()
{
    return kKMajor ? 2 * kBM * kLDK + Cfg<T>::BK : Cfg<T>::Stage;
}

/* The multiply steps of a stage, between which its neighbours' copies and
 * scaling are issued: DMMA k-steps of 4 (double), single k (float). */
template <typename T> constexpr int kSteps = Cfg<T>::BK / WarpTile<T>::kK;

/* Stages are copied in groups of V = 16 / sizeof(T) consecutive rows: thread
 * t takes rows V (t % kRowGroups) .. + V - 1 of the tile, in columns
 * c0 + kColGroups q with c0 = t / kRowGroups, q < kCopies. */
template <typename T> constexpr int kVecRows = 16 / (int)sizeof(T);
template <typename T> constexpr int kRowGroups = kBM / kVecRows<T>;
template <typename T> constexpr int kColGroups = kThr / kRowGroups<T>;
template <typename T> constexpr int kCopies = Cfg<T>::BK / kColGroups<T>;

/* Parts a stage's copies and scaling are cut into: the copies of stage kt+2
 * run after the first multiply steps of stage kt, one part each, and the
 * scaling of stage kt+1 after the last: the copies in 4 parts, the scaling
 * in 2 (fewer where a stage has fewer copies or steps, as on sm_80). Other
 * counts, or the scaling earlier in the stage, are up to 10% slower. */
template <typename T> constexpr int kScaleParts = kCopies<T> >= 2 ? 2 : 1;
template <typename T> constexpr int issue_parts()
{
    int p = 4; /* fewer where the stage has fewer copies or steps (sm_80) */
    while (p > 1 && (p > kCopies<T> || p > kSteps<T> - kScaleParts<T> || kCopies<T> % p)) p /= 2;
    return p;
}
template <typename T> constexpr int kIssueParts = issue_parts<T>();

/* Where this thread's row group sits in a tile, and how many of its 16
 * bytes exist (rows past m zero-fill). */
template <typename T> struct GroupSrc {
    const T *p; /* the group's element in column kbeg + c0 (row 0 if past m) */
    int rows;   /* rows of the group that are < m */
};

template <typename T>
__device__ __forceinline__ GroupSrc<T> group_src(const T *A, int64_t lda, int64_t m, int64_t row0, int64_t k0)
{
    const int64_t row = row0 + kVecRows<T> * (threadIdx.x % kRowGroups<T>);
    const int rows = (int)max((int64_t)0, min((int64_t)kVecRows<T>, m - row));
    return { A + (rows ? row : 0) + (k0 + threadIdx.x / kRowGroups<T>) * lda, rows };
}

/* One row group (`rows` of them valid, the rest zero-filled): a 16-byte
 * copy, or one copy per element where A or lda is not aligned for that. */
template <typename T, bool kVec>
__device__ __forceinline__ void copy_group(T *dst, const T *src, int rows)
{
    if (kVec) {
        cp_async16(dst, src, rows * (int)sizeof(T));
    } else {
#pragma unroll
        for (int e = 0; e < kVecRows<T>; ++e)
            cp_async_el(dst + e, e < rows ? src + e : src, e < rows ? (int)sizeof(T) : 0);
    }
}

/*
 * Part `part` of this thread's copies of one operand of a stage (src: the
 * group's element in the stage's column c0). Columns at or past kleft (the
 * chunk's end; <= 0 for the stages past it) zero-fill from a safe address.
 * Branch-free, so that the multiply steps around it stay one scheduling
 * region. Successive copies are one pointer step apart: a 64-bit add each.
 */
template <typename T, bool kVec, bool kFull>
__device__ __forceinline__ void issue_part(T *S, const T *src, int rows, int64_t ldstep, int kleft,
                                           int part, const T *safe)
{
    constexpr int Q = kCopies<T> / kIssueParts<T>, CG = kColGroups<T>;
    const int rg = threadIdx.x % kRowGroups<T>, c0 = threadIdx.x / kRowGroups<T>;
    const T *p = src + (int64_t)(part * Q) * ldstep;
    T *dst = S + (c0 + CG * part * Q) * kLDS + kVecRows<T> * rg;
#pragma unroll
    for (int j = 0; j < Q; ++j, p += ldstep) {
        if constexpr (kFull) { /* the stage lies inside the chunk: no column test */
            copy_group<T, kVec>(dst + CG * j * kLDS, p, rows);
        } else {
            const bool in = c0 + CG * (part * Q + j) < kleft;
            copy_group<T, kVec>(dst + CG * j * kLDS, in ? p : safe, in ? rows : 0);
        }
    }
}

/*
 * Part `part` of this thread's copies of one operand of a K-major stage (A's
 * element (r, k) at A[r*lda + k]; the stage is [row][k] with pitch kLDK, see
 * WarpTileK): groups of 4 consecutive k of one row, 16 bytes, or element by
 * element where A or lda is not 16-byte aligned. Thread t takes k quad t % 16
 * of rows t / 16 + 16 j; a warp copies 2 rows of 256 bytes. base: element
 * (0, k0) of the tile's rows; rows past `rows` and columns past kleft
 * zero-fill from a safe address. Only without d (the scaling pass assumes
 * the M-major copy map).
 */
template <bool kVec>
__device__ __forceinline__ void issue_part_kmajor(float *S, const float *base, int64_t lda, int rows,
                                                  int kleft, int part, const float *safe)
{
    constexpr int KQ = Cfg<float>::BK / 4, RS = kThr / KQ, PER = kBM / RS;
    constexpr int Q = PER / kIssueParts<float>;
    static_assert(PER % kIssueParts<float> == 0 && (Cfg<float>::BK + 4) == kLDK, "K-major stage");
    /* successive copies are RS rows apart: one pointer step each */
    const int k = 4 * (threadIdx.x % KQ), kvalid = max(0, min(4, kleft - k));
    const int r0 = threadIdx.x / KQ + RS * part * Q;
    const int64_t step = (int64_t)RS * lda;
    const float *p = base + (int64_t)r0 * lda + k;
    float *dst = S + r0 * kLDK + k;
#pragma unroll
    for (int j = 0; j < Q; ++j, p += step, dst += RS * kLDK) {
        const int valid = r0 + RS * j < rows ? kvalid : 0;
        const float *src = valid ? p : safe;
        if (kVec) {
            cp_async16(dst, src, valid * 4);
        } else {
#pragma unroll
            for (int e = 0; e < 4; ++e)
                cp_async_el(dst + e, e < valid ? src + e : safe, e < valid ? 4 : 0);
        }
    }
}

/* Copies d[k0 .. k0+BK) of the stage next to its tiles (zeros past kend). */
template <typename T>
__device__ __forceinline__ void issue_stage_d(T *dS, const T *__restrict__ d, int64_t k0, int64_t kend)
{
    if (threadIdx.x < Cfg<T>::BK) {
        const int64_t k = k0 + threadIdx.x;
        cp_async_el(dS + threadIdx.x, k < kend ? d + k : d, k < kend ? (int)sizeof(T) : 0);
    }
}

/* Scales part `part` of this thread's own elements of a stage (the row
 * groups it copied) by d. Branch-free: past kend both the tile and d were
 * zero-filled. */
template <typename T>
__device__ __forceinline__ void scale_part(T *S, const T *dS, int part)
{
    constexpr int Q = kCopies<T> / kScaleParts<T>, V = kVecRows<T>, CG = kColGroups<T>;
    const int rg = threadIdx.x % kRowGroups<T>, c0 = threadIdx.x / kRowGroups<T>;
    T v[Q][V], w[Q];
#pragma unroll
    for (int j = 0; j < Q; ++j) {
        const T *g = S + (c0 + CG * (part * Q + j)) * kLDS + V * rg;
        if constexpr (V == 2) {
            const double2 x = *reinterpret_cast<const double2 *>(g);
            v[j][0] = x.x; v[j][1] = x.y;
        } else {
            const float4 x = *reinterpret_cast<const float4 *>(g);
            v[j][0] = x.x; v[j][1] = x.y; v[j][2] = x.z; v[j][3] = x.w;
        }
        w[j] = dS[c0 + CG * (part * Q + j)];
    }
#pragma unroll
    for (int j = 0; j < Q; ++j) {
        T *g = S + (c0 + CG * (part * Q + j)) * kLDS + V * rg;
        if constexpr (V == 2)
            *reinterpret_cast<double2 *>(g) = make_double2(v[j][0] * w[j], v[j][1] * w[j]);
        else
            *reinterpret_cast<float4 *>(g) =
                make_float4(v[j][0] * w[j], v[j][1] * w[j], v[j][2] * w[j], v[j][3] * w[j]);
    }
}

/*
 * Main loop through cp.async: stages land without holding registers, which
 * the accumulators need (64 doubles per thread; in single precision 64
 * floats and 64 stage sums). With d, each thread scales its own elements of stage kt+1
 * (d sits in shared memory next to the stage) while stage kt is read by all,
 * so one barrier per stage publishes both the landed copies and the scaling.
 *
 * The copies of stage kt+2 and the scaling of stage kt+1 are cut into parts
 * that run between the multiply steps of stage kt: the copies in the first
 * steps (so they land before the next barrier), the scaling in the last.
 * Issued all at once after the barrier, their integer and memory
 * instructions left the tensor pipe idle on every warp at once.
 */
template <typename T, bool kHasD, bool kVec, bool kKMajor, bool kOne, typename Tile>
__device__ __forceinline__ void mainloop(Tile &acc, T *smem, const T *__restrict__ A,
                                         int64_t lda, const T *__restrict__ d, int64_t m,
                                         int64_t row0, int64_t col0, int64_t kbeg, int64_t kend,
                                         bool active, int wm, int wn)
{
    static_assert(kAsyncStages == 3, "copies run two stages ahead, scaling one");
    static_assert(!(kKMajor && (kHasD || sizeof(T) != 4)), "K-major A: single, no d");
    constexpr int BK = Cfg<T>::BK, NS = kSteps<T>;
    constexpr int kScaleAt = NS - kScaleParts<T>;
    static_assert(kIssueParts<T> <= kScaleAt, "copies first, then the scaling, one part per step");
    static_assert(kCopies<T> % kIssueParts<T> == 0 && kCopies<T> % kScaleParts<T> == 0, "even parts");
    /* B's rows, d of a stage */
    constexpr int boff = kKMajor ? kBM * kLDK : BK * kLDS, doff = 2 * boff;
    const int nk = (int)((kend - kbeg + BK - 1) / BK);
    const GroupSrc<T> a_src = group_src(A, lda, m, row0, kbeg), b_src = group_src(A, lda, m, col0, kbeg);
    const int64_t ldstep = kColGroups<T> * lda, stride = BK * lda;
    auto stage = [&](int buf) { return smem + buf * stage_size<T, kKMajor>(); };
    /* Part `part` of stage kt's copies, into buffer buf; the last part closes
     * the group. Stages past the chunk zero-fill (nobody reads them), which
     * keeps this free of branches. full: std::true_type where the stage lies
     * wholly inside the chunk (M-major copies then skip the column test). */
    auto issue = [&](int kt, int buf, int part, auto full) {
        [[maybe_unused]] constexpr bool kFull = decltype(full)::value;
        T *S = stage(buf);
        [[maybe_unused]] const int64_t k0 = kbeg + (int64_t)kt * BK, off = kt * stride;
        const int kleft = (int)max((int64_t)0, min((int64_t)BK, kend - k0));
        if constexpr (kKMajor) {
            const int64_t k0l = kbeg + (int64_t)kt * BK;
            issue_part_kmajor<kVec>(S, A + row0 * lda + k0l, lda, (int)min((int64_t)kBM, m - row0),
                                    kleft, part, A);
            issue_part_kmajor<kVec>(S + boff, A + col0 * lda + k0l, lda,
                                    (int)min((int64_t)kBM, m - col0), kleft, part, A);
        } else {
            issue_part<T, kVec, kFull>(S, a_src.p + off, a_src.rows, ldstep, kleft, part, A);
            issue_part<T, kVec, kFull>(S + boff, b_src.p + off, b_src.rows, ldstep, kleft, part, A);
        }
        if (kHasD && part == 0) issue_stage_d(S + doff, d, k0, kend);
        if (part == kIssueParts<T> - 1) cp_async_commit();
    };
    /* Only A's rows are scaled, by d^2: half the multiplies (in double they
     * share the pipe with the DMMAs). The thread that copied d_k squares it
     * once its copy has landed, before the barrier that lets others read it. */
    auto square_d = [&](int buf) {
        if (kHasD && threadIdx.x < BK) {
            T *dS = stage(buf) + doff;
            dS[threadIdx.x] *= dS[threadIdx.x];
        }
    };
    auto scale = [&](int buf, int part) {
        if (kHasD) scale_part(stage(buf), stage(buf) + doff, part);
    };
#pragma unroll
    for (int s = 0; s < kAsyncStages - 1; ++s)
#pragma unroll
        for (int part = 0; part < kIssueParts<T>; ++part) issue(s, s, part, std::false_type{});
    cp_async_wait<kAsyncStages - 2>(); /* stage 0 */
    square_d(0);
    __syncthreads();
#pragma unroll
    for (int part = 0; part < kScaleParts<T>; ++part) scale(0, part);
    int buf = 0; /* kt % kAsyncStages */
    auto run_stage = [&](int kt, auto full) {
        const int buf1 = buf == 2 ? 0 : buf + 1, buf2 = buf1 == 2 ? 0 : buf1 + 1;
        cp_async_wait<0>(); /* stage kt+1 */
        square_d(buf1);
        __syncthreads(); /* kt scaled and visible, kt+1 landed, kt-1 free */
        auto between = [&](int step) {
            if (step < kIssueParts<T>) issue(kt + 2, buf2, step, full);
            if (step >= kScaleAt) scale(buf1, step - kScaleAt);
        };
        if (active) {
            acc.template mma<kOne>(stage(buf), stage(buf) + boff, wm, wn, between);
        } else {
#pragma unroll
            for (int step = 0; step < NS; ++step) between(step);
        }
        buf = buf1;
    };
    /* Stages whose copies lie wholly inside the chunk skip the column test:
     * 17% fewer instructions issued in double, faster on large squares. */
    const int nfast = (int)max((int64_t)0, min((int64_t)nk, (kend - kbeg) / BK - (kAsyncStages - 1)));
    int kt = 0;
    if constexpr (!kKMajor) /* (its copies have no such test to skip) */
        for (; kt < nfast; ++kt) run_stage(kt, std::true_type{});
    for (; kt < nk; ++kt) run_stage(kt, std::false_type{});
    cp_async_wait<0>();
}

/* The pipeline's shared memory in bytes for the code that runs on the
 * device (sm90: runs_sm90_code), for the launcher: kAsyncStages *
 * stage_size<T, kKMajor>() * sizeof(T) as that code computes it. */
template <typename T, bool kKMajor> constexpr size_t smem_bytes_for(bool sm90)
{
    const int bk = stage_bk((int)sizeof(T), sm90 ? 1 : 2), bkf = stage_bk(4, sm90 ? 1 : 2);
    return (size_t)kAsyncStages *
           (size_t)(kKMajor ? 2 * kBM * (bkf + 4) + bk : 2 * bk * kLDS + bk) * sizeof(T);
}
static_assert(smem_bytes_for<double, false>(kStageScale == 1) ==
                  kAsyncStages * stage_size<double, false>() * sizeof(double) &&
              smem_bytes_for<float, false>(kStageScale == 1) ==
                  kAsyncStages * stage_size<float, false>() * sizeof(float) &&
              smem_bytes_for<float, true>(kStageScale == 1) ==
                  kAsyncStages * stage_size<float, true>() * sizeof(float),
              "the launcher's shared memory is the device code's");

} // namespace
} // namespace gchol

#endif
