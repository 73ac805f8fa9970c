"""Failing a test that blocks, instead of hanging the suite: ``within(seconds, call)``."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def within(seconds: float, call: Callable[[], T]) -> T:
    """``call()``'s result (or its exception), failing the test if it blocks past ``seconds``.

    The call runs in a daemon thread, so a call that never returns cannot keep the run alive.
    """
    result: list[T] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(call())
        except BaseException as error:
            failure.append(error)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still blocked after {seconds}s"
    if failure:
        raise failure[0]
    return result[0]
