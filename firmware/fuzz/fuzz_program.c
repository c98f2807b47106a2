/* libFuzzer harness: the .bbrt program loader (and a run of any program it accepts).
 * The CRC field is recomputed so the fuzzer explores the structure, not the checksum. */
#include <string.h>
#include "bbrt.h"

static uint64_t blob[(1u << 16) / 8u];
static uint64_t arena[(1u << 16) / 8u];
static uint64_t guard[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bbrt_program_t prog;
    uint8_t *b = (uint8_t *)blob;
    size_t i;
    if (size > sizeof(blob)) size = sizeof(blob);
    memcpy(b, data, size);
    if (size >= 16u) {
        uint32_t total = (uint32_t)b[8] | ((uint32_t)b[9] << 8) | ((uint32_t)b[10] << 16) | ((uint32_t)b[11] << 24);
        if (total >= 16u && total <= size) {
            static const uint8_t zero4[4] = {0, 0, 0, 0};
            uint32_t crc = bbrt_crc32_update(0u, b, 12u);
            crc = bbrt_crc32_update(crc, zero4, 4u);
            crc = bbrt_crc32_update(crc, b + 16, total - 16u);
            b[12] = (uint8_t)crc; b[13] = (uint8_t)(crc >> 8); b[14] = (uint8_t)(crc >> 16); b[15] = (uint8_t)(crc >> 24);
        }
    }
    memset(guard, 0xA5, sizeof(guard));
    if (bbrt_program_load(&prog, b, size, (uint8_t *)arena, sizeof(arena)) == BBRT_OK) {
        (void)bbrt_program_run(&prog);
    }
    for (i = 0; i < sizeof(guard) / 8u; i++)
        if (guard[i] != 0xA5A5A5A5A5A5A5A5ull) __builtin_trap();
    return 0;
}
