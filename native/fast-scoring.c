/*
 * Exact, vectorised codebook evaluation for PocketSphinx 5prealpha's phonetically-tied (PTM)
 * and semi-continuous models.
 *
 * For each frame, the library's `ptm_mgau_frame_eval` (and `s2_semi_mgau_frame_eval`) finds
 * the best few Gaussians (top-N) of every codebook the search needs (the semi-continuous model
 * has one, shared by every senone), then mixes them into senone scores. Finding them was most
 * of a decoding pass's time: one Gaussian at a time, one dimension at a time, cut off early
 * when it falls behind (partial distance elimination). This file scores every Gaussian of each
 * needed codebook at once, eight at a time in AVX2 registers where the processor has them, and
 * then builds the top-N lists exactly as the library does.
 *
 * The answer is the library's own, bit for bit:
 * - each Gaussian's score is the same float operations in the same order (the library's
 *   elimination only ever skips Gaussians whose partial score falls under its threshold; the
 *   partial scores only fall, so which Gaussians it keeps is decided by the last of them, and
 *   the full score of every kept one is the same sum);
 * - the top-N lists follow the library's rules from the pass's own history: last frame's
 *   codewords re-scored and re-sorted, then every codeword at or above the running threshold
 *   inserted in codeword order, ties as the library breaks them;
 * - they are normalised as the library does, and the library itself mixes the senones (its
 *   frame function, called for a frame it treats as already evaluated).
 * `kps_install` checks every structure it touches and declines (returns 0) for anything else.
 *
 * A reading is decoded several times over the same frames (word pass, phone pass, free phone
 * loop, repeat decode), and each pass used to find the same codebooks' top-N again. With
 * sharing on, a codebook's list is kept per frame, keyed by the frame's features and the
 * reading the caller names (`kps_reading`), and a later pass of that reading over bit-identical
 * features takes it instead of scoring the codebook. Only lists that any history would give are
 * kept (see `direct_topn`), so the answer stays the library's own.
 *
 * Build (scripts/build-native.sh): cc -O3 -fPIC -shared -ffp-contract=off -fno-fast-math: no
 * fused multiply-add and no reordering, so every sum rounds exactly as the library's do.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <immintrin.h>

typedef float mfcc_t;

/* ---- The library's structures, as laid out in 5prealpha (only what is read or written). ---- */

struct mgau;
typedef struct {
    const char *name;
    int (*frame_eval)(struct mgau *, int16_t *, uint8_t *, int32_t, mfcc_t **, int32_t, int32_t);
    int (*transform)(struct mgau *, void *);
    void (*free)(struct mgau *);
} mgau_funcs_t;

typedef struct mgau {
    mgau_funcs_t *vt;
    int frame_idx;
} mgau_base_t;

typedef struct {
    mfcc_t ****mean;
    mfcc_t ****var;
    mfcc_t ***det;
    void *lmath;
    int32_t n_mgau;
    int32_t n_feat;
    int32_t n_density;
    int32_t *featlen;
} gauden_t;

typedef struct {
    int32_t cw;
    int32_t score;
} topn_t;

typedef struct {
    topn_t ***topn;
    uint32_t *mgau_active;
} fast_eval_t;

typedef struct {
    mgau_base_t base;
    void *config;
    gauden_t *g;
    int32_t n_sen;
    uint8_t *sen2cb;
    uint8_t ***mixw;
    void *sendump_mmap;
    uint8_t *mixw_cb;
    int16_t max_topn;
    int16_t ds_ratio;
    fast_eval_t *hist;
    fast_eval_t *f;
    int n_fast_hist;
    void *lmath_8b;
    void *lmath;
} ptm_mgau_t;

typedef struct {
    int32_t score;
    int32_t codeword;
} vq_t;

typedef struct {
    mgau_base_t base;
    void *config;
    gauden_t *g;
    uint8_t ***mixw;
    void *sendump_mmap;
    uint8_t *mixw_cb;
    int32_t n_sen;
    uint8_t *topn_beam;
    int16_t max_topn;
    int16_t ds_ratio;
    vq_t ***topn_hist;
    uint8_t **topn_hist_n;
    vq_t **f;
    int n_topn_hist;
    void *lmath_8b;
    void *lmath;
} semi_mgau_t;

typedef struct {
    void *config;
    void *lmath;
    void *strings;
    void *fe;
    void *fcb;
    void *mdef;
    void *tmat;
    mgau_base_t *mgau;
} acmod_head_t;

typedef struct {
    void *config;
    int refcount;
    acmod_head_t *acmod;
    void *dict;
    void *d2p;
    void *lmath;
} decoder_head_t;

typedef struct {
    void *table;
    uint32_t table_size;
    uint8_t width;
    int8_t shift;
} logadd_t;                  /* the head of the library's logmath_t */

#define SENSCR_SHIFT 10
#define MAX_NEG_ASCR 96
#define WORST_SCORE ((int32_t)0xE0000000)

#define MAX_FEAT 4
#define MAX_CB 256
#define MAX_DENSITY 256

/* ---- Per installed decoder ---- */

typedef struct {
    mgau_funcs_t vt;         /* first: the mgau's vt points here */
    mgau_funcs_t *orig;
    void *model;             /* the library's ptm_mgau_t or semi_mgau_t */
    gauden_t *g;
    int n_mgau, n_feat, n_density, ceplen, max_topn;
    int featlen[MAX_FEAT];   /* each stream's length */
    int featoff[MAX_FEAT];   /* its place among a frame's features, streams one after another */
    float *mean_t;           /* [cb][stream][dim][density]: the means, dimension-major */
    float *var_t;
    float *scores;           /* [cb][stream][density]: this frame's scores of the active codebooks */
    float *before_last;      /* semi-continuous: [stream][density], each sum before its last dimension */
    int share;               /* PTM: lists shared between passes over the same frames (below) */
    int direct;              /* PTM: lists with no ties found directly (`direct_topn`) */
    int32_t *since;          /* PTM, [slot][cb]: the frame whose order a list of that history slot holds */
    int32_t *slot_frame;     /* PTM, [slot]: the frame each history slot was last written for */
    float *ring;             /* PTM: the last RING_FRAMES frames' features, by frame % RING_FRAMES */
    int32_t last_frame;      /* PTM: the last frame evaluated, -1 before the first */
    topn_t *shadow;          /* PTM, when checking: [cb][stream][N], every list as the library keeps it */
    const uint8_t *logadd;   /* PTM: the library's 8-bit log-add table, when the senones are mixed here */
    uint8_t *weights;        /* PTM, then: [senone][stream][codeword], the mixture weights by senone */
    struct share_s *store;   /* the model's store, once a pass has shared (store_of) */
    uint64_t fingerprint;    /* the model's, for sharing between decoders of the same model */
} hook_t;

