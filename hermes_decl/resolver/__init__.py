"""Evaluating declarations on a host: locating the application, reading versions, availability.

The resolver consumes frozen models and never validates; everything it learns about the machine
it asks a ``Host``.
"""
