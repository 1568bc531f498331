/*
 * The pitch tracker's two heavy loops, computed exactly as the TypeScript computes them
 * (src/dsp/resample.ts `decimate`, src/dsp/yin.ts `FrameCorrelations`), bit for bit:
 *
 * - every sum is the same float64 additions in the same order: four partial sums over the
 *   terms k mod 4, the leftover terms added to the first, and the partials added left to right;
 * - the four partial sums sit side by side in one AVX2 register where the processor has one,
 *   which adds the same lanes in the same order as four scalar sums (separate multiply and add
 *   instructions: the file is built without fused multiply-add, and the AVX2 functions are
 *   not compiled for FMA);
 * - float32 inputs are widened to float64 before multiplying, as JavaScript does, and a result
 *   stored as float32 is rounded to nearest, as a Float32Array store is.
 *
 * test/dsp/pitch-native.test.ts holds both against the TypeScript loops.
 * Build (scripts/build-native.sh): cc -O3 -fPIC -shared -ffp-contract=off -fno-fast-math.
 */
#include <immintrin.h>

static int avx2(void)
{
    static int known = -1;
    if (known < 0) known = __builtin_cpu_supports("avx2") ? 1 : 0;
    return known;
}

/* ---- Decimation: one output of the low-pass filter, the filter cut at the signal's ends ---- */

/* The sum over k < n of h[k]·x[k], as four partial sums over k mod 4. */
static double filter_scalar(const float *h, const float *x, int n)
{
    double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    int k = 0;
    for (; k + 3 < n; k += 4) {
        a0 += (double)h[k] * (double)x[k];
        a1 += (double)h[k + 1] * (double)x[k + 1];
        a2 += (double)h[k + 2] * (double)x[k + 2];
        a3 += (double)h[k + 3] * (double)x[k + 3];
    }
    for (; k < n; k++) a0 += (double)h[k] * (double)x[k];
    return a0 + a1 + a2 + a3;
}

__attribute__((target("avx2")))
static double filter_avx2(const float *h, const float *x, int n)
{
    __m256d acc = _mm256_setzero_pd();
    int k = 0;
    for (; k + 3 < n; k += 4) {
        const __m256d hk = _mm256_cvtps_pd(_mm_loadu_ps(h + k));
        const __m256d xk = _mm256_cvtps_pd(_mm_loadu_ps(x + k));
        acc = _mm256_add_pd(acc, _mm256_mul_pd(hk, xk));
    }
    double a[4];
    _mm256_storeu_pd(a, acc);
    for (; k < n; k++) a[0] += (double)h[k] * (double)x[k];
    return a[0] + a[1] + a[2] + a[3];
}

/*
 * Outputs [from, to) of the decimation by `factor` of the `n` samples x with the filter h
 * (`taps` of them, odd; centred on the output's sample): resample.ts `filterInto`.
 */
void kdsp_decimate(const float *x, int n, int factor, const float *h, int taps, float *out, int from, int to)
{
    const int mid = (taps - 1) / 2;
    const int vec = avx2();
    for (int o = from; o < to; o++) {
        const int c = o * factor;
        const int lo = mid - c > 0 ? mid - c : 0;
        const int hi = n - c + mid < taps ? n - c + mid : taps;
        /* Taps lo..hi-1 meet samples c - mid + lo.., all inside the signal. */
        const float *xs = x + (c - mid + lo);
        out[o] = (float)(vec ? filter_avx2(h + lo, xs, hi - lo) : filter_scalar(h + lo, xs, hi - lo));
    }
}

/* ---- Cross-correlations of blocks, summed per frame ---- */

static double cc_scalar(const double *x, int p, int q, int g)
{
    double r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    int j = 0;
    for (; j + 3 < g; j += 4) {
        r0 += x[p + j] * x[q + j];
        r1 += x[p + j + 1] * x[q + j + 1];
        r2 += x[p + j + 2] * x[q + j + 2];
        r3 += x[p + j + 3] * x[q + j + 3];
    }
    for (; j < g; j++) r0 += x[p + j] * x[q + j];
    return r0 + r1 + r2 + r3;
}

__attribute__((target("avx2")))
static double cc_avx2(const double *x, int p, int q, int g)
{
    __m256d acc = _mm256_setzero_pd();
    int j = 0;
    for (; j + 3 < g; j += 4) acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_loadu_pd(x + p + j), _mm256_loadu_pd(x + q + j)));
    double r[4];
    _mm256_storeu_pd(r, acc);
    for (; j < g; j++) r[0] += x[p + j] * x[q + j];
    return r[0] + r[1] + r[2] + r[3];
}

/*
 * yin.ts `FrameCorrelations.fill` for `count` frames: for every lag tau = 1..maxLag+1, the
 * products of the blocks of g samples from `origin` + a(tau) (a = max(0, (maxLag - tau) >> 1))
 * into q, and frame f's r(tau) = the sum of its win/g blocks, in order, at r[f·(maxLag+2) + tau].
 * x is the zero-padded signal, so every index read is inside it.
 */
void kdsp_frame_correlations(const double *x, int origin, int hop, int g, int win, int count, int maxLag, double *q, double *r)
{
    const int blocks = ((count - 1) * hop + win) / g;
    const int per_win = win / g, per_hop = hop / g, stride = maxLag + 2;
    const int vec = avx2();
    for (int tau = 1; tau <= maxLag + 1; tau++) {
        const int a = (maxLag - tau) >> 1 > 0 ? (maxLag - tau) >> 1 : 0;
        const int start = origin + a;
        for (int m = 0; m < blocks; m++) {
            const int p = start + m * g;
            q[m] = vec ? cc_avx2(x, p, p + tau, g) : cc_scalar(x, p, p + tau, g);
        }
        for (int f = 0; f < count; f++) {
            double sum = 0;
            const int m0 = f * per_hop;
            for (int k = 0; k < per_win; k++) sum += q[m0 + k];
            r[(long)f * stride + tau] = sum;
        }
    }
}
