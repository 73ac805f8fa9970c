"""Loopback servers the probe and status tests talk to."""
