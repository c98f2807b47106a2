"""Builders of learning bundles: Linux-class nodes, MCU (C runtime, ESP-IDF) and MicroPython clients."""
