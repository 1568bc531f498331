/*
 * Shared codebook evaluation for PocketSphinx 5prealpha's phonetically-tied (PTM) models.
 *
 * Every decoding pass over a recording scores the same frames against the same Gaussians. For
 * each frame, the library's `ptm_mgau_frame_eval` finds the best few Gaussians (top-N) of every
 * codebook the pass needs, then mixes them into senone scores. Which Gaussians are the top-N of
 * a codebook for a frame does not depend on the pass, only on the frame's features, so this
 * file computes each (frame, codebook) once and lets every pass over the same features reuse it,
 * in any thread of the process.
 *
 * The answer must be the library's own, bit for bit: each pass's top-N lists are rebuilt by the
 * library's own rules (its last frame's codewords re-scored, then every codeword at or above the
 * running threshold inserted in codeword order, the same float arithmetic in the same order),
 * from the shared candidates, then normalised as the library does; the library itself mixes
 * the senones (its frame function, called for a frame it considers already evaluated).
 * `kps_install` checks every structure it touches and declines (returns 0) for anything else.
 *
 * Build (scripts/build-native.sh): cc -O3 -fPIC -shared -ffp-contract=off -fno-fast-math: no
 * fused multiply-add and no reordering, so every sum rounds exactly as the library's do.
 */
#include <pthread.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#define SENSCR_SHIFT 10
#define MAX_NEG_ASCR 96
#define WORST_SCORE ((int32_t)0xE0000000)

/* ---- The shared store: per recording (its first frame's features), per frame, per codebook. ---- */

#define MAX_CEP 64           /* all streams together */
#define MAX_FEAT 4
#define MAX_CB 256
#define MAX_DENSITY 256
#define KEEP 16              /* candidates kept per (frame, codebook) */
#define CHUNK_FRAMES 256
#define MAX_CHUNKS 48        /* 12,288 frames (about 2 minutes); later frames are scored by each pass */
#define SLOTS 4

enum { CB_FREE, CB_CLAIMED, CB_DONE };

/* A spinning thread's hint to the processor. */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

typedef struct {
    float d[KEEP];           /* best scores, descending */
    uint8_t cw[KEEP];
} cands_t;

typedef struct {
    float feat[MAX_CEP];
    _Atomic int has_feat;    /* 0 empty, 1 being written, 2 written */
    _Atomic uint8_t done[MAX_CB];  /* each codebook's candidates: CB_FREE, CB_CLAIMED, CB_DONE */
    _Atomic int all_done;
    cands_t *cands;          /* [n_mgau][n_feat], allocated with the frame */
} frame_t;

typedef struct {
    uint64_t model;          /* which Gaussians */
    float first[MAX_CEP];    /* the recording's first frame */
    int users;
    uint64_t last_used;
    frame_t *chunks[MAX_CHUNKS];
    int live;
    int retired;             /* forgotten: never matched again, cleared when its last user leaves */
} slot_t;

static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;
static slot_t store[SLOTS];
static uint64_t clock_tick;

/* ---- Per installed decoder ---- */

typedef struct {
    mgau_funcs_t vt;         /* first: the mgau's vt points here */
    mgau_funcs_t *orig;
    ptm_mgau_t *s;
    uint64_t model;
    int n_mgau, n_feat, n_density, ceplen, max_topn;
    int featlen[MAX_FEAT];   /* each stream's length */
    int featoff[MAX_FEAT];   /* its place in a frame's features, streams one after another */
    float *mean_t;           /* [cb][stream][dim][density]: the means, dimension-major */
    float *var_t;
    int slot;                /* the store slot of the recording in progress, or -1 */
    float *scratch;          /* [n_density] */
} hook_t;

static void clear_slot(slot_t *sl)
{
    for (int c = 0; c < MAX_CHUNKS; c++) {
        frame_t *ch = sl->chunks[c];
        if (!ch) continue;
        for (int i = 0; i < CHUNK_FRAMES; i++) free(ch[i].cands);
        free(ch);
        sl->chunks[c] = NULL;
    }
    sl->live = 0;
    sl->retired = 0;
}

/*
 * Forgets every recording scored so far: later passes score their frames afresh, as for a
 * recording never seen (measurements of one assessment's own cost use it between runs).
 */
void kps_forget(void)
{
    pthread_mutex_lock(&store_lock);
    for (int i = 0; i < SLOTS; i++) {
        if (store[i].users == 0) clear_slot(&store[i]);
        else store[i].retired = 1;
    }
    pthread_mutex_unlock(&store_lock);
}