static inline const float *block_of(const float *t, const hook_t *h, int cb, int f)
{
    /* [cb][stream] blocks of featlen x n_density; every stream before f in this codebook first */
    return t + ((size_t)cb * h->ceplen + h->featoff[f]) * h->n_density;
}

static inline float *scores_of(const hook_t *h, int cb, int f)
{
    return h->scores + ((size_t)cb * h->n_feat + f) * h->n_density;
}

/* One Gaussian's score: det minus the weighted squared distance, dimension by dimension. */
static inline float gauss_score(const hook_t *h, int cb, int f, int cw, const mfcc_t *z)
{
    const gauden_t *g = h->g;
    const int L = h->featlen[f];
    const mfcc_t *mean = g->mean[cb][f][0] + (size_t)cw * L;
    const mfcc_t *var = g->var[cb][f][0] + (size_t)cw * L;
    float d = g->det[cb][f][cw];
    for (int j = 0; j < L; j++) {
        float diff = z[j] - mean[j];
        float sq = diff * diff;
        float c = sq * var[j];
        d = d - c;
    }
    return d;
}

/* Every Gaussian of a codebook's stream at once: each one's sum in the same order, vectorised
 * across them (separate multiplies and subtractions, so every lane rounds as the library's
 * scalar code does). `n` Gaussians of `L` dimensions, means and variances dimension-major.
 * `before_last`, when given, receives each sum before its last dimension. */
__attribute__((target_clones("avx2", "default")))
static void gaussian_scores(int n, int L, const float *restrict det, const float *mt, const float *vt,
                            const mfcc_t *z, float *restrict out, float *restrict before_last)
{
    for (int k = 0; k < n; k++) out[k] = det[k];
    for (int j = 0; j < L; j++) {
        const float zj = z[j];
        const float *restrict m = mt + (size_t)j * n, *restrict v = vt + (size_t)j * n;
        if (j == L - 1 && before_last) memcpy(before_last, out, (size_t)n * sizeof(float));
        for (int k = 0; k < n; k++) {
            float diff = zj - m[k];
            float sq = diff * diff;
            float c = sq * v[k];
            out[k] = out[k] - c;
        }
    }
}

static void codebook_scores(const hook_t *h, int cb, int f, const mfcc_t *z, float *restrict out)
{
    gaussian_scores(h->n_density, h->featlen[f], h->g->det[cb][f], block_of(h->mean_t, h, cb, f),
                    block_of(h->var_t, h, cb, f), z, out, NULL);
}

/* Which of 32 scores from `d` are at or above `t` (bit i for d[i]); the compare is the library's. */
__attribute__((target_clones("avx2", "default")))
static uint32_t at_or_above(const float *d, float t)
{
    uint32_t mask = 0;
    for (int i = 0; i < 32; i++) mask |= (uint32_t)!(d[i] < t) << i;
    return mask;
}

/* Which of the scores x[base..base+32) (fewer at the end of n) are at or above `t`. */
static uint32_t block_mask(const float *x, int base, int n, float t)
{
    if (n - base >= 32) return at_or_above(x + base, t);
    uint32_t mask = 0;
    for (int i = 0; base + i < n; i++) mask |= (uint32_t)!(x[base + i] < t) << i;
    return mask;
}

/*
 * The library's handling of a top-N list, for each kind of list entry (PTM's and the
 * semi-continuous model's order their fields differently):
 * - resort_T: a re-scored codeword into the first i+1 places, behind those it ties with;
 * - insert_T: a new codeword in place of the worst, which drops out, ahead of those it ties with;
 * - scan_T: the scan of a codebook, in codeword order: a codeword not yet listed enters when
 *   its score before the last dimension (`before_last`) is at or above the running threshold,
 *   as a float (the library stops a sum as soon as it falls under), and, where `truncated`,
 *   its full score truncated to an integer is too (the semi-continuous model's test; PTM's
 *   compares the full score alone: `before_last` = `d`, not `truncated`). The threshold only
 *   rises as codewords enter, so the codewords under it at the start of a block of 32 are
 *   passed over at once.
 */
#define TOPN_LIST(T, CW)                                                                    \
    static void resort_##T(T *topn, int i, int32_t d)                                       \
    {                                                                                       \
        topn[i].score = d;                                                                  \
        if (i == 0) return;                                                                 \
        T v = topn[i];                                                                      \
        int j;                                                                              \
        for (j = i - 1; j >= 0 && d > topn[j].score; j--) topn[j + 1] = topn[j];            \
        topn[j + 1] = v;                                                                    \
    }                                                                                       \
    static void insert_##T(T *best, T *worst, int cw, int32_t d)                            \
    {                                                                                       \
        T *cur;                                                                             \
        for (cur = worst - 1; cur >= best && d >= cur->score; --cur) cur[1] = cur[0];      \
        ++cur;                                                                              \
        cur->CW = cw;                                                                       \
        cur->score = d;                                                                     \
    }                                                                                       \
    static void scan_##T(T *topn, int max_topn, const float *d, const float *before_last, int truncated, int n) \
    {                                                                                       \
        T *worst = topn + (max_topn - 1);                                                   \
        for (int base = 0; base < n; base += 32) {                                          \
            uint32_t mask = block_mask(before_last, base, n, (float)worst->score);          \
            while (mask) {                                                                  \
                const int k = base + __builtin_ctz(mask);                                   \
                mask &= mask - 1;                                                           \
                if (before_last[k] < (float)worst->score || (truncated && (int32_t)d[k] < worst->score)) continue; \
                int i;                                                                      \
                for (i = 0; i < max_topn; i++) if (topn[i].CW == k) break;                  \
                if (i < max_topn) continue;                                                 \
                insert_##T(topn, worst, k, (int32_t)d[k]);                                  \
            }                                                                               \
        }                                                                                   \
    }

