/* rv32 entry: stack, gp, zero .bss, main. */
    .section .text.start
    .globl _start
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    la sp, __stack_top
    la t0, __bss_start
    la t1, __bss_end
1:  bgeu t0, t1, 2f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 1b
2:  call main
3:  wfi
    j 3b

/* int32_t port_semihost(uint32_t op, void *arg): the RISC-V semihosting sequence
 * (uncompressed, in one page: QEMU checks the instructions around the ebreak). */
    .section .text.semihost
    .globl port_semihost
    .balign 16
port_semihost:
    .option push
    .option norvc
    slli zero, zero, 0x1f
    ebreak
    srai zero, zero, 7
    .option pop
    ret