static void release_slot(hook_t *h)
{
    if (h->slot < 0) return;
    pthread_mutex_lock(&store_lock);
    slot_t *sl = &store[h->slot];
    if (--sl->users == 0 && sl->retired) clear_slot(sl);
    pthread_mutex_unlock(&store_lock);
    h->slot = -1;
}

/* Finds or opens the slot of the recording whose first frame is `feat`. */
static int acquire_slot(hook_t *h, const mfcc_t *feat)
{
    size_t bytes = (size_t)h->ceplen * sizeof(float);
    int found = -1, victim = -1;
    pthread_mutex_lock(&store_lock);
    for (int i = 0; i < SLOTS; i++) {
        slot_t *sl = &store[i];
        if (sl->live && !sl->retired && sl->model == h->model && memcmp(sl->first, feat, bytes) == 0) { found = i; break; }
    }
    if (found < 0) {
        for (int i = 0; i < SLOTS; i++) {
            slot_t *sl = &store[i];
            if (sl->users > 0) continue;
            if (victim < 0 || !sl->live || (store[victim].live && sl->last_used < store[victim].last_used)) victim = i;
        }
        if (victim >= 0) {
            slot_t *sl = &store[victim];
            clear_slot(sl);
            sl->model = h->model;
            memcpy(sl->first, feat, bytes);
            sl->live = 1;
            found = victim;
        }
    }
    if (found >= 0) {
        store[found].users++;
        store[found].last_used = ++clock_tick;
    }
    pthread_mutex_unlock(&store_lock);
    return found;
}

/* The frame's entry when it holds exactly these features (creating it if it is new), else NULL. */
static frame_t *frame_entry(hook_t *h, int frame, const mfcc_t *feat)
{
    if (h->slot < 0 || frame < 0 || frame >= CHUNK_FRAMES * MAX_CHUNKS) return NULL;
    slot_t *sl = &store[h->slot];
    int c = frame / CHUNK_FRAMES;
    size_t bytes = (size_t)h->ceplen * sizeof(float);
    frame_t *chunk = sl->chunks[c];
    if (!chunk) {
        pthread_mutex_lock(&store_lock);
        if (!sl->chunks[c]) sl->chunks[c] = calloc(CHUNK_FRAMES, sizeof(frame_t));
        chunk = sl->chunks[c];
        pthread_mutex_unlock(&store_lock);
        if (!chunk) return NULL;
    }
    frame_t *fr = &chunk[frame % CHUNK_FRAMES];
    int state = atomic_load_explicit(&fr->has_feat, memory_order_acquire);
    if (state == 0) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&fr->has_feat, &expected, 1)) {
            memcpy(fr->feat, feat, bytes);
            fr->cands = calloc((size_t)h->n_mgau * h->n_feat, sizeof(cands_t));
            atomic_store_explicit(&fr->has_feat, fr->cands ? 2 : 3, memory_order_release);
        }
        state = atomic_load_explicit(&fr->has_feat, memory_order_acquire);
    }
    if (state != 2) return NULL;   /* being written by another thread, or failed */
    return memcmp(fr->feat, feat, bytes) == 0 ? fr : NULL;
}

/* ---- Scoring, in the library's arithmetic ---- */

static inline const float *block_of(const float *t, const hook_t *h, int cb, int f)
{
    /* [cb][stream] blocks of featlen x n_density; every stream before f in this codebook first */
    return t + ((size_t)cb * h->ceplen + h->featoff[f]) * h->n_density;
}