TOPN_LIST(topn_t, cw)
TOPN_LIST(vq_t, codeword)

/* The library mixes the senones itself: for a frame it holds as already evaluated it does only
 * that, from the top-N lists just built in its history. */
static int library_mixes(hook_t *h, struct mgau *ps, int16_t *senone_scores, uint8_t *senone_active,
                         int32_t n_senone_active, mfcc_t **featbuf, int32_t frame, int32_t compallsen)
{
    int saved = ps->frame_idx;
    ps->frame_idx = frame + 1;
    int rv = h->orig->frame_eval(ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);
    ps->frame_idx = saved;
    return rv;
}

static inline int is_active(const uint32_t *bits, int cb)
{
    return (bits[cb / 32] >> (cb % 32)) & 1u;
}

/* ---- The top-N list that no history decides ---- */

/*
 * A codebook's list is the one the library gives whatever the pass's history when its integer
 * scores strictly fall and no codeword outside it reaches the last one's. The history only
 * decides ties (which of two equal scores enters, in which order); without one, every codeword
 * of the true top N enters when the scan reaches it (its float score is above the running
 * threshold) and no other stays, so the list is the top N in falling order. Nearly every list
 * is of this kind (199 of 383,791 on five native sentences were not), so it is found directly,
 * without the scan, where the processor has AVX2 and codebooks come in eights: the N best
 * integer scores of each lane of eight, the N-th best of those, and the codewords that reach
 * it. When it is not of that kind the list is left as it was, for the scan.
 */
#define DIRECT_TOPN 8        /* lists longer than this are always scanned */

__attribute__((target("avx2,popcnt"), always_inline))
static inline int direct_topn_of(topn_t *topn, const int N, const float *d, int n)
{
    /* Each of the eight lanes' N best, falling: a sorting network fed eight scores at a time. */
    __m256i best[DIRECT_TOPN];
    for (int r = 0; r < N; r++) best[r] = _mm256_set1_epi32(INT32_MIN);
    for (int b = 0; b < n; b += 8) {
        __m256i x = _mm256_cvttps_epi32(_mm256_loadu_ps(d + b));
        for (int r = 0; r < N; r++) {
            const __m256i hi = _mm256_max_epi32(best[r], x);
            x = _mm256_min_epi32(best[r], x);
            best[r] = hi;
        }
    }
    /* The N best of all, merged from the lanes' (which hold them, ties counted); a tie among
     * them leaves the list to the history. */
    int32_t lanes[DIRECT_TOPN + 1][8], top[DIRECT_TOPN] = {0};
    for (int r = 0; r < N; r++) _mm256_storeu_si256((__m256i *)lanes[r], best[r]);
    for (int l = 0; l < 8; l++) lanes[N][l] = INT32_MIN;
    int row[8] = {0};
    for (int i = 0; i < N; i++) {
        int from = 0;
        int32_t head = lanes[row[0]][0];
        for (int l = 1; l < 8; l++) {
            const int32_t y = lanes[row[l]][l];
            from = y > head ? l : from;
            head = y > head ? y : head;
        }
        top[i] = head;
        if (top[i] == INT32_MIN || (i > 0 && top[i] == top[i - 1])) return 0;
        row[from]++;
    }
    /* Exactly N codewords reach the last: the list, each in the place its score gives it
     * (how many of the N beat it); no branch that depends on where they are. */
    const __m256i under = _mm256_set1_epi32(top[N - 1] - 1);
    uint32_t reach[MAX_DENSITY / 32] = {0};
    int count = 0;
    for (int b = 0; b < n; b += 8) {
        const __m256i v = _mm256_cvttps_epi32(_mm256_loadu_ps(d + b));
        const uint32_t mask = (uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(v, under)));
        reach[b / 32] |= mask << (b % 32);
        count += __builtin_popcount(mask);
    }
    if (count != N) return 0;
    __m256i tops = _mm256_set1_epi32(INT32_MAX);
    memcpy(&tops, top, (size_t)N * sizeof(int32_t));
    for (int w = 0, k = 0; k < N; w++)
        for (uint32_t bits = reach[w]; bits; bits &= bits - 1, k++) {
            const int cw = w * 32 + __builtin_ctz(bits);
            const int32_t score = (int32_t)d[cw];
            const __m256i above = _mm256_cmpgt_epi32(tops, _mm256_set1_epi32(score));
            const int i = __builtin_popcount((uint32_t)_mm256_movemask_ps(_mm256_castsi256_ps(above)) & ((1u << N) - 1));
            topn[i].cw = cw;
            topn[i].score = score;
        }
    return 1;
}

/* The list of a codebook's stream when no history decides it (1), written to `topn`; 0, with
 * `topn` untouched, when one does. */
__attribute__((target("avx2,popcnt")))
static int direct_topn(topn_t *topn, int N, const float *d, int n)
{
    return N == 4 ? direct_topn_of(topn, 4, d, n) : direct_topn_of(topn, N, d, n);
}

/* ---- Top-N lists shared between passes over the same frames ---- */

/* One frame's shared lists: its features (compared in full) and the codebooks kept. */
typedef struct {
    uint64_t key;            /* hash of the features and the reading; 0: empty */
    uint64_t reading;
    uint32_t age;
    uint32_t kept[MAX_CB / 32];
} share_head_t;

