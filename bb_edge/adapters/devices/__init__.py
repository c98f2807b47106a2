"""Devices: serial devices, QEMU and host C-runtime processes, hardware-in-the-loop runs, latency measurement."""
