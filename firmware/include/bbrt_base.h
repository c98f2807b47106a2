/* The base layer of bbrt (src/bbrt_base.c): byte copies, CRC-32 and the wire dtype sizes. It calls
 * nothing else in the runtime; the wire codec, the program loader and everything above use it.
 * Included by bbrt.h, so these names stay part of the public API. No heap. */
#ifndef BBRT_BASE_H
#define BBRT_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* byte loops: freestanding builds link no libc, and -fno-tree-loop-distribute-patterns keeps the
 * compiler from turning these back into memcpy/memset calls */
void bbrt_memcpy(void *dst, const void *src, size_t n);
void bbrt_memset(void *dst, int v, size_t n);

/* CRC-32 (IEEE 802.3, reflected, as zlib.crc32) of n bytes, continued from crc; crc starts at 0 */
uint32_t bbrt_crc32_update(uint32_t crc, const uint8_t *p, size_t n);

/* bytes per element of a wire dtype code (bbrt.h BBRT_DT_*), 0 for a code not in the wire table */
uint32_t bbrt_dtype_size(uint32_t code);

#ifdef __cplusplus
}
#endif
#endif /* BBRT_BASE_H */