#define SHARE_SETS 1024      /* frames kept: sets of SHARE_WAYS, the older one replaced */
#define SHARE_WAYS 2
#define SHARE_LOCKS 64       /* a set is read and written under lock (set % SHARE_LOCKS) */
#define SHARE_MODELS 4

/* The process's shared lists for one model: every decoding thread's passes read and add to it. */
typedef struct share_s {
    uint64_t fingerprint;
    int ceplen, per_frame;   /* floats of features; list entries of a frame */
    size_t entry_bytes;
    uint32_t clock;          /* ages of entries (atomic) */
    unsigned char *entries;  /* SHARE_SETS x SHARE_WAYS of head, features, lists */
    pthread_mutex_t locks[SHARE_LOCKS];
} share_t;

static share_t stores[SHARE_MODELS];
static pthread_mutex_t stores_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread uint64_t current_reading; /* the calling thread's, 0: none (no sharing) */
static __thread double lists_shared;      /* lists this thread took from the store */

/* How many codebook lists the calling thread has taken from earlier passes (a diagnostic). */
double kps_lists_shared(void)
{
    return lists_shared;
}

/* Names the reading the calling thread's next passes belong to; 0 ends sharing. */
void kps_reading(double reading)
{
    current_reading = reading > 0 && reading < 18446744073709551616.0 ? (uint64_t)reading : 0;
}

/* The store for the hook's model, made on first use and kept for the process (its size is
 * fixed); NULL when memory runs out or every place is taken by other models. */
static share_t *store_of(const hook_t *h)
{
    const int per_frame = h->n_mgau * h->n_feat * h->max_topn;
    share_t *found = NULL;
    pthread_mutex_lock(&stores_lock);
    for (int i = 0; i < SHARE_MODELS && !found; i++) {
        share_t *x = stores + i;
        if (x->entries && x->fingerprint == h->fingerprint && x->ceplen == h->ceplen && x->per_frame == per_frame) found = x;
    }
    for (int i = 0; i < SHARE_MODELS && !found; i++) {
        share_t *x = stores + i;
        if (x->entries) continue;
        size_t bytes = sizeof(share_head_t) + (size_t)h->ceplen * sizeof(float) + (size_t)per_frame * sizeof(topn_t);
        bytes = (bytes + 7) / 8 * 8;
        if (!(x->entries = calloc((size_t)SHARE_SETS * SHARE_WAYS, bytes))) break;
        for (int k = 0; k < SHARE_LOCKS; k++) pthread_mutex_init(x->locks + k, NULL);
        x->fingerprint = h->fingerprint;
        x->ceplen = h->ceplen;
        x->per_frame = per_frame;
        x->entry_bytes = bytes;
        found = x;
    }
    pthread_mutex_unlock(&stores_lock);
    return found;
}

static inline share_head_t *entry_at(const share_t *x, size_t i)
{
    return (share_head_t *)(x->entries + i * x->entry_bytes);
}

static inline float *features_of(share_head_t *e)
{
    return (float *)(e + 1);
}

static inline topn_t *lists_of(const share_t *x, share_head_t *e)
{
    return (topn_t *)(features_of(e) + x->ceplen);
}

/* The hash of a frame's features (streams one after another) with the reading's (never 0). */
static uint64_t frame_key(const hook_t *h, const float *flat)
{
    uint64_t k = 0x9E3779B97F4A7C15ULL ^ current_reading * 0xFF51AFD7ED558CCDULL;
    const uint32_t *w = (const uint32_t *)flat;
    for (int i = 0; i < h->ceplen; i++) k = (k ^ w[i]) * 0x100000001B3ULL;
    return k ? k : 1;
}

static inline pthread_mutex_t *lock_of(share_t *x, uint64_t key)
{
    return x->locks + (key % SHARE_SETS) % SHARE_LOCKS;
}

/* Under the set's lock: the frame's entry, or with `make` the set's oldest made over to it (no
 * codebook kept yet); NULL otherwise. */
static share_head_t *share_find(share_t *x, const hook_t *h, const float *flat, uint64_t key, int make)
{
    const size_t set = (size_t)(key % SHARE_SETS) * SHARE_WAYS;
    share_head_t *oldest = NULL;
    const uint32_t now = __atomic_add_fetch(&x->clock, 1, __ATOMIC_RELAXED);
    for (int w = 0; w < SHARE_WAYS; w++) {
        share_head_t *e = entry_at(x, set + w);
        if (e->key == key && e->reading == current_reading && memcmp(features_of(e), flat, (size_t)h->ceplen * sizeof(float)) == 0) {
            e->age = now;
            return e;
        }
        if (!oldest || e->key == 0 || (oldest->key != 0 && e->age < oldest->age)) oldest = e;
    }
    if (!make) return NULL;
    oldest->key = key;
    oldest->reading = current_reading;
    oldest->age = now;
    memset(oldest->kept, 0, sizeof oldest->kept);
    memcpy(features_of(oldest), flat, (size_t)h->ceplen * sizeof(float));
    return oldest;
}

/* ---- Inactive codebooks left behind ---- */

/*
 * The library re-scores every codebook's list at every frame, active or not, so that a codebook
 * that becomes active again starts from its last codewords, re-sorted frame by frame (a stable
 * sort: ties keep the order of the frame before). That history only matters where a list is
 * not found directly (ties), so an inactive codebook is left as it was, with the frame its
 * order belongs to (`since`), and brought up to date only when its history is read: when its
 * direct list fails, about every RING_FRAMES frames (before the features it needs are gone),
 * and before the library itself reads the lists (all senones scored, a past frame, a new
 * utterance continuing from the last lists). Its order at a frame whose scores of the listed
 * codewords all differ is theirs whatever came before, so it is re-scored from the latest such
 * frame, nearly always the last one. Every list of every history slot stays within reach of
 * the kept features: a list is brought up to date before it falls RING_FRAMES less the slots
 * behind.
 */
