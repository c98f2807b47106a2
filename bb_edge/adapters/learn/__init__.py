"""Learning runtimes: learning nodes, learning fleets over MQTT and serial, the simulator, Ray, MCU clients."""
