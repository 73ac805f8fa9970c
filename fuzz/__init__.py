"""Fuzz harnesses for hermes_decl's untrusted-input boundaries (see fuzz/README.md).

Each ``fuzz_<target>.py`` defines ``TestOneInput(data: bytes)``: it returns when the code under
test kept its contract for that input and raises (an ``AssertionError`` or the unexpected
exception) when it did not. Run a harness with atheris (``python fuzz/fuzz_parser.py …``) or with
the plain-Python driver (``python fuzz/driver.py parser …``); ``tests/test_fuzz_smoke.py`` runs
every harness briefly in the test suite.
"""
