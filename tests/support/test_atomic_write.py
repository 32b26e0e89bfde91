"""The one atomic write: whole files in place, exact modes, nothing left behind, never over a
file that must be kept."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from support import NotARegularFile, write_atomically


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".tmp"))


def test_text_bytes_and_a_writer_each_land_whole(tmp_path: Path) -> None:
    target = tmp_path / "out"
    assert write_atomically(target, "café\n")
    assert target.read_bytes() == "café\n".encode()
    assert write_atomically(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"
    assert write_atomically(target, lambda file: file.write(b"streamed"))
    assert target.read_bytes() == b"streamed"
    assert leftovers(tmp_path) == []


def test_a_new_file_is_private_by_default_and_takes_an_exact_mode(tmp_path: Path) -> None:
    private, shared = tmp_path / "private.json", tmp_path / "shared.yaml"
    write_atomically(private, "{}")
    write_atomically(shared, "a: 1\n", mode=0o644)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert stat.S_IMODE(shared.stat().st_mode) == 0o644
    old = os.umask(0o077)
    try:  # the umask does not narrow an explicit mode
        write_atomically(shared, "a: 2\n", mode=0o644)
    finally:
        os.umask(old)
    assert stat.S_IMODE(shared.stat().st_mode) == 0o644


def test_without_replace_an_existing_file_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "assistant.yaml"
    assert write_atomically(target, "# packaged\n", replace=False)
    target.write_text("# my edits\n")
    assert not write_atomically(target, "# packaged\n", replace=False)
    assert target.read_text() == "# my edits\n"
    assert leftovers(tmp_path) == []


def test_a_failing_writer_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "reply.wav"
    target.write_bytes(b"old")

    def fail(file) -> None:
        file.write(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_atomically(target, fail)
    assert target.read_bytes() == b"old"
    assert leftovers(tmp_path) == []


def test_a_missing_folder_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as error:
        write_atomically(tmp_path / "nowhere" / "file", "x")
    assert "nowhere" in str(error.value)


def test_a_relative_name_is_written_in_the_current_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_atomically("export.json", "[]")
    assert (tmp_path / "export.json").read_text() == "[]"


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert write_atomically(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_a_name_taken_by_anything_but_a_file_is_never_replaced(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    folder = tmp_path / "folder"
    folder.mkdir()
    for taken in (pipe, folder, tmp_path / "to-pipe"):
        if taken.name == "to-pipe":
            taken.symlink_to(pipe)
        with pytest.raises(NotARegularFile):
            write_atomically(taken, "new")
    assert (
        pipe.is_fifo()
        and folder.is_dir()
        and sorted(p.name for p in tmp_path.iterdir()) == ["folder", "pipe", "to-pipe"]
    )
