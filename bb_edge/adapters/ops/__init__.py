"""Operations: the broker's files, OTA pushes and slot stores, telemetry export, the live status view."""