#define RING_FRAMES 64

/* A check of the above, for tests: hooks installed while it is on (1) also keep every list as
 * the library does, re-scored at every frame (`shadow`), and each list brought up to date is
 * compared with it; 2 checks the same with every list scanned (none found directly), as on a
 * processor without AVX2. */
static int checking;
static uint64_t histories_checked, histories_wrong;

void kps_check(int mode)
{
    checking = mode == 1 || mode == 2 ? mode : 0;
}

/* Lists brought up to date and compared with the library's way, and how many differed. */
double kps_histories_checked(void)
{
    return (double)__atomic_load_n(&histories_checked, __ATOMIC_RELAXED);
}

double kps_histories_wrong(void)
{
    return (double)__atomic_load_n(&histories_wrong, __ATOMIC_RELAXED);
}

static inline topn_t *shadow_of(const hook_t *h, int cb, int f)
{
    return h->shadow + ((size_t)cb * h->n_feat + f) * h->max_topn;
}

/* A list brought up to date for the shadow's frame, compared with it (codewords in order). */
static void check_history(const hook_t *h, const topn_t *topn, int cb, int f)
{
    const topn_t *want = shadow_of(h, cb, f);
    int same = 1;
    for (int i = 0; i < h->max_topn; i++) same &= topn[i].cw == want[i].cw;
    __atomic_fetch_add(&histories_checked, 1, __ATOMIC_RELAXED);
    if (!same) __atomic_fetch_add(&histories_wrong, 1, __ATOMIC_RELAXED);
}

/* The shadow taken from the lists of history slot `slot`. */
static void shadow_from(hook_t *h, int slot)
{
    ptm_mgau_t *s = h->model;
    for (int cb = 0; cb < h->n_mgau; cb++)
        for (int f = 0; f < h->n_feat; f++) memcpy(shadow_of(h, cb, f), s->hist[slot].topn[cb][f], (size_t)h->max_topn * sizeof(topn_t));
}

static inline const float *ring_at(const hook_t *h, int32_t frame)
{
    return h->ring + (size_t)(frame % RING_FRAMES) * h->ceplen;
}

/* One stream's list of codebook `cb`, from the order of frame `from` to that of frame `to`
 * (to - from < RING_FRAMES), as re-scoring it at every frame between would leave it. */
static void catch_up(const hook_t *h, topn_t *topn, int cb, int f, int32_t from, int32_t to)
{
    const int N = h->max_topn;
    int32_t v = to;
    for (; v > from; v--) {
        int32_t score[MAX_DENSITY];
        const float *z = ring_at(h, v) + h->featoff[f];
        for (int i = 0; i < N; i++) score[i] = (int32_t)gauss_score(h, cb, f, topn[i].cw, z);
        int ties = 0;
        for (int i = 0; i < N; i++)
            for (int j = i + 1; j < N; j++) ties |= score[i] == score[j];
        if (ties) continue;
        for (int i = 0; i < N; i++) resort_topn_t(topn, i, score[i]);
        break;
    }
    for (int32_t u = v + 1; u <= to; u++) {
        const float *z = ring_at(h, u) + h->featoff[f];
        for (int i = 0; i < N; i++) resort_topn_t(topn, i, (int32_t)gauss_score(h, cb, f, topn[i].cw, z));
    }
}

/* Every list of history slot `slot` brought up to the slot's own frame, as the library keeps them. */
static void catch_up_slot(hook_t *h, int slot)
{
    ptm_mgau_t *s = h->model;
    const int32_t at = h->slot_frame[slot];
    int32_t *since = h->since + (size_t)slot * h->n_mgau;
    for (int cb = 0; cb < h->n_mgau; cb++) {
        if (since[cb] >= at) continue;
        for (int f = 0; f < h->n_feat; f++) {
            catch_up(h, s->hist[slot].topn[cb][f], cb, f, since[cb], at);
            if (h->shadow && at == h->last_frame) check_history(h, s->hist[slot].topn[cb][f], cb, f);
        }
        since[cb] = at;
    }
}

/* ---- Senones mixed here ---- */

/*
 * The library's mixing of the senones from the top-N lists (`ptm_mgau_senone_eval`), for an
 * uncompressed mixture-weight table: every senone's score zeroed, each active senone's the sum
 * over streams of its codewords' weights plus scores, log-added (with the library's 8-bit
 * table), then every score less the best. The same integer operations; the last loop, over all
 * 5,126 senones of the English model at every frame (a quarter of the library's mixing in one
 * profile), is vectorised here.
 */
static void mix_senones(const hook_t *h, const ptm_mgau_t *s, const fast_eval_t *fe, int16_t *restrict senone_scores,
                        const uint8_t *senone_active, int32_t n_senone_active)
{
    const int N = h->max_topn, n_feat = h->n_feat, n_sen = s->n_sen;
    const uint8_t *table = h->logadd;
    memset(senone_scores, 0, (size_t)n_sen * sizeof(int16_t));
    int best = 0x7fffffff;
    for (int i = 0, sen = 0; i < n_senone_active; i++) {
        sen += senone_active[i];
        const int cb = s->sen2cb[sen];
        int ascore = 0;
        for (int f = 0; f < n_feat; f++) {
            const topn_t *topn = fe->topn[cb][f];
            const uint8_t *weights = h->weights + ((size_t)sen * n_feat + f) * h->n_density;
            int fden = weights[topn[0].cw] + topn[0].score;
            for (int j = 1; j < N; j++) {
                const int x = weights[topn[j].cw] + topn[j].score;
                fden = fden > x ? x - table[fden - x] : fden - table[x - fden];
            }
            ascore += fden;
        }
        if (ascore < best) best = ascore;
        senone_scores[sen] = (int16_t)ascore;
    }
    for (int i = 0; i < n_sen; i++) senone_scores[i] = (int16_t)(senone_scores[i] - best);
}

