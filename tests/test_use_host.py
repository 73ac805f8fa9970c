"""use_host: the host every ``host=None`` path uses, for this thread or task only (SPEC 12)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from hermes_decl import use_host as front_door_use_host
from hermes_decl.declaration import clear, parse_declaration, register
from hermes_decl.gates import make_check_fn, make_status_fn, skill_matches_apps
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.gpu import clear_gpu_cache, gpu_class
from hermes_decl.resolver.host import default_host, use_host
from hermes_decl.resolver.status import astatus, status
from hermes_decl.testing import FakeHost

GPU_APP = {"linux": {"presence": "executable", "location": "/opt/render/render"}}


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    clear()
    clear_gpu_cache()
    yield
    clear()
    clear_gpu_cache()


def renderer() -> FakeHost:
    return FakeHost("linux").add_executable("/opt/render/render").add_nvidia_proc()


def amd_machine() -> FakeHost:
    host = FakeHost("linux").add_executable("/opt/render/render")
    return host.add_pci_device(vendor="0x1002")


DECL = parse_declaration("render", GPU_APP, {"app": True, "gpu": "nvidia"}, where="t")


def test_every_host_none_path_uses_the_chosen_host() -> None:
    host = renderer()
    register("render", DECL)
    with use_host(host) as chosen:
        assert chosen is host and default_host() is host
        assert gpu_class() == "nvidia"
        assert availability(DECL).state == "available"
        assert make_check_fn("render", lambda: True)() is True
        assert skill_matches_apps({"requires_apps": "render"}) is True
        assert status(DECL, is_connected=lambda: True).state == "connected"
        assert make_status_fn("render", lambda: True)().state == "connected"
        assert asyncio.run(astatus(DECL, is_connected=lambda: True)).state == "connected"
    assert default_host() is not host
    assert host.calls["is_file"] >= 6


def test_a_chosen_host_s_gpu_decides_with_no_patching() -> None:
    with use_host(amd_machine()):
        assert gpu_class() == "amd"
        assert availability(DECL).state == "unsupported_gpu"


def test_choices_nest_and_an_explicit_host_wins() -> None:
    outer, inner = renderer(), amd_machine()
    with use_host(outer):
        with use_host(inner):
            assert default_host() is inner
            assert availability(DECL, host=outer).state == "available"
        assert default_host() is outer


def test_each_thread_sees_its_own_choice() -> None:
    seen: dict[str, object] = {}
    chosen = renderer()
    ready, done = threading.Event(), threading.Event()

    def other_thread() -> None:
        ready.wait(5)
        seen["other"] = default_host()
        done.set()

    worker = threading.Thread(target=other_thread)
    worker.start()
    with use_host(chosen):
        ready.set()
        done.wait(5)
        seen["this"] = default_host()
    worker.join(5)
    assert seen["this"] is chosen
    assert seen["other"] is not chosen


def test_each_asyncio_task_sees_its_own_choice() -> None:
    first, second = renderer(), amd_machine()

    async def in_task(host: FakeHost) -> str:
        with use_host(host):
            await asyncio.sleep(0)
            return str(availability(DECL).state)

    async def both() -> list[str]:
        return list(await asyncio.gather(in_task(first), in_task(second)))

    assert asyncio.run(both()) == ["available", "unsupported_gpu"]


def test_the_front_door_names_the_same_function() -> None:
    assert front_door_use_host is use_host
