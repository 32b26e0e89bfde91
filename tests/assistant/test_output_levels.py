"""The kept volume and mutes: in the schedule's state beside the memory, each side (the brain's
desk, the supervisor) on its own connection, each seeing what the other kept."""

from __future__ import annotations

import logging

from assistant.output_levels import KeptLevels
from assistant.schedule import ScheduleStore
from audio import OutputLevel


def opener(path):
    return lambda: ScheduleStore.open(path)


def test_a_new_memory_plays_at_full_volume_with_the_microphone_open(tmp_path):
    levels = KeptLevels(opener(tmp_path / "memory.db"))
    assert levels.output() == OutputLevel(1.0, muted=False)
    assert levels.microphone_muted() is False
    levels.close()


def test_what_one_side_keeps_the_other_reads_and_a_restart_too(tmp_path):
    brain = KeptLevels(opener(tmp_path / "memory.db"))
    supervisor = KeptLevels(opener(tmp_path / "memory.db"))
    assert supervisor.output() == OutputLevel()  # read (and connected) before the change
    assert brain.keep_output(OutputLevel(0.35, muted=True))
    assert supervisor.keep_microphone(True)
    assert supervisor.output() == OutputLevel(0.35, muted=True)
    assert brain.microphone_muted() is True
    brain.close()
    supervisor.close()
    restarted = KeptLevels(opener(tmp_path / "memory.db"))
    assert (restarted.output(), restarted.microphone_muted()) == (OutputLevel(0.35, True), True)
    restarted.close()


def test_a_store_that_fails_leaves_the_last_known_and_is_logged_once(tmp_path, caplog):
    (tmp_path / "folder").mkdir()
    levels = KeptLevels(opener(tmp_path / "folder"))
    with caplog.at_level(logging.WARNING):
        assert levels.keep_microphone(True) is False
        assert levels.microphone_muted() is True
        assert levels.keep_output(OutputLevel(0.2)) is False
        assert levels.output() == OutputLevel(0.2)
    assert len([r for r in caplog.records if "cannot keep" in r.getMessage()]) == 1