static int fast_frame_eval(struct mgau *ps, int16_t *senone_scores, uint8_t *senone_active,
                           int32_t n_senone_active, mfcc_t **featbuf, int32_t frame, int32_t compallsen)
{
    hook_t *h = (hook_t *)ps->vt;
    ptm_mgau_t *s = h->model;
    const int H = s->n_fast_hist;
    const int idx = frame % H, from = idx == 0 ? H - 1 : idx - 1;
    if (compallsen || frame < ps->frame_idx) {
        /* The library reads and re-scores every list itself: all of them as it keeps them. */
        for (int slot = 0; slot < H; slot++) catch_up_slot(h, slot);
        int rv = h->orig->frame_eval(ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);
        if (frame >= ps->frame_idx) {
            for (int cb = 0; cb < h->n_mgau; cb++) h->since[(size_t)idx * h->n_mgau + cb] = frame;
            h->slot_frame[idx] = h->last_frame = frame;
            if (h->shadow) shadow_from(h, idx);
        }
        return rv;
    }

    const int N = h->max_topn, n_mgau = h->n_mgau, n_feat = h->n_feat;
    /* A new utterance goes on from the lists of slot `from`, whatever frame they were for: every
     * slot brought up to its frame while the features are there, and `from` taken as the frame
     * before this one. */
    if (frame != h->last_frame + 1) {
        for (int slot = 0; slot < H; slot++) catch_up_slot(h, slot);
        for (int cb = 0; cb < n_mgau; cb++) h->since[(size_t)from * n_mgau + cb] = frame - 1;
        if (h->shadow) shadow_from(h, from);
    }
    fast_eval_t *fe = s->hist + idx;
    fast_eval_t *last = s->hist + from;
    s->f = fe;
    memcpy(fe->topn[0][0], last->topn[0][0], (size_t)n_mgau * n_feat * N * sizeof(topn_t));
    int32_t *since = h->since + (size_t)idx * n_mgau;
    memcpy(since, h->since + (size_t)from * n_mgau, (size_t)n_mgau * sizeof(int32_t));
    /* Lists whose history would outlast the kept features are brought up to date; then this
     * frame's features are kept. */
    for (int cb = 0; cb < n_mgau; cb++) {
        if (since[cb] > frame - RING_FRAMES + H) continue;
        for (int f = 0; f < n_feat; f++) {
            catch_up(h, fe->topn[cb][f], cb, f, since[cb], frame - 1);
            if (h->shadow) check_history(h, fe->topn[cb][f], cb, f);
        }
        since[cb] = frame - 1;
    }
    float *kept = (float *)ring_at(h, frame); /* also the features the shared lists are keyed by */
    for (int f = 0; f < n_feat; f++) memcpy(kept + h->featoff[f], featbuf[f], (size_t)h->featlen[f] * sizeof(float));

    /* Active codebooks: those of the active senones. */
    memset(fe->mgau_active, 0, (size_t)((n_mgau + 31) / 32) * sizeof(uint32_t));
    for (int i = 0, sen = 0; i < n_senone_active; i++) {
        sen += senone_active[i];
        int cb = s->sen2cb[sen];
        fe->mgau_active[cb / 32] |= 1u << (cb % 32);
    }
    /* The lists an earlier pass of the reading kept for these features, if any, for the
     * codebooks needed now. */
    if (h->share && current_reading && !h->store) h->store = store_of(h);
    share_t *x = current_reading ? h->store : NULL;
    const int per_cb = n_feat * N;
    uint32_t taken[MAX_CB / 32] = {0}, fresh[MAX_CB / 32] = {0};
    uint64_t key = 0;
    if (x) {
        key = frame_key(h, kept);
        pthread_mutex_lock(lock_of(x, key));
        share_head_t *e = share_find(x, h, kept, key, 0);
        for (int cb = 0; e && cb < n_mgau; cb++) {
            if (!is_active(fe->mgau_active, cb) || !is_active(e->kept, cb)) continue;
            for (int f = 0; f < n_feat; f++) memcpy(fe->topn[cb][f], lists_of(x, e) + (size_t)cb * per_cb + (size_t)f * N, (size_t)N * sizeof(topn_t));
            taken[cb / 32] |= 1u << (cb % 32);
            lists_shared++;
        }
        pthread_mutex_unlock(lock_of(x, key));
    }
    int any_fresh = 0;
    for (int cb = 0; cb < n_mgau; cb++) {
        if (is_active(taken, cb)) {
            since[cb] = frame;
            continue;
        }
        if (!is_active(fe->mgau_active, cb)) continue;
        for (int f = 0; f < n_feat; f++) codebook_scores(h, cb, f, featbuf[f], scores_of(h, cb, f));
        /* The list found directly when no history decides it; otherwise the library's way: last
         * frame's codewords re-scored (the history brought up to date first), then the scan of
         * the rest. Only the direct lists are kept for other passes. */
        int exact = 1;
        for (int f = 0; f < n_feat; f++) {
            topn_t *topn = fe->topn[cb][f];
            const float *d = scores_of(h, cb, f);
            if (h->direct && direct_topn(topn, N, d, h->n_density)) continue;
            if (since[cb] < frame - 1) catch_up(h, topn, cb, f, since[cb], frame - 1);
            if (h->shadow) check_history(h, topn, cb, f);
            for (int i = 0; i < N; i++) resort_topn_t(topn, i, (int32_t)d[topn[i].cw]);
            scan_topn_t(topn, N, d, d, 0, h->n_density);
            exact = 0;
        }
        since[cb] = frame;
        if (exact && x) {
            fresh[cb / 32] |= 1u << (cb % 32);
            any_fresh = 1;
        }
    }
    h->slot_frame[idx] = h->last_frame = frame;
    /* The shadow re-scored as the library does: an active codebook's list is this frame's. */
    for (int cb = 0; h->shadow && cb < n_mgau; cb++)
        for (int f = 0; f < n_feat; f++) {
            topn_t *want = shadow_of(h, cb, f);
            if (is_active(fe->mgau_active, cb)) {
                memcpy(want, fe->topn[cb][f], (size_t)N * sizeof(topn_t));
                continue;
            }
            for (int i = 0; i < N; i++) resort_topn_t(want, i, (int32_t)gauss_score(h, cb, f, want[i].cw, featbuf[f]));
        }
    /* The exact lists found now, kept for the reading's other passes. */
    if (any_fresh) {
        pthread_mutex_lock(lock_of(x, key));
        share_head_t *e = share_find(x, h, kept, key, 1);
        for (int cb = 0; cb < n_mgau; cb++) {
            if (!is_active(fresh, cb) || is_active(e->kept, cb)) continue;
            for (int f = 0; f < n_feat; f++) memcpy(lists_of(x, e) + (size_t)cb * per_cb + (size_t)f * N, fe->topn[cb][f], (size_t)N * sizeof(topn_t));
            e->kept[cb / 32] |= 1u << (cb % 32);
        }
        pthread_mutex_unlock(lock_of(x, key));
    }
    /* Normalise as the library does, each stream by the best of its active codebooks: negated, clamped. */
    for (int f = 0; f < n_feat; f++) {
        int32_t norm = WORST_SCORE;
        for (int cb = 0; cb < n_mgau; cb++)
            if (is_active(fe->mgau_active, cb) && norm < (fe->topn[cb][f][0].score >> SENSCR_SHIFT))
                norm = fe->topn[cb][f][0].score >> SENSCR_SHIFT;
        for (int cb = 0; cb < n_mgau; cb++) {
            if (!is_active(fe->mgau_active, cb)) continue;
            topn_t *topn = fe->topn[cb][f];
            for (int k = 0; k < N; k++) {
                int32_t v = -((topn[k].score >> SENSCR_SHIFT) - norm);
                topn[k].score = v > MAX_NEG_ASCR ? MAX_NEG_ASCR : v;
            }
        }
    }
    if (!h->logadd) return library_mixes(h, ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);
    mix_senones(h, s, fe, senone_scores, senone_active, n_senone_active);
    return 0;
}

