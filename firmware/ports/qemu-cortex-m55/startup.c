/* Cortex-M55 port for QEMU mps3-an547: the M3 port's startup and CMSDK APB UART driver with the
 * AN547's UART0 (0x49303000, serial 0) and its 32 MHz system clock. The FPU/MVE coprocessors are
 * enabled by the boot (cm_boot.h) before anything else runs. */
#define CM_UART0 0x49303000u
#define CM_CPU_HZ 32000000u
#include "../qemu-cortex-m3/startup.c"
