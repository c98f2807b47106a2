/* The libgcc helpers Debian's gcc-xtensa-lx106 package leaves out of its libgcc.a.
 *
 * Why: that libgcc.a lacks the Xtensa assembly helpers (32-bit division, 64-bit
 * multiplication and division, single-precision add/sub/mul, int->float), so a C99
 * program that divides, or converts a float at a QUANTIZE edge, does not link. These
 * are plain C replacements: integer-only, IEEE 754 binary32 with round-to-nearest-even,
 * subnormals, infinities and NaNs, so the Xtensa build computes bit for bit what a host
 * FPU computes (tests/firmware/test_bbrt_xtensa.py compares them with the host on random bit
 * patterns; build with -DXT_RT_HOST to get the xt_rt_* entry points for that test). */
#include <stdint.h>

typedef union {
    float f;
    uint32_t u;
} xt_fu;

/* ---- integers ---- */

static uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem) {
    uint32_t q = 0, r = 0;
    int i;
    if (d == 0u) {
        *rem = n;
        return 0xFFFFFFFFu;
    }
    for (i = 31; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1u);
        if (r >= d) {
            r -= d;
            q |= 1u << i;
        }
    }
    *rem = r;
    return q;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem) {
    uint64_t q = 0, r = 0;
    int i;
    if (d == 0u) {
        *rem = n;
        return ~(uint64_t)0;
    }
    for (i = 63; i >= 0; i--) {
        r = (r << 1) | ((n >> i) & 1u);
        if (r >= d) {
            r -= d;
            q |= (uint64_t)1 << i;
        }
    }
    *rem = r;
    return q;
}

/* 32 x 32 -> 64 from 16-bit halves (the LX106 has no high-word multiply) */
static uint64_t mul32x32(uint32_t a, uint32_t b) {
    uint32_t al = a & 0xFFFFu, ah = a >> 16, bl = b & 0xFFFFu, bh = b >> 16;
    uint32_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint32_t mid = (ll >> 16) + (lh & 0xFFFFu) + (hl & 0xFFFFu);
    uint32_t lo = (ll & 0xFFFFu) | (mid << 16);
    uint32_t hi = hh + (lh >> 16) + (hl >> 16) + (mid >> 16);
    return ((uint64_t)hi << 32) | lo;
}

uint32_t __udivsi3(uint32_t n, uint32_t d);
uint32_t __umodsi3(uint32_t n, uint32_t d);
int32_t __divsi3(int32_t n, int32_t d);
int64_t __muldi3(int64_t a, int64_t b);
int64_t __divdi3(int64_t a, int64_t b);
uint64_t __udivdi3(uint64_t a, uint64_t b);
uint64_t __umoddi3(uint64_t a, uint64_t b);

uint32_t __udivsi3(uint32_t n, uint32_t d) {
    uint32_t r;
    return udivmod32(n, d, &r);
}

uint32_t __umodsi3(uint32_t n, uint32_t d) {
    uint32_t r;
    (void)udivmod32(n, d, &r);
    return r;
}

int32_t __divsi3(int32_t n, int32_t d) {
    uint32_t un = n < 0 ? 0u - (uint32_t)n : (uint32_t)n, ud = d < 0 ? 0u - (uint32_t)d : (uint32_t)d, r;
    uint32_t q = udivmod32(un, ud, &r);
    return (int32_t)((n < 0) != (d < 0) ? 0u - q : q);
}

int64_t __muldi3(int64_t a, int64_t b) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    uint32_t al = (uint32_t)ua, ah = (uint32_t)(ua >> 32), bl = (uint32_t)ub, bh = (uint32_t)(ub >> 32);
    uint64_t p = mul32x32(al, bl);
    p += (uint64_t)(ah * bl + al * bh) << 32;
    return (int64_t)p;
}

uint64_t __udivdi3(uint64_t a, uint64_t b) {
    uint64_t r;
    return udivmod64(a, b, &r);
}

uint64_t __umoddi3(uint64_t a, uint64_t b) {
    uint64_t r;
    (void)udivmod64(a, b, &r);
    return r;
}

int64_t __divdi3(int64_t a, int64_t b) {
    uint64_t ua = a < 0 ? 0u - (uint64_t)a : (uint64_t)a, ub = b < 0 ? 0u - (uint64_t)b : (uint64_t)b, r;
    uint64_t q = udivmod64(ua, ub, &r);
    return (int64_t)((a < 0) != (b < 0) ? 0u - q : q);
}

/* ---- binary32 ---- */

#define QNAN 0x7FC00000u

/* x >> k with every shifted-out bit ORed into bit 0 (sticky) */
static uint32_t shr_sticky(uint32_t x, int32_t k) {
    if (k <= 0) return x;
    if (k >= 32) return x != 0u;
    return (x >> k) | ((x & ((1u << k) - 1u)) != 0u);
}

/* sign, exponent e and significand m (leading bit at 26, 3 round bits below bit 3):
 * value = m * 2^(e - 127 - 26). Rounds to nearest even and packs. */
static uint32_t round_pack(uint32_t s, int32_t e, uint32_t m) {
    uint32_t g, r;
    if (e >= 255) return s | 0x7F800000u;
    if (e < 1) {
        m = shr_sticky(m, 1 - e);
        e = 1;
    }
    g = m & 7u;
    m >>= 3;
    if (g > 4u || (g == 4u && (m & 1u))) m++;
    /* a normal m carries the hidden bit, which adds 1 back to the exponent field */
    r = ((uint32_t)(e - 1) << 23) + m;
    if (r >= 0x7F800000u) return s | 0x7F800000u;
    return s | r;
}

