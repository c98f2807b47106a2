/* LX106 (call0 ABI) entry and exception vectors.
 *
 * Every exception (an unaligned load/store, an illegal instruction, a bad
 * address) ends the run through the semihosting exit call with code
 * 100 + EXCCAUSE, so a fault is never silent: QEMU exits and the host sees the
 * device vanish with that status. The port enables no interrupts. */
    /* the core's reset vector (sysrom0 on QEMU sim): jump to _start, out of j/call range */
    .section .reset, "ax"
    .global _reset
_reset:
    j 1f
    .align 4
2:  .word _start
1:  l32r a0, 2b
    jx a0

    .section .vectors, "ax"
    .global _vectors
    .align 256
_vectors:
    .org _vectors + 0x10   /* debug */
    j _fault
    .org _vectors + 0x20   /* NMI */
    j _fault
    .org _vectors + 0x30   /* kernel exception */
    j _fault
    .org _vectors + 0x50   /* user exception */
    j _fault
    .org _vectors + 0x70   /* double exception */
    j _fault
    .org _vectors + 0x80   /* reset vector */
    j _start

    .text
    .literal_position
    .global _fault
    .align 4
_fault:
    rsr.exccause a3
    addi a3, a3, 100        /* exit status 100 + EXCCAUSE (an 8-bit status on the host) */
    movi a2, 1              /* SYS_exit */
    simcall
1:  j 1b

    .literal_position
    .global _start
    .align 4
_start:
    movi a0, 0
    movi a2, _vectors
    wsr.vecbase a2
    /* PS = 0x2f: INTLEVEL 15 (no interrupts), EXCM 0 (an exception takes its vector, not the
       double-exception one), UM 1 (user vector) */
    movi a2, 0x2f
    wsr.ps a2
    rsync
    movi a1, __stack_top
    movi a2, __bss_start
    movi a3, __bss_end
2:  bgeu a2, a3, 3f
    s32i a0, a2, 0
    addi a2, a2, 4
    j 2b
3:  call0 main
    movi a2, 1
    movi a3, 0
    simcall
4:  j 4b
