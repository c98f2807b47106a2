"""Host loops and fleet launchers: drive engines and the host session over a transport."""