/* One Gaussian's score: det minus the weighted squared distance, dimension by dimension. */
static inline float gauss_score(const hook_t *h, int cb, int f, int cw, const mfcc_t *z)
{
    const gauden_t *g = h->s->g;
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
 * across them (AVX2 where the processor has it; separate multiplies and subtractions, so every
 * lane rounds as the library's scalar code does). */
__attribute__((target_clones("avx2", "default")))
static void codebook_scores(const hook_t *h, int cb, int f, const mfcc_t *z, float *restrict out)
{
    const int n = h->n_density, L = h->featlen[f];
    const float *restrict det = h->s->g->det[cb][f];
    const float *mt = block_of(h->mean_t, h, cb, f);
    const float *vt = block_of(h->var_t, h, cb, f);
    for (int k = 0; k < n; k++) out[k] = det[k];
    for (int j = 0; j < L; j++) {
        const float zj = z[j];
        const float *restrict m = mt + (size_t)j * n, *restrict v = vt + (size_t)j * n;
        for (int k = 0; k < n; k++) {
            float diff = zj - m[k];
            float sq = diff * diff;
            float c = sq * v[k];
            out[k] = out[k] - c;
        }
    }
}

/* Inserts (score, codeword) into a best-first list of `*have` entries kept to KEEP. */
static inline void keep_insert(cands_t *out, int *have, float d, int cw)
{
    if (*have == KEEP && !(d > out->d[KEEP - 1])) return;
    int at = *have < KEEP ? (*have)++ : KEEP - 1;
    while (at > 0 && d > out->d[at - 1]) {
        out->d[at] = out->d[at - 1];
        out->cw[at] = out->cw[at - 1];
        at--;
    }
    out->d[at] = d;
    out->cw[at] = (uint8_t)cw;
}

#define GROUPS (2 * KEEP)

/* The KEEP best of a codebook's scores, best first. */
static void keep_best(const float *d, int n, cands_t *out)
{
    /* The maxima of disjoint groups are different scores: nothing under the KEEP-th best of
     * them can be among the KEEP best, so only the few above it are sorted. */
    float floor = -INFINITY;
    if (n >= 2 * GROUPS) {
        const int gs = n / GROUPS;
        cands_t top;
        int have = 0;
        for (int g = 0; g < GROUPS; g++) {
            float m = d[g * gs];
            for (int k = 1; k < gs; k++) m = d[g * gs + k] > m ? d[g * gs + k] : m;
            keep_insert(&top, &have, m, 0);
        }
        floor = top.d[KEEP - 1];
    }
    int have = 0;
    for (int k = 0; k < n; k++)
        if (!(d[k] < floor)) keep_insert(out, &have, d[k], k);
}

/* The library's insertion of a re-scored codeword into the first i+1 places (ties stay behind). */
static void resort_topn(topn_t *topn, int i, int32_t d)
{
    topn[i].score = d;
    if (i == 0) return;
    topn_t v = topn[i];
    int j;
    for (j = i - 1; j >= 0 && d > topn[j].score; j--) topn[j + 1] = topn[j];
    topn[j + 1] = v;
}

/* The library's insertion of a new codeword above the worst (ties go behind it). */
static void insert_topn(topn_t *best, topn_t *worst, int cw, int32_t d)
{
    topn_t *cur;
    for (cur = worst - 1; cur >= best && d >= cur->score; --cur) cur[1] = cur[0];
    ++cur;
    cur->cw = cw;
    cur->score = d;
}

/* Scans candidates (codeword, score) as the library scans its codebook: in codeword order. */
static void scan_candidates(topn_t *topn, int max_topn, const uint8_t *cw, const float *d, int n)
{
    topn_t *worst = topn + (max_topn - 1);
    for (int k = 0; k < n; k++) {
        float thresh = (float)worst->score;
        if (d[k] < thresh) continue;
        int i;
        for (i = 0; i < max_topn; i++) if (topn[i].cw == cw[k]) break;
        if (i < max_topn) continue;
        insert_topn(topn, worst, cw[k], (int32_t)d[k]);
    }
}

/* The rest of one active codebook's stream for this frame, by the library's rules, given the
 * stream's candidates (NULL: score the whole codebook here). */
static void eval_active(hook_t *h, const cands_t *c, int cb, int f, const mfcc_t *z, topn_t *topn)
{
    const int n = h->n_density, N = h->max_topn;
    float thresh0 = (float)topn[N - 1].score;
    uint8_t cws[MAX_DENSITY];
    float ds[MAX_DENSITY];
    int m = 0;
    if (c && (n <= KEEP || c->d[KEEP - 1] < thresh0)) {
        /* Every codeword not kept scores under the threshold, which only rises: only kept ones can enter. */
        uint8_t order[KEEP];
        int kept = n < KEEP ? n : KEEP;
        for (int k = 0; k < kept && !(c->d[k] < thresh0); k++) order[m++] = (uint8_t)k;
        for (int a = 1; a < m; a++) {   /* codeword order */
            uint8_t v = order[a];
            int b = a - 1;
            while (b >= 0 && c->cw[order[b]] > c->cw[v]) { order[b + 1] = order[b]; b--; }
            order[b + 1] = v;
        }
        for (int k = 0; k < m; k++) { cws[k] = c->cw[order[k]]; ds[k] = c->d[order[k]]; }
    } else {
        codebook_scores(h, cb, f, z, h->scratch);
        for (int k = 0; k < n; k++) {
            if (h->scratch[k] < thresh0) continue;
            cws[m] = (uint8_t)k;
            ds[m++] = h->scratch[k];
        }
    }
    scan_candidates(topn, N, cws, ds, m);
}

/* The shared candidates of every codebook and stream for this frame; NULL without a shared
 * frame. Passes running at the same time split the codebooks not yet done: each claims one at a
 * time, then waits for those another pass is still writing (a microsecond or two each). */
static const cands_t *shared_candidates(hook_t *h, frame_t *fr, mfcc_t **featbuf)
{
    if (!fr) return NULL;
    if (atomic_load_explicit(&fr->all_done, memory_order_acquire)) return fr->cands;
    for (int cb = 0; cb < h->n_mgau; cb++) {
        uint8_t free_ = CB_FREE;
        if (atomic_load_explicit(&fr->done[cb], memory_order_relaxed) != CB_FREE) continue;
        if (!atomic_compare_exchange_strong(&fr->done[cb], &free_, CB_CLAIMED)) continue;
        for (int f = 0; f < h->n_feat; f++) {
            codebook_scores(h, cb, f, featbuf[f], h->scratch);
            keep_best(h->scratch, h->n_density, &fr->cands[(size_t)cb * h->n_feat + f]);
        }
        atomic_store_explicit(&fr->done[cb], CB_DONE, memory_order_release);
    }
    for (int cb = 0; cb < h->n_mgau; cb++)
        while (atomic_load_explicit(&fr->done[cb], memory_order_acquire) != CB_DONE) relax();
    atomic_store_explicit(&fr->all_done, 1, memory_order_release);
    return fr->cands;
}

/* A codeword's score for this frame: from the candidates when it is one of them. */
static inline float score_of(const hook_t *h, const cands_t *c, int cb, int f, int cw, const mfcc_t *z)
{
    if (c) {
        int kept = h->n_density < KEEP ? h->n_density : KEEP;
        for (int k = 0; k < kept; k++) if (c->cw[k] == cw) return c->d[k];
    }
    return gauss_score(h, cb, f, cw, z);
}

static inline int is_active(const uint32_t *bits, int cb)
{
    return (bits[cb / 32] >> (cb % 32)) & 1u;
}

static int shared_frame_eval(struct mgau *ps, int16_t *senone_scores, uint8_t *senone_active,
                             int32_t n_senone_active, mfcc_t **featbuf, int32_t frame, int32_t compallsen)
{
    hook_t *h = (hook_t *)ps->vt;
    ptm_mgau_t *s = h->s;
    if (compallsen || frame < ps->frame_idx)
        return h->orig->frame_eval(ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);

    const int N = h->max_topn, n_mgau = h->n_mgau, n_feat = h->n_feat;
    float key[MAX_CEP];
    for (int f = 0; f < n_feat; f++) memcpy(key + h->featoff[f], featbuf[f], (size_t)h->featlen[f] * sizeof(float));
    if (frame == 0) {
        release_slot(h);
        h->slot = acquire_slot(h, key);
    }
    frame_t *fr = frame_entry(h, frame, key);

    int idx = frame % s->n_fast_hist;
    fast_eval_t *fe = s->hist + idx;
    fast_eval_t *last = s->hist + (idx == 0 ? s->n_fast_hist - 1 : idx - 1);
    s->f = fe;
    memcpy(fe->topn[0][0], last->topn[0][0], (size_t)n_mgau * n_feat * N * sizeof(topn_t));

    /* Active codebooks: those of the active senones. */
    memset(fe->mgau_active, 0, (size_t)((n_mgau + 31) / 32) * sizeof(uint32_t));
    for (int i = 0, sen = 0; i < n_senone_active; i++) {
        sen += senone_active[i];
        int cb = s->sen2cb[sen];
        fe->mgau_active[cb / 32] |= 1u << (cb % 32);
    }

    const cands_t *cands = shared_candidates(h, fr, featbuf);
    /* Last frame's codewords re-scored, for every codebook. */
    for (int cb = 0; cb < n_mgau; cb++)
        for (int f = 0; f < n_feat; f++) {
            topn_t *topn = fe->topn[cb][f];
            const cands_t *c = cands ? &cands[cb * n_feat + f] : NULL;
            for (int i = 0; i < N; i++) resort_topn(topn, i, (int32_t)score_of(h, c, cb, f, topn[i].cw, featbuf[f]));
        }
    /* Then the rest of each active codebook. */
    for (int cb = 0; cb < n_mgau; cb++) {
        if (!is_active(fe->mgau_active, cb)) continue;
        for (int f = 0; f < n_feat; f++)
            eval_active(h, cands ? &cands[cb * n_feat + f] : NULL, cb, f, featbuf[f], fe->topn[cb][f]);
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
    /* The library mixes the senones itself: for a frame it holds as already evaluated it does
     * only that, from the top-N lists just built in its history. */
    int saved = ps->frame_idx;
    ps->frame_idx = frame + 1;
    int rv = h->orig->frame_eval(ps, senone_scores, senone_active, n_senone_active, featbuf, frame, compallsen);
    ps->frame_idx = saved;
    return rv;
}

static void shared_free(struct mgau *ps)
{
    hook_t *h = (hook_t *)ps->vt;
    release_slot(h);
    ps->vt = h->orig;
    free(h->mean_t);
    free(h->var_t);
    free(h->scratch);
    free(h);
    ps->vt->free(ps);
}

static uint64_t fingerprint(const void *p, size_t bytes, uint64_t hash)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < bytes; i++) hash = (hash ^ b[i]) * 0x100000001b3ULL;
    return hash;
}

/*
 * Installs the shared evaluation in a decoder (ps_decoder_t *). Returns 1 when installed, 0
 * when the decoder's model is not one it handles (the decoder is left as it was).
 */
int kps_install(void *decoder)
{
    decoder_head_t *ps = decoder;
    if (!ps || !ps->acmod || ps->acmod->config != ps->config || ps->acmod->lmath != ps->lmath) return 0;
    mgau_base_t *base = ps->acmod->mgau;
    if (!base || !base->vt || !base->vt->name || strcmp(base->vt->name, "ptm") != 0) return 0;
    ptm_mgau_t *s = (ptm_mgau_t *)base;
    gauden_t *g = s->g;
    if (!g || g->n_feat < 1 || g->n_feat > MAX_FEAT || g->n_mgau < 1 || g->n_mgau > MAX_CB) return 0;
    if (g->n_density < 1 || g->n_density > MAX_DENSITY) return 0;
    if (s->ds_ratio != 1 || s->max_topn < 1 || s->max_topn > g->n_density || s->n_fast_hist < 2 || !s->hist) return 0;

    hook_t *h = calloc(1, sizeof(hook_t));
    if (!h) return 0;
    h->n_feat = g->n_feat;
    for (int f = 0; f < g->n_feat; f++) {
        h->featoff[f] = h->ceplen;
        h->featlen[f] = g->featlen[f];
        h->ceplen += g->featlen[f];
        if (g->featlen[f] < 1 || h->ceplen > MAX_CEP) { free(h); return 0; }
    }
    h->orig = base->vt;
    h->vt = *base->vt;
    h->vt.frame_eval = shared_frame_eval;
    h->vt.free = shared_free;
    h->s = s;
    h->n_mgau = g->n_mgau;
    h->n_density = g->n_density;
    h->max_topn = s->max_topn;
    h->slot = -1;
    size_t per_cb = (size_t)h->ceplen * h->n_density;
    h->mean_t = malloc(per_cb * h->n_mgau * sizeof(float));
    h->var_t = malloc(per_cb * h->n_mgau * sizeof(float));
    h->scratch = malloc((size_t)h->n_density * sizeof(float));
    if (!h->mean_t || !h->var_t || !h->scratch) {
        free(h->mean_t);
        free(h->var_t);
        free(h->scratch);
        free(h);
        return 0;
    }
    uint64_t model = 0xcbf29ce484222325ULL;
    model = fingerprint(&g->n_mgau, sizeof(int32_t) * 3, model);
    for (int cb = 0; cb < h->n_mgau; cb++)
        for (int f = 0; f < h->n_feat; f++) {
            const int L = h->featlen[f];
            const float *mean = g->mean[cb][f][0], *var = g->var[cb][f][0];
            model = fingerprint(mean, (size_t)L * h->n_density * sizeof(float), model);
            model = fingerprint(var, (size_t)L * h->n_density * sizeof(float), model);
            model = fingerprint(g->det[cb][f], (size_t)h->n_density * sizeof(float), model);
            float *mt = (float *)block_of(h->mean_t, h, cb, f), *vt = (float *)block_of(h->var_t, h, cb, f);
            for (int k = 0; k < h->n_density; k++)
                for (int j = 0; j < L; j++) {
                    mt[(size_t)j * h->n_density + k] = mean[(size_t)k * L + j];
                    vt[(size_t)j * h->n_density + k] = var[(size_t)k * L + j];
                }
        }
    h->model = model;
    base->vt = &h->vt;
    return 1;
}