/* ---- Semi-continuous models: one codebook, its top-N per stream, a top-N beam ---- */

/* The library's normalisation (mgau_norm): negated against the best, clamped, and cut at the
 * stream's top-N beam; returns how many codewords the senones mix. */
static int norm_semi(const semi_mgau_t *s, vq_t *topn, int f)
{
    const int32_t norm = topn[0].score >> SENSCR_SHIFT;
    int j;
    for (j = 0; j < s->max_topn; ++j) {
        topn[j].score = -((topn[j].score >> SENSCR_SHIFT) - norm);
        if (topn[j].score > MAX_NEG_ASCR) topn[j].score = MAX_NEG_ASCR;
        if (s->topn_beam[f] && topn[j].score > s->topn_beam[f]) break;
    }
    return j;
}

static int semi_frame_eval(struct mgau *ps, int16_t *senone_scores, uint8_t *senone_active,
                           int32_t n_senone_active, mfcc_t **featbuf, int32_t frame, int32_t compallsen)
{
    hook_t *h = (hook_t *)ps->vt;
    semi_mgau_t *s = h->model;
    if (frame < ps->frame_idx)
        return h->orig->frame_eval(ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);

    const int N = s->max_topn, n = h->n_density;
    const int idx = frame % s->n_topn_hist;
    vq_t **f = s->topn_hist[idx];
    vq_t **last = s->topn_hist[idx == 0 ? s->n_topn_hist - 1 : idx - 1];
    for (int i = 0; i < h->n_feat; i++) {
        float *d = scores_of(h, 0, i), *before_last = h->before_last + (size_t)i * n;
        gaussian_scores(n, h->featlen[i], h->g->det[0][i], block_of(h->mean_t, h, 0, i), block_of(h->var_t, h, 0, i),
                        featbuf[i], d, before_last);
        vq_t *topn = f[i];
        memcpy(topn, last[i], (size_t)N * sizeof(vq_t));
        for (int k = 0; k < N; k++) resort_vq_t(topn, k, (int32_t)d[topn[k].codeword]);
        if (frame % s->ds_ratio == 0) scan_vq_t(topn, N, d, before_last, 1, n);
        s->topn_hist_n[idx][i] = (uint8_t)norm_semi(s, topn, i);
    }
    return library_mixes(h, ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);
}

/* ---- Installing ---- */

static void hook_free(hook_t *h)
{
    free(h->mean_t);
    free(h->var_t);
    free(h->scores);
    free(h->before_last);
    free(h->since);
    free(h->slot_frame);
    free(h->ring);
    free(h->shadow);
    free(h->weights);
    free(h);
}

static void fast_free(struct mgau *ps)
{
    hook_t *h = (hook_t *)ps->vt;
    ps->vt = h->orig;
    hook_free(h);
    ps->vt->free(ps);
}

/* Memory starting on a cache line, in whole lines: the vector loads of a block never straddle
 * two lines because of where the allocator happened to put it. */
