"""``check`` quotes no secret: a committed link out of its folder is refused unread (unless
``--follow-symlinks``), and a document that is not a mapping of servers is one unquoting error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hermes_decl.cli import main
from hermes_decl.cli.inputs import NOT_DECLARATIONS_MESSAGE, SYMLINK_OUTSIDE_MESSAGE

SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"
CREDENTIALS = f"AWS_ACCESS_KEY_ID: AKIAEXAMPLE\nAWS_SECRET_ACCESS_KEY: {SECRET}\n"
VALID = "vendor:\n  requires: {gpu: nvidia}\n"

needs_symlinks = pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["check", *args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "credentials").write_text(CREDENTIALS, encoding="utf-8")
    (tmp_path / "repo" / "sub").mkdir(parents=True)
    (tmp_path / "repo" / "sub" / "real.yaml").write_text(VALID, encoding="utf-8")
    return tmp_path / "repo"


LINKS = {
    "to-a-secrets-file": ("../home/credentials", "hermes.yaml"),
    "absolute-to-a-secrets-file": ("{root}/home/credentials", "hermes.yaml"),
    "through-a-folder-link": ("out/credentials", "hermes.yaml"),
}


@needs_symlinks
@pytest.mark.parametrize(("target", "name"), LINKS.values(), ids=list(LINKS))
def test_a_link_out_of_its_folder_is_refused_unread(
    repository: Path, capsys: pytest.CaptureFixture[str], target: str, name: str
) -> None:
    (repository / "out").symlink_to(repository.parent / "home")
    link = repository / name
    link.symlink_to(target.format(root=repository.parent))
    status, output = _check(capsys, str(link))
    assert status == 2
    assert output == f"{link}: {SYMLINK_OUTSIDE_MESSAGE}\n"
    assert SECRET not in output


@needs_symlinks
def test_a_folder_is_walked_without_following_a_link_out(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repository / "hermes.yaml").symlink_to("../home/credentials")
    status, output = _check(capsys, "--json", str(repository))
    assert status == 2
    files = json.loads(output)["files"]
    assert [(entry["file"], entry["valid"]) for entry in files] == [
        (str(repository / "hermes.yaml"), False)
    ]
    assert [issue["code"] for issue in files[0]["issues"]] == ["symlink_outside_folder"]
    assert SECRET not in output


@needs_symlinks
def test_a_link_inside_its_folder_is_read(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = repository / "hermes.yaml"
    link.symlink_to("sub/real.yaml")
    assert _check(capsys, str(link)) == (0, f"{link}: ok (vendor)\n")


@needs_symlinks
def test_follow_symlinks_reads_the_target(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repository.parent / "home" / "hermes.yaml").write_text(VALID, encoding="utf-8")
    link = repository / "hermes.yaml"
    link.symlink_to("../home/hermes.yaml")
    assert _check(capsys, "--follow-symlinks", str(link)) == (0, f"{link}: ok (vendor)\n")
    assert _check(capsys, str(link))[0] == 2


NOT_DECLARATIONS = {
    "mapping-of-strings": (CREDENTIALS, "1:20"),
    "mixed": (VALID + f"token: {SECRET}\n", "3:8"),
    "list": (f"- {SECRET}\n- b\n", "1:1"),
    "scalar": (f"{SECRET}\n", "1:1"),
    "mapping-of-lists": (f"servers: [{SECRET}]\n", "1:10"),
}


@pytest.mark.parametrize(("text", "at"), NOT_DECLARATIONS.values(), ids=list(NOT_DECLARATIONS))
def test_a_document_not_a_mapping_of_servers_is_one_error_without_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, at: str
) -> None:
    path = tmp_path / "hermes.yaml"
    path.write_text(text, encoding="utf-8")
    for arguments in ((), ("--follow-symlinks",)):
        status, output = _check(capsys, *arguments, str(path))
        assert status == 1
        assert output == f"{path}:{at}: {NOT_DECLARATIONS_MESSAGE}\n"
        assert SECRET not in output


def test_the_help_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "--follow-symlinks" in capsys.readouterr().out
