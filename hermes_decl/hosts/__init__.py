"""The host seam and every host implementation."""