static void *lines_of(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

/* A hook over the Gaussians `g` with their means and variances laid out dimension-major; NULL
 * when they are out of the ranges handled or memory runs out. */
static hook_t *hook_new(mgau_base_t *base, void *model, gauden_t *g, int max_topn)
{
    if (!g || g->n_feat < 1 || g->n_feat > MAX_FEAT || g->n_mgau < 1 || g->n_mgau > MAX_CB) return NULL;
    if (g->n_density < 1 || g->n_density > MAX_DENSITY || max_topn < 1 || max_topn > g->n_density) return NULL;
    hook_t *h = calloc(1, sizeof(hook_t));
    if (!h) return NULL;
    h->n_feat = g->n_feat;
    for (int f = 0; f < g->n_feat; f++) {
        if (g->featlen[f] < 1) { free(h); return NULL; }
        h->featoff[f] = h->ceplen;
        h->featlen[f] = g->featlen[f];
        h->ceplen += g->featlen[f];
    }
    h->orig = base->vt;
    h->vt = *base->vt;
    h->vt.free = fast_free;
    h->model = model;
    h->g = g;
    h->n_mgau = g->n_mgau;
    h->n_density = g->n_density;
    h->max_topn = max_topn;
    size_t per_cb = (size_t)h->ceplen * h->n_density;
    h->mean_t = lines_of(per_cb * h->n_mgau * sizeof(float));
    h->var_t = lines_of(per_cb * h->n_mgau * sizeof(float));
    h->scores = lines_of((size_t)h->n_mgau * h->n_feat * h->n_density * sizeof(float));
    h->before_last = lines_of((size_t)h->n_feat * h->n_density * sizeof(float));
    if (!h->mean_t || !h->var_t || !h->scores || !h->before_last) {
        hook_free(h);
        return NULL;
    }
    for (int cb = 0; cb < h->n_mgau; cb++)
        for (int f = 0; f < h->n_feat; f++) {
            const int L = h->featlen[f];
            const float *mean = g->mean[cb][f][0], *var = g->var[cb][f][0];
            float *mt = (float *)block_of(h->mean_t, h, cb, f), *vt = (float *)block_of(h->var_t, h, cb, f);
            for (int k = 0; k < h->n_density; k++)
                for (int j = 0; j < L; j++) {
                    mt[(size_t)j * h->n_density + k] = mean[(size_t)k * L + j];
                    vt[(size_t)j * h->n_density + k] = var[(size_t)k * L + j];
                }
        }
    /* The model's fingerprint: its shape and every parameter of its Gaussians. */
    uint64_t fp = 0xCBF29CE484222325ULL ^ ((uint64_t)h->n_mgau << 40 ^ (uint64_t)h->n_density << 20 ^ (uint64_t)h->ceplen << 8 ^ (uint64_t)max_topn);
    const size_t all = (size_t)h->n_mgau * h->ceplen * h->n_density;
    const uint32_t *mw = (const uint32_t *)h->mean_t, *vw = (const uint32_t *)h->var_t;
    for (size_t i = 0; i < all; i++) fp = ((fp ^ mw[i]) * 0x100000001B3ULL ^ vw[i]) * 0x100000001B3ULL;
    for (int cb = 0; cb < h->n_mgau; cb++)
        for (int f = 0; f < h->n_feat; f++) {
            const uint32_t *dw = (const uint32_t *)g->det[cb][f];
            for (int k = 0; k < h->n_density; k++) fp = (fp ^ dw[k]) * 0x100000001B3ULL;
        }
    h->fingerprint = fp;
    return h;
}

/*
 * Installs the evaluation in a decoder (ps_decoder_t *), with top-N lists shared between passes
 * over the same frames when `share` (PTM models). Returns 1 when installed, 0 when the
 * decoder's model is not one it handles (the decoder is left as it was).
 */
int kps_install(void *decoder, int share)
{
    decoder_head_t *ps = decoder;
    if (!ps || !ps->acmod || ps->acmod->config != ps->config || ps->acmod->lmath != ps->lmath) return 0;
    mgau_base_t *base = ps->acmod->mgau;
    if (!base || !base->vt || !base->vt->name) return 0;
    hook_t *h = NULL;
    if (strcmp(base->vt->name, "ptm") == 0) {
        ptm_mgau_t *s = (ptm_mgau_t *)base;
        if (s->ds_ratio != 1 || s->n_fast_hist < 2 || s->n_fast_hist > RING_FRAMES / 2 || !s->hist) return 0;
        if (!(h = hook_new(base, s, s->g, s->max_topn))) return 0;
        h->since = malloc((size_t)s->n_fast_hist * h->n_mgau * sizeof(int32_t));
        h->slot_frame = malloc((size_t)s->n_fast_hist * sizeof(int32_t));
        h->ring = lines_of((size_t)RING_FRAMES * h->ceplen * sizeof(float));
        if (!h->since || !h->slot_frame || !h->ring) {
            hook_free(h);
            return 0;
        }
        for (size_t i = 0; i < (size_t)s->n_fast_hist * h->n_mgau; i++) h->since[i] = -1;
        for (int i = 0; i < s->n_fast_hist; i++) h->slot_frame[i] = -1;
        h->last_frame = -1;
        const logadd_t *lmath = s->lmath_8b;
        if (!s->mixw_cb && s->mixw && lmath && lmath->table && lmath->width == 1 &&
            (h->weights = malloc((size_t)s->n_sen * h->n_feat * h->n_density))) {
            h->logadd = lmath->table;
            for (int f = 0; f < h->n_feat; f++)
                for (int cw = 0; cw < h->n_density; cw++)
                    for (int sen = 0; sen < s->n_sen; sen++)
                        h->weights[((size_t)sen * h->n_feat + f) * h->n_density + cw] = s->mixw[f][cw][sen];
        }
        if (checking) {
            if (!(h->shadow = malloc((size_t)h->n_mgau * h->n_feat * h->max_topn * sizeof(topn_t)))) {
                hook_free(h);
                return 0;
            }
            shadow_from(h, s->n_fast_hist - 1);
        }
        h->vt.frame_eval = fast_frame_eval;
        h->share = share != 0;
        h->direct = s->max_topn <= DIRECT_TOPN && h->n_density % 8 == 0 && checking != 2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
    } else if (strcmp(base->vt->name, "s2_semi") == 0) {
        semi_mgau_t *s = (semi_mgau_t *)base;
        if (!s->g || s->g->n_mgau != 1 || s->ds_ratio < 1 || s->n_topn_hist < 2 || !s->topn_hist || !s->topn_hist_n || !s->topn_beam) return 0;
        if (!(h = hook_new(base, s, s->g, s->max_topn))) return 0;
        h->vt.frame_eval = semi_frame_eval;
    } else {
        return 0;
    }
    base->vt = &h->vt;
    return 1;
}
