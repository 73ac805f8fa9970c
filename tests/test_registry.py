"""The process-wide registry: replace, remove, clear, notifications and thread safety (SPEC 5)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from hermes_decl import declaration
from hermes_decl.declaration import RegistryChange
from hermes_decl.models import Declaration


def _decl(name: str) -> Declaration:
    return declaration.parse_declaration(name, None, None, where="test")


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


def test_register_lookup_replace_unregister() -> None:
    first, second = _decl("srv"), _decl("srv")
    assert declaration.lookup("srv") is None
    declaration.register("srv", first)
    assert declaration.lookup("srv") is first
    declaration.register("srv", second)
    assert declaration.lookup("srv") is second
    assert declaration.unregister("srv") is True
    assert declaration.unregister("srv") is False
    assert declaration.lookup("srv") is None


def test_clear_removes_everything() -> None:
    declaration.register("a", _decl("a"))
    declaration.register("b", _decl("b"))
    assert set(declaration.registered()) == {"a", "b"}
    declaration.clear()
    assert declaration.registered() == {}


def test_register_rejects_wrong_types() -> None:
    with pytest.raises(TypeError, match="server_name must be a non-empty string"):
        declaration.register("", _decl("a"))
    with pytest.raises(TypeError, match="decl must be a Declaration"):
        declaration.register("a", {"app": None})  # type: ignore[arg-type]


def test_subscribers_hear_each_change_after_it_happened() -> None:
    seen: list[tuple[RegistryChange, bool]] = []

    def on_change(change: RegistryChange) -> None:
        # Called outside the lock: reading the registry here must not deadlock.
        present = change.name is not None and declaration.lookup(change.name) is not None
        seen.append((change, present))

    stop = declaration.subscribe(on_change)
    declaration.register("a", _decl("a"))
    declaration.unregister("a")
    declaration.unregister("a")  # no change, no notification
    declaration.register("b", _decl("b"))
    declaration.clear()
    declaration.clear()  # already empty: no change
    stop()
    declaration.register("c", _decl("c"))
    assert seen == [
        (RegistryChange("register", "a"), True),
        (RegistryChange("unregister", "a"), False),
        (RegistryChange("register", "b"), True),
        (RegistryChange("clear", None), False),
    ]


def test_a_failing_subscriber_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    heard: list[RegistryChange] = []

    def broken(change: RegistryChange) -> None:
        raise RuntimeError("boom")

    stops = [declaration.subscribe(broken), declaration.subscribe(heard.append)]
    declaration.register("a", _decl("a"))
    for stop in stops:
        stop()
    assert heard == [RegistryChange("register", "a")]
    assert "a registry subscriber failed" in caplog.text


def test_eight_threads_lose_and_duplicate_nothing() -> None:
    threads_count, per_thread = 8, 500
    decls = {
        f"s{t}-{i}": _decl(f"s{t}-{i}") for t in range(threads_count) for i in range(per_thread)
    }
    heard: list[RegistryChange] = []
    heard_lock = threading.Lock()

    def on_change(change: RegistryChange) -> None:
        with heard_lock:
            heard.append(change)

    stop = declaration.subscribe(on_change)
    barrier = threading.Barrier(threads_count)

    def work(thread: int) -> None:
        barrier.wait()
        for i in range(per_thread):
            name = f"s{thread}-{i}"
            declaration.register(name, decls[name])
            assert declaration.lookup(name) is decls[name]
            if i % 2:
                assert declaration.unregister(name) is True

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads_count)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    stop()
    survivors = declaration.registered()
    assert set(survivors) == {name for name in decls if int(name.rsplit("-", 1)[1]) % 2 == 0}
    assert all(survivors[name] is decls[name] for name in survivors)
    registrations = [str(c.name) for c in heard if c.action == "register"]
    removals = [str(c.name) for c in heard if c.action == "unregister"]
    assert sorted(registrations) == sorted(decls)
    assert len(removals) == len(set(removals)) == threads_count * per_thread // 2
