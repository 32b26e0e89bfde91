"""The watchdog's judgement of one voice process, from what it reported and when."""

from __future__ import annotations

from dataclasses import dataclass

from audio import Heartbeat, JobKind
from config import VoiceProcessSettings

START_TIMEOUT_SECONDS = 180.0
"""Loading the models on a cold Pi: the first heartbeat may take this long."""


@dataclass
class VoiceHealth:
    """Whether one voice process is healthy, judged from its reports.

    Pure: the caller gives the monotonic time, so it is tested with heartbeats and seconds. Whether
    the process is alive at all is the caller's to check.
    """

    limits: VoiceProcessSettings
    live: bool
    """Frames must keep coming only from a live device (a recording pauses on purpose)."""
    started_at: float
    ready: bool = False
    last_beat: Heartbeat | None = None
    last_beat_at: float = 0.0
    frames_changed_at: float = 0.0

    def on_ready(self, now: float) -> None:
        """The models are loaded: heartbeats and frames are due from now on."""
        self.ready = True
        self.last_beat_at = self.frames_changed_at = now

    def on_heartbeat(self, beat: Heartbeat, now: float) -> None:
        """A heartbeat arrived."""
        # A job that blocked the loop (a transcription, a wake check) held the frames still on
        # purpose: the stall is counted from when it ended, not from the last frame before it.
        was_blocked = self.last_beat is not None and any(
            job.kind.blocks_the_loop for job in self.last_beat.jobs
        )
        if self.last_beat is None or beat.frames != self.last_beat.frames or was_blocked:
            self.frames_changed_at = now
        self.last_beat, self.last_beat_at = beat, now

    def synthesizing(self) -> int | None:
        """The ``Speak.job`` whose sentence was being made at the last heartbeat, if any: the
        suspect when the process then dies."""
        for job in self.last_beat.jobs if self.last_beat else ():
            if job.kind == JobKind.SPEAK and job.speak_job is not None:
                return job.speak_job
        return None

    def problem(self, now: float) -> str | None:
        """Why the voice process must be restarted, or None while it is healthy."""
        limits = self.limits
        if not self.ready:
            if now - self.started_at > START_TIMEOUT_SECONDS:
                return f"the voice process did not start within {START_TIMEOUT_SECONDS:.0f} s"
            return None
        beat = self.last_beat
        deadlines = {
            JobKind.TRANSCRIBE: limits.transcribe_deadline_seconds,
            JobKind.SPEAK: limits.speak_deadline_seconds,
        }
        for job in beat.jobs if beat else ():
            deadline = deadlines[job.kind]
            if job.deadline is not None:  # may shorten the leash, to no less than the loop's
                deadline = min(deadline, max(job.deadline, limits.heartbeat_timeout_seconds))
            # A job on a worker thread (synthesis) is known to be running only as of the last
            # heartbeat that named it: once the loop itself falls silent, the piece may long be
            # made and waiting for it, and the silence is the heartbeat's to judge.
            seen = now if job.kind.blocks_the_loop else self.last_beat_at
            if seen - job.started > deadline:
                return f"{job.kind} ran past its {deadline:.3g} s deadline"
        silent = now - self.last_beat_at
        # A job announced in the last heartbeat may keep the loop busy up to its deadline.
        blocked = bool(beat) and any(job.kind.blocks_the_loop for job in beat.jobs)
        if silent > limits.heartbeat_timeout_seconds and not blocked:
            return f"no heartbeat for {silent:.1f} s"
        if beat is None:
            return None
        stalled = now - self.frames_changed_at
        frames_expected = self.live and not beat.waiting and not blocked
        if frames_expected and stalled > limits.frames_stall_seconds:
            return f"no audio frames for {stalled:.1f} s"
        return None
