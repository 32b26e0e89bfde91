"""Opening the memory never drops the SQLite locks this process already holds on its file.

POSIX drops every lock a process holds on a file when it closes any descriptor of that file. A
header read by hand did that: another process closing its last connection then found the file
unlocked and deleted the write-ahead log under the live connections, which missed its commits
(a running Hearth never saw a timer set by ``hearth`` on the command line) and would lose their
own next writes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

from memory import Memory

WRITER = """
import sqlite3, sys
writer = sqlite3.connect(sys.argv[1], isolation_level=None)
writer.execute("CREATE TABLE probe (x)")
writer.execute("INSERT INTO probe VALUES (1)")
writer.close()
"""


def test_a_commit_by_another_process_is_seen_after_the_memory_was_opened_again(tmp_path):
    path = tmp_path / "memory.db"
    Memory.open(path).close()
    live = sqlite3.connect(path, isolation_level=None)  # a connection that stays, as Hearth's
    live.execute("SELECT count(*) FROM sqlite_master").fetchone()
    log = os.stat(f"{path}-wal").st_ino
    Memory.open(path).close()  # in the same process, as each store beside the memory does
    subprocess.run([sys.executable, "-c", WRITER, str(path)], check=True, timeout=60)
    assert live.execute("SELECT count(*) FROM probe").fetchone() == (1,)
    assert os.stat(f"{path}-wal").st_ino == log, "the write-ahead log is the one in use"
    live.close()
