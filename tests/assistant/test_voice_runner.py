"""Reading the voice process's reports: only whole ones reach the loop, so a process frozen half
way through sending a sentence's samples cannot block the supervisor (and its watchdog) with it.
(Found by the recovery bench: a SIGSTOP mid-send held the supervisor in ``recv`` for 15 minutes.)"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import struct
import time
from multiprocessing.connection import wait

import numpy as np

from assistant.voice_runner import ReportReader
from audio import Heartbeat, Played, State


def test_a_half_sent_report_never_blocks_the_loop_and_whole_ones_come_in_order():
    theirs, ours = multiprocessing.Pipe()
    reader = ReportReader(ours, "test-reader")
    try:
        theirs.send(Heartbeat(frames=1, t=0.5, state=State.SPEAKING))
        # A sentence's samples, cut off after a tenth of the message by a frozen sender.
        sound = pickle.dumps(Played(0, np.zeros(48000, dtype=np.int16)))
        os.write(theirs.fileno(), struct.pack("!i", len(sound)) + sound[: len(sound) // 10])
        assert wait([reader], 5) == [reader]
        assert [type(report) for report in reader.take()] == [Heartbeat]
        began = time.monotonic()
        assert wait([reader], 0.5) == []  # the half report: nothing to take, and no block
        assert list(reader.take()) == []
        assert time.monotonic() - began < 2.0
        theirs.close()  # the frozen process is killed: the reader ends with the pipe
        assert reader.wait_closed(5)
        assert list(reader.take()) == []
    finally:
        reader.close()
        ours.close()


def test_what_was_sent_before_the_end_is_all_taken_after_it():
    theirs, ours = multiprocessing.Pipe()
    reader = ReportReader(ours, "test-reader")
    try:
        for frames in range(50):
            theirs.send(Heartbeat(frames=frames, t=frames / 10, state=State.STANDBY))
        theirs.close()
        assert reader.wait_closed(5)
        assert [report.frames for report in reader.take()] == list(range(50))
    finally:
        reader.close()
        ours.close()
