"""The process-wide registry: replace, remove, clear, notifications and thread safety (SPEC 5)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator

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

    a, b = _decl("a"), _decl("b")
    stop = declaration.subscribe(on_change)
    declaration.register("a", a)
    declaration.unregister("a")
    declaration.unregister("a")  # no change, no notification
    declaration.register("b", b)
    declaration.clear()
    declaration.clear()  # already empty: no change
    stop()
    declaration.register("c", _decl("c"))
    assert seen == [
        (RegistryChange("register", "a", ("a",), None, {}, {"a": a}), True),
        (RegistryChange("unregister", "a", ("a",), None, {"a": a}, {}), False),
        (RegistryChange("register", "b", ("b",), None, {}, {"b": b}), True),
        (RegistryChange("clear", None, ("b",), None, {"b": b}, {}), False),
    ]


def test_a_failing_subscriber_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    heard: list[RegistryChange] = []

    def broken(change: RegistryChange) -> None:
        raise RuntimeError("boom")

    a = _decl("a")
    stops = [declaration.subscribe(broken), declaration.subscribe(heard.append)]
    declaration.register("a", a)
    for stop in stops:
        stop()
    assert heard == [RegistryChange("register", "a", ("a",), None, {}, {"a": a})]
    assert "a registry subscriber failed on register of a" in caplog.text


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


def _listen() -> tuple[list[RegistryChange], Callable[[], None]]:
    heard: list[RegistryChange] = []
    return heard, declaration.subscribe(heard.append)


def test_a_replacement_says_the_old_and_the_new_declaration() -> None:
    first, second = _decl("srv"), _decl("srv")
    declaration.register("srv", first, owner="plugin-a")
    heard, stop = _listen()
    declaration.register("srv", second, owner="plugin-a")
    stop()
    assert heard == [
        RegistryChange("register", "srv", ("srv",), "plugin-a", {"srv": first}, {"srv": second})
    ]
    assert declaration.lookup("srv") is second
    assert declaration.owner_of("srv") == "plugin-a"


@pytest.mark.parametrize(
    ("first_owner", "second_owner", "message"),
    [
        (
            "plugin-a",
            "plugin-b",
            "server 'srv' is already registered by owner 'plugin-a'; "
            "owner 'plugin-b' cannot register it (unregister it first)",
        ),
        (
            None,
            "plugin-b",
            "server 'srv' is already registered by no owner; "
            "owner 'plugin-b' cannot register it (unregister it first)",
        ),
        (
            "plugin-a",
            None,
            "server 'srv' is already registered by owner 'plugin-a'; "
            "no owner cannot register it (unregister it first)",
        ),
    ],
    ids=["another-plugin", "owned-over-ownerless", "ownerless-over-owned"],
)
def test_another_owner_cannot_take_a_name(
    first_owner: str | None, second_owner: str | None, message: str
) -> None:
    first = _decl("srv")
    declaration.register("srv", first, owner=first_owner)
    heard, stop = _listen()
    with pytest.raises(declaration.RegistrationConflict) as raised:
        declaration.register("srv", _decl("srv"), owner=second_owner)
    stop()
    assert str(raised.value) == message
    assert (raised.value.name, raised.value.owner, raised.value.registered_by) == (
        "srv",
        second_owner,
        first_owner,
    )
    assert declaration.lookup("srv") is first
    assert declaration.owner_of("srv") == first_owner
    assert heard == []


def test_register_many_is_one_notification() -> None:
    decls = {f"s{i}": _decl(f"s{i}") for i in range(200)}
    heard, stop = _listen()
    declaration.register_many(decls, owner="plugin-a")
    declaration.register_many({}, owner="plugin-a")  # nothing to do: no notification
    stop()
    assert heard == [RegistryChange("register", None, tuple(decls), "plugin-a", {}, decls)]
    assert declaration.registered(owner="plugin-a") == decls


def test_register_many_is_atomic_on_a_conflict() -> None:
    taken = _decl("b")
    declaration.register("b", taken, owner="plugin-b")
    heard, stop = _listen()
    with pytest.raises(declaration.RegistrationConflict, match="'b' is already registered"):
        declaration.register_many({"a": _decl("a"), "b": _decl("b")}, owner="plugin-a")
    stop()
    assert declaration.registered() == {"b": taken}
    assert heard == []


@pytest.mark.parametrize(
    ("decls", "owner", "message"),
    [
        ({"": None}, "p", "server_name must be a non-empty string (got '')"),
        ({"a": {"app": None}}, "p", "decl must be a Declaration (got dict)"),
        ([("a", None)], "p", "decls must be a mapping of server name to Declaration"),
        ({}, 3, "owner must be a non-empty string or None (got 3)"),
    ],
    ids=["empty-name", "not-a-declaration", "not-a-mapping", "bad-owner"],
)
def test_register_many_refuses_wrong_types(decls: object, owner: object, message: str) -> None:
    good = {"ok": _decl("ok"), **(decls if isinstance(decls, dict) else {})}
    with pytest.raises(TypeError, match=re.escape(message)):
        declaration.register_many(good if isinstance(decls, dict) else decls, owner=owner)  # type: ignore[arg-type]
    assert declaration.registered() == {}


def test_unregister_owner_removes_only_that_plugin_in_one_notification() -> None:
    mine = {"a": _decl("a"), "b": _decl("b")}
    theirs = _decl("c")
    declaration.register_many(mine, owner="plugin-a")
    declaration.register("c", theirs, owner="plugin-c")
    heard, stop = _listen()
    assert declaration.unregister_owner("plugin-a") == ("a", "b")
    assert declaration.unregister_owner("plugin-a") == ()  # nothing left: no notification
    stop()
    assert heard == [RegistryChange("unregister", None, ("a", "b"), "plugin-a", mine, {})]
    assert declaration.registered() == {"c": theirs}
    declaration.register("a", _decl("a"), owner="plugin-z")  # a freed name can be taken
    assert declaration.owner_of("a") == "plugin-z"
    with pytest.raises(TypeError, match="owner must be a non-empty string"):
        declaration.unregister_owner(None)  # type: ignore[arg-type]


def test_plain_unregister_removes_an_owned_name_and_says_its_owner() -> None:
    a = _decl("a")
    declaration.register("a", a, owner="plugin-a")
    heard, stop = _listen()
    assert declaration.unregister("a") is True
    stop()
    assert heard == [RegistryChange("unregister", "a", ("a",), "plugin-a", {"a": a}, {})]
    assert declaration.owner_of("a") is None
