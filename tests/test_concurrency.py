"""The registry, availability and a subscribed check-fn cache under 8 threads of mixed work."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest

from hermes_decl import declaration
from hermes_decl.declaration import RegistryChange
from hermes_decl.gates import make_check_fn
from hermes_decl.models import Declaration
from hermes_decl.testing import FakeHost

THREADS = 8
OPERATIONS = 20_000

HOST = FakeHost("linux").add_executable("/opt/present/app")
PRESENT = declaration.parse_declaration(
    "x",
    {"linux": {"presence": "executable", "location": "/opt/present/app"}},
    {"app": True},
    where="t",
)
ABSENT = declaration.parse_declaration(
    "x",
    {"linux": {"presence": "executable", "location": "/opt/absent/app"}},
    {"app": True},
    where="t",
)


class CheckFnCache:
    """What a host's tool registry does: cache each server's verdict, drop it on a change.

    A generation per name makes a verdict computed from an older registration impossible to
    store after the notification that replaced it.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._verdicts: dict[str, bool] = {}
        self._generations: dict[str, int] = {}
        self._epoch = 0

    def on_change(self, change: RegistryChange) -> None:
        with self._lock:
            if change.name is None:
                self._epoch += 1
                self._verdicts.clear()
            else:
                self._generations[change.name] = self._generations.get(change.name, 0) + 1
                self._verdicts.pop(change.name, None)

    def verdict(self, name: str) -> bool:
        with self._lock:
            if name in self._verdicts:
                return self._verdicts[name]
            stamp = (self._epoch, self._generations.get(name, 0))
        fresh = make_check_fn(name, lambda: True, host=HOST)()
        with self._lock:
            if (self._epoch, self._generations.get(name, 0)) == stamp:
                self._verdicts[name] = fresh
        return fresh


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


def test_eight_threads_of_mixed_operations() -> None:
    cache = CheckFnCache()
    stop = declaration.subscribe(cache.on_change)
    errors: list[BaseException] = []
    barrier = threading.Barrier(THREADS)
    final: dict[str, Declaration | None] = {}
    final_lock = threading.Lock()

    def work(thread: int) -> None:
        rng = random.Random(thread)
        own = [f"t{thread}-s{index}" for index in range(8)]
        expected: dict[str, Declaration | None] = dict.fromkeys(own)
        barrier.wait()
        try:
            for _ in range(OPERATIONS):
                name = rng.choice(own)
                roll = rng.random()
                if roll < 0.3:
                    decl = PRESENT if rng.random() < 0.5 else ABSENT
                    declaration.register(name, decl)
                    expected[name] = decl
                elif roll < 0.45:
                    declaration.unregister(name)
                    expected[name] = None
                elif roll < 0.6:
                    assert declaration.lookup(name) is expected[name]
                elif roll < 0.95:
                    # After our own change was notified, the cached verdict must follow it.
                    want = expected[name] is not ABSENT
                    assert cache.verdict(name) is want, name
                else:
                    other = f"t{rng.randrange(THREADS)}-s{rng.randrange(8)}"
                    cache.verdict(other)  # others' names: any verdict, never an exception
        except BaseException as error:
            errors.append(error)
        with final_lock:
            final.update(expected)

    workers = [threading.Thread(target=work, args=(number,)) for number in range(THREADS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    stop()
    assert errors == []
    registered = declaration.registered()
    assert {name for name, decl in final.items() if decl is not None} == set(registered)
    for name, decl in registered.items():
        assert decl is final[name]
        assert cache.verdict(name) is (decl is PRESENT)
