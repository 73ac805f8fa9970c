"""The live host, the machine this Python runs on."""
