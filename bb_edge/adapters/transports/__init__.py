"""Transports: MQTT, serial links and in-process channels that carry envelopes between nodes."""