static uint32_t f_add(uint32_t a, uint32_t b) {
    uint32_t sa = a & 0x80000000u, sb = b & 0x80000000u, ma, mb, m, t;
    int32_t ea = (int32_t)((a >> 23) & 0xFFu), eb = (int32_t)((b >> 23) & 0xFFu), d, e;
    if (ea == 255 || eb == 255) {
        if ((ea == 255 && (a & 0x7FFFFFu)) || (eb == 255 && (b & 0x7FFFFFu))) return QNAN;
        if (ea == 255 && eb == 255) return sa == sb ? a : QNAN;
        return ea == 255 ? a : b;
    }
    ma = (a & 0x7FFFFFu) | (ea ? 0x800000u : 0u);
    mb = (b & 0x7FFFFFu) | (eb ? 0x800000u : 0u);
    if (!ea) ea = 1;
    if (!eb) eb = 1;
    if (ma == 0u && mb == 0u) return sa & sb;
    ma <<= 3;
    mb <<= 3;
    if (eb > ea || (eb == ea && mb > ma)) { /* |a| >= |b| */
        t = ma; ma = mb; mb = t;
        t = sa; sa = sb; sb = t;
        d = ea; ea = eb; eb = d;
    }
    mb = shr_sticky(mb, ea - eb);
    e = ea;
    if (sa == sb) {
        m = ma + mb;
        if (m >= (1u << 27)) {
            m = shr_sticky(m, 1);
            e++;
        }
    } else {
        m = ma - mb;
        if (m == 0u) return 0u; /* x - x = +0 in round-to-nearest */
        while (m < (1u << 26) && e > 1) {
            m <<= 1;
            e--;
        }
    }
    return round_pack(sa, e, m);
}

static uint32_t f_mul(uint32_t a, uint32_t b) {
    uint32_t s = (a ^ b) & 0x80000000u, ma = a & 0x7FFFFFu, mb = b & 0x7FFFFFu, m, lo, hi;
    int32_t ea = (int32_t)((a >> 23) & 0xFFu), eb = (int32_t)((b >> 23) & 0xFFu), e, k;
    uint64_t p;
    if (ea == 255 || eb == 255) {
        if ((ea == 255 && ma) || (eb == 255 && mb)) return QNAN;
        if ((ea == 0 && ma == 0u) || (eb == 0 && mb == 0u)) return QNAN; /* inf * 0 */
        return s | 0x7F800000u;
    }
    if ((ea == 0 && ma == 0u) || (eb == 0 && mb == 0u)) return s;
    if (ea) ma |= 0x800000u;
    else {
        ea = 1;
        while (!(ma & 0x800000u)) { ma <<= 1; ea--; }
    }
    if (eb) mb |= 0x800000u;
    else {
        eb = 1;
        while (!(mb & 0x800000u)) { mb <<= 1; eb--; }
    }
    p = mul32x32(ma, mb); /* in [2^46, 2^48) */
    hi = (uint32_t)(p >> 32);
    lo = (uint32_t)p;
    e = ea + eb - 127;
    k = 20;
    if (hi & 0x8000u) {
        k = 21;
        e++;
    }
    m = (hi << (32 - k)) | (lo >> k) | ((lo & ((1u << k) - 1u)) != 0u);
    return round_pack(s, e, m);
}

static uint32_t f_from_u32(uint32_t s, uint32_t u) {
    int32_t p = 31;
    uint32_t m;
    if (u == 0u) return 0u;
    while (!(u & (1u << p))) p--;
    m = p > 26 ? shr_sticky(u, p - 26) : u << (26 - p);
    return round_pack(s, 127 + p, m);
}

static float as_f(uint32_t u) {
    xt_fu x;
    x.u = u;
    return x.f;
}

static uint32_t as_u(float f) {
    xt_fu x;
    x.f = f;
    return x.u;
}

float __addsf3(float a, float b);
float __subsf3(float a, float b);
float __mulsf3(float a, float b);
float __floatsisf(int32_t i);
float __floatunsisf(uint32_t u);

float __addsf3(float a, float b) { return as_f(f_add(as_u(a), as_u(b))); }
float __subsf3(float a, float b) { return as_f(f_add(as_u(a), as_u(b) ^ 0x80000000u)); }
float __mulsf3(float a, float b) { return as_f(f_mul(as_u(a), as_u(b))); }
float __floatsisf(int32_t i) {
    return as_f(i < 0 ? f_from_u32(0x80000000u, 0u - (uint32_t)i) : f_from_u32(0u, (uint32_t)i));
}
float __floatunsisf(uint32_t u) { return as_f(f_from_u32(0u, u)); }

#ifdef XT_RT_HOST
/* host test entry points on raw bit patterns (the host's own __addsf3 etc. are not replaced there) */
uint32_t xt_rt_add(uint32_t a, uint32_t b);
uint32_t xt_rt_mul(uint32_t a, uint32_t b);
uint32_t xt_rt_i2f(int32_t i);
uint32_t xt_rt_u2f(uint32_t u);
uint32_t xt_rt_add(uint32_t a, uint32_t b) { return f_add(a, b); }
uint32_t xt_rt_mul(uint32_t a, uint32_t b) { return f_mul(a, b); }
uint32_t xt_rt_i2f(int32_t i) { return as_u(__floatsisf(i)); }
uint32_t xt_rt_u2f(uint32_t u) { return f_from_u32(0u, u); }
#endif
