/* The base layer (bbrt_base.h): byte copies, CRC-32, wire dtype sizes and the libm-free exp that the
 * inference and training kernels share. It calls nothing else in bbrt, so the layers are a DAG:
 *   base <- wire, program, link <- check, kernels (<- the resolver's tables) ; node, ota, train, learn above
 * (docs/bbrt.md, the firmware tree). No heap, no libc. */
#include "bbrt_base.h"
#include "bbrt_internal.h"

/* ------------------------------------------------------------------- bytes */
void bbrt_memcpy(void *dst, const void *src, size_t n) {
    uint8_t *d = (uint8_t *)dst;
    const uint8_t *s = (const uint8_t *)src;
    while (n--) *d++ = *s++;
}

void bbrt_memset(void *dst, int v, size_t n) {
    uint8_t *d = (uint8_t *)dst;
    while (n--) *d++ = (uint8_t)v;
}

/* ------------------------------------------------------------------ CRC-32 */
/* 16-entry nibble table: small flash footprint, computed on the fly (no constructor). */
static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu};

uint32_t bbrt_crc32_update(uint32_t crc, const uint8_t *p, size_t n) {
    size_t i;
    crc = ~crc;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
        crc = (crc >> 4) ^ crc_nibble[crc & 0xFu];
    }
    return ~crc;
}

/* ------------------------------------------------------------ wire dtypes */
uint32_t bbrt_dtype_size(uint32_t code) {
    switch (code) {
    case 1: case 6: case 12: return 4u;
    case 2: case 3: case 9: return 1u;
    case 4: case 5: case 10: return 2u;
    case 7: case 11: case 13: return 8u;
    default: return 0u;
    }
}

/* -------------------------------------------------------------------- math */
/* exp without libm: used by the inference kernels (sigmoid, tanh, softmax) and the training kernels */
float bbrt_expf(float x) {
    float k, r, p, s;
    int32_t ki;
    union { uint32_t u; float f; } v;
    if (!(x == x)) return x; /* NaN */
    if (x > 88.72f) return 3.4028235e38f;
    if (x < -103.0f) return 0.0f;
    k = x * 1.44269504f;
    ki = (int32_t)(k < 0.0f ? k - 0.5f : k + 0.5f);
    r = x - (float)ki * 0.693145752f - (float)ki * 1.42860677e-6f;
    p = 1.0f + r * (1.0f + r * (0.5f + r * (0.166666672f + r * (0.0416666679f +
        r * (0.00833333377f + r * (0.00138888892f + r * 0.000198412701f))))));
    if (ki < -126) { /* subnormal range: two steps */
        v.u = (uint32_t)(ki + 126 + 127) << 23;
        s = v.f;
        return p * s * 1.17549435e-38f;
    }
    v.u = (uint32_t)(ki + 127) << 23;
    return p * v.f;
}
