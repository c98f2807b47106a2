"""Adapters: the only place in bb-edge that does I/O (channels, sockets, serial, clocks)."""
