"""bb-edge node runtime for MicroPython: envelope v1, COBS/CRC-32 framing, .bbrt executor, node loop."""
VERSION = "0.1.0"
