"""The supervisor: runs the voice process, watches it, restarts it, and carries replies to it.

It owns the brain (on its own thread), the event stream and, in file mode, the output timeline.
The voice process is judged by what it reports from inside its own loop: heartbeats, its frame
counter and the jobs in progress. When any of them says it is stuck, the process is killed and a
new one started; every sentence it had not finished saying is sent again, in order, once.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import FrameType
from typing import Any

from assistant.brain import Brain
from assistant.brain_worker import BrainWorker, KnownNames, ReplyEnd, SpeakText
from assistant.event_log import EventLog
from assistant.reply import AwaitAnswer, HeardUtterance, Note
from assistant.systemd_notify import SystemdNotifier
from audio import (
    Failed,
    FinishReply,
    Heard,
    Heartbeat,
    InputEnded,
    Played,
    Ready,
    Record,
    SetHotwords,
    Shutdown,
    Speak,
    Spoken,
    TimelineSink,
    Via,
    VoiceIO,
    run_voice_process,
    seconds_to_samples,
    trace,
)
from config import Settings, VoiceProcessSettings

log = logging.getLogger(__name__)

START_TIMEOUT_SECONDS = 180.0
"""Loading the models on a cold Pi: the first heartbeat may take this long."""
DRAIN_SECONDS = 8.0
"""After SIGTERM: time for the sentence being spoken to finish before the process is killed."""
BRAIN_STOP_SECONDS = 2.0
"""After SIGTERM: time for the brain to end its turn and close the memory. A turn still waiting on
the model is left behind; its memory writes are transactions, so none is left half-done."""
KILL_GRACE_SECONDS = 0.25
"""After SIGTERM, before SIGKILL. The voice process keeps SIGTERM's default (die at once), so only
a stopped or wedged process outlives this, and waiting longer would only delay its restart."""
WATCHDOG_PING_SECONDS = 1.0
POLL_SECONDS = 0.25
"""Longest sleep of the loop when neither the voice process nor the brain has anything: both
wake it when they do, and the watchdog's limits are whole seconds."""
CONTEXT_CHARS = 300

EXIT_OK = 0
EXIT_FAILED = 1

STATUS_TEXT = {
    "standby": "Standby: waiting for the wake word",
    "listening": "Listening",
    "thinking": "Thinking",
    "speaking": "Speaking",
    "follow_up": "Follow-up: listening without the wake word",
}


@dataclass(frozen=True)
class RunFiles:
    """Where Hearth hears and what it writes; no input and no script means the sound devices."""

    input: Path | None = None
    output: Path | None = None
    events: Path | None = None
    script: tuple[str, ...] = ()
    """The demo: lines a scripted room says instead of a recording."""
    room_output: Path | None = None
    """The demo: where to write what the scripted room said, on the same timeline."""

    @property
    def live(self) -> bool:
        """True when Hearth uses the sound devices."""
        return self.input is None and not self.script


@dataclass
class VoiceHealth:
    """The watchdog's judgement of one voice process from what it reported, and when.

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
        if self.last_beat is None or beat.frames != self.last_beat.frames:
            self.frames_changed_at = now
        self.last_beat, self.last_beat_at = beat, now

    def problem(self, now: float) -> str | None:
        """Why the voice process must be restarted, or None while it is healthy."""
        limits = self.limits
        if not self.ready:
            if now - self.started_at > START_TIMEOUT_SECONDS:
                return f"the voice process did not start within {START_TIMEOUT_SECONDS:.0f} s"
            return None
        beat = self.last_beat
        deadlines = {
            "transcribe": limits.transcribe_deadline_seconds,
            "speak": limits.speak_deadline_seconds,
        }
        for job in beat.jobs if beat else ():
            deadline = deadlines.get(job.kind, limits.speak_deadline_seconds)
            if job.deadline is not None:  # may shorten the leash, to no less than the loop's
                deadline = min(deadline, max(job.deadline, limits.heartbeat_timeout_seconds))
            if now - job.started > deadline:
                return f"{job.kind} ran past its {deadline:.3g} s deadline"
        silent = now - self.last_beat_at
        # A job announced in the last heartbeat may keep the loop busy up to its deadline.
        if silent > limits.heartbeat_timeout_seconds and not (beat and beat.jobs):
            return f"no heartbeat for {silent:.1f} s"
        if beat is None:
            return None
        stalled = now - self.frames_changed_at
        frames_expected = self.live and not beat.waiting and not beat.jobs
        if frames_expected and stalled > limits.frames_stall_seconds:
            return f"no audio frames for {stalled:.1f} s"
        return None


@dataclass
class _Reply:
    """What the supervisor keeps of a reply until it has been said."""

    user: str
    t: float
    answer: AwaitAnswer | None = None
    finish: FinishReply | None = None


class Supervisor:
    """Runs Hearth: the voice process under a watchdog, and the brain answering it."""

    def __init__(
        self,
        settings: Settings,
        make_brain: Callable[[], Brain],
        files: RunFiles,
        notifier: SystemdNotifier | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
    ):
        self.settings = settings
        self.files = files
        self.notifier = notifier or SystemdNotifier()
        self.events = EventLog(files.events, on_event)
        self._make_brain = make_brain
        self._worker: BrainWorker | None = None
        self._context = multiprocessing.get_context("spawn")
        self._process: Any = None
        self._connection: Connection | None = None
        self._generation = 0
        self._restarts: deque[float] = deque()
        self._consecutive_failures = 0
        self._health = VoiceHealth(settings.voice_process, files.live, time.monotonic())
        self._ever_ready = False
        self._position = 0.0
        """Audio seconds the voice processes have reported reaching: where a new one goes on."""
        self._unsettled: list[tuple[int, Any]] = []
        """File mode: Hearth's sounds the audio clock has not yet passed the end of."""
        self._last_ping = 0.0
        self._status = ""
        self._unspoken: OrderedDict[int, Speak] = OrderedDict()
        self._replies: dict[int, _Reply] = {}
        self._next_job = 0
        self._next_reply = 0
        self._hotwords: tuple[str, ...] = ()
        self._stop_requested = False
        self._draining_since: float | None = None
        self._timeline: TimelineSink | None = None
        self._room_timeline: TimelineSink | None = None
        self._room_lines_said = 0
        self._input_ended = False
        self._result: int | None = None

    # -- the loop --------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until the input ends (file mode), SIGTERM, or an unrecoverable failure."""
        self._install_signal_handlers()
        self._worker = BrainWorker(self._make_brain)
        if not self._worker.wait_ready(60) or self._worker.error is not None:
            log.error("cannot start the brain: %s", self._worker.error)
            return EXIT_FAILED
        if self.files.output is not None:
            self._timeline = TimelineSink(self.files.output, self._input_samples())
        if self.files.room_output is not None:
            self._room_timeline = TimelineSink(self.files.room_output)
        self._start_voice(start_sample=0)
        try:
            while self._result is None:
                self._step()
        finally:
            self._shut_down()
        return self._result

    def _step(self) -> None:
        if self._stop_requested and self._draining_since is None:
            self._begin_drain()
        report = self._receive(POLL_SECONDS)
        if report is not None:
            self._on_report(report)
        self._forward_brain_output()
        if self._input_ended:
            # The recording is over and the voice process leaves on its own.
            if self._conversation_idle():
                self._result = EXIT_OK
            return
        if self._draining_since is not None:
            self._check_drain()
            return
        self._watch()

    def _receive(self, timeout: float) -> Any:
        """The voice process's next report, or None once the brain has output or time is up."""
        assert self._connection is not None and self._worker is not None
        try:
            # Wake for either side: the brain's first sentence must not wait out the timeout.
            ready = multiprocessing.connection.wait([self._connection, self._worker], timeout)
            if self._connection in ready:
                return self._connection.recv()
        except (EOFError, OSError):
            return None  # the process died; the watch notices and restarts it
        return None

    def _conversation_idle(self) -> bool:
        return not self._unspoken and not self._replies

    # -- reports from the voice process ----------------------------------------------------------

    def _on_report(self, report: Any) -> None:
        match report:
            case Ready():
                self._on_ready()
            case Heartbeat():
                self._on_heartbeat(report)
            case Record(fields=fields):
                self.events.write(fields)
            case Heard():
                self._on_heard(report)
            case Spoken(job=job):
                self._unspoken.pop(job, None)
                self._forget_finished_replies()
            case Played(at_sample=at, samples=samples, by="room"):
                self._room_lines_said += 1
                if self._room_timeline is not None:
                    self._room_timeline.play(samples, at)
            case Played(at_sample=at, samples=samples):
                if self._timeline is not None:
                    self._unsettled.append((at, samples))
                    self._settle_sounds()
            case InputEnded():
                self._input_ended = True
            case Failed(reason=reason, retry=retry):
                self._on_failed(reason, retry)

    def _on_ready(self) -> None:
        self._health.on_ready(time.monotonic())
        self._consecutive_failures = 0
        if not self._ever_ready:
            self._ever_ready = True
            self.notifier.ready()
            log.info("Hearth is ready")
        else:
            log.info("the voice process is back (generation %d)", self._generation)
        self._set_status(STATUS_TEXT["standby"])

    def _on_heartbeat(self, beat: Heartbeat) -> None:
        self._health.on_heartbeat(beat, time.monotonic())
        self._advance(beat.t)
        if self._draining_since is None:
            self._set_status(STATUS_TEXT.get(beat.state, beat.state))

    def _on_heard(self, heard: Heard) -> None:
        assert self._worker is not None
        self._next_reply += 1
        reply = self._next_reply
        self._trace(heard.t, "heard", reply=reply)
        self._advance(heard.t)  # what was heard is never heard again after a restart
        self._replies[reply] = _Reply(heard.text, heard.t)
        utterance = HeardUtterance(heard.text, Via(heard.via), heard.t, dict(heard.answer_scores))
        self._worker.ask(reply, utterance)

    def _on_failed(self, reason: str, retry: bool) -> None:
        if retry:
            self._restart(reason)
            return
        log.error("the voice process cannot run: %s", reason)
        self.events.write({"t": self._clock(), "event": "error", "what": "voice process",
                           "message": reason})  # fmt: skip
        self._result = EXIT_FAILED

    # -- replies ---------------------------------------------------------------------------------

    def _forward_brain_output(self) -> None:
        assert self._worker is not None
        for reply_number, part in self._worker.take():
            reply = self._replies.get(reply_number)
            match part:
                case KnownNames(words=words):
                    if words != self._hotwords:
                        self._hotwords = words
                        self._send(SetHotwords(words))
                case SpeakText(text=text, voice=voice, speed=speed) if reply is not None:
                    self._next_job += 1
                    speak = Speak(self._next_job, reply_number, text, voice, speed)
                    self._unspoken[speak.job] = speak
                    self._trace(reply.t, "speak_sent", reply=reply_number, job=speak.job)
                    self._send(speak)
                case Note(event=event, fields=fields) if reply is not None:
                    self.events.write({"t": reply.t, "event": event, **fields})
                case AwaitAnswer() if reply is not None:
                    reply.answer = part
                case ReplyEnd(user=user, said=said) if reply is not None:
                    self.events.write({"t": reply.t, "event": "reply", "text": said})
                    context = f"{user} {said}"[-CONTEXT_CHARS:]
                    answer = reply.answer
                    reply.finish = FinishReply(
                        reply_number,
                        context=context,
                        answer_phrases=dict(answer.phrases) if answer else {},
                        hotwords=answer.hotwords if answer else (),
                    )
                    self._send(reply.finish)
                    self._forget_finished_replies()

    def _forget_finished_replies(self) -> None:
        waiting = {speak.reply for speak in self._unspoken.values()}
        for number in [n for n, r in self._replies.items() if r.finish and n not in waiting]:
            del self._replies[number]

    def _send(self, command: Any) -> None:
        if self._connection is None:
            return
        # A dead process cannot take it; what was unsaid is re-sent after the restart.
        with contextlib.suppress(BrokenPipeError, OSError):
            self._connection.send(command)

    # -- watching ------------------------------------------------------------------------------

    def _watch(self) -> None:
        problem = self._problem()
        if problem is not None:
            self._restart(problem)
            return
        now = time.monotonic()
        if self._health.ready and now - self._last_ping >= WATCHDOG_PING_SECONDS:
            # Pinged only from here: after the checks above found the voice loop healthy.
            self.notifier.watchdog()
            self._last_ping = now

    def _problem(self) -> str | None:
        """Why the voice process must be restarted, or None when it is healthy."""
        if not self._process.is_alive():
            return self._why_it_left()
        return self._health.problem(time.monotonic())

    def _why_it_left(self) -> str | None:
        """A voice process that is gone: what it reported before leaving still counts, and may say
        why it left (the recording ended: no problem at all)."""
        said_why = None
        for report in self._leftovers():
            match report:
                case Failed(reason=reason, retry=True):
                    said_why = reason
                case _:
                    self._on_report(report)
        if self._input_ended or self._result is not None:
            return None
        if said_why is not None:
            return said_why
        code = self._process.exitcode
        if code is not None and code < 0:
            return f"the voice process was killed by {signal.Signals(-code).name}"
        return f"the voice process exited (code {code})"

    def _restart(self, reason: str) -> None:
        limits = self.settings.voice_process
        now = time.monotonic()
        self._stop_voice()
        self._cut_sounds()
        self._restarts.append(now)
        while self._restarts and now - self._restarts[0] > limits.restart_window_seconds:
            self._restarts.popleft()
        if len(self._restarts) > limits.max_restarts:
            log.error(
                "the voice process failed %d times in %.0f s (last: %s); giving up so systemd "
                "can restart the service",
                len(self._restarts), limits.restart_window_seconds, reason,
            )  # fmt: skip
            self.events.write({"t": self._clock(), "event": "error", "what": "crash loop",
                               "message": reason})  # fmt: skip
            self._result = EXIT_FAILED
            return
        log.warning("restarting the voice process: %s", reason)
        self.events.write({"t": self._clock(), "event": "worker_restart", "reason": reason,
                           "generation": self._generation + 1})  # fmt: skip
        self._set_status(f"Restarting voice process: {reason}")
        self._consecutive_failures += 1
        backoff = min(
            limits.backoff_initial_seconds * 2 ** (self._consecutive_failures - 1),
            limits.backoff_max_seconds,
        )
        time.sleep(backoff)
        self._generation += 1
        # The audio clock goes on where the last process reached (a recording, from there).
        self._start_voice(start_sample=seconds_to_samples(self._position))
        # Whatever was not said yet is said now, in order, once; then the replies' ends.
        for speak in self._unspoken.values():
            self._send(speak)
        for reply in self._replies.values():
            if reply.finish is not None:
                self._send(reply.finish)

    # -- the voice process ---------------------------------------------------------------------

    def _start_voice(self, start_sample: int) -> None:
        parent, child = self._context.Pipe()
        # A restarted demo room goes on with the lines it has not said yet.
        script = self.files.script[self._room_lines_said :]
        # A reply begun and not finished is awaited by the new process as by the old one.
        io = VoiceIO(
            str(self.files.input) if self.files.input else None,
            start_sample,
            script,
            owed_replies=tuple(self._replies),
        )
        self._process = self._context.Process(
            target=run_voice_process,
            args=(child, self.settings, io, self._generation, logging.getLogger().level),
            name=f"hearth-voice-{self._generation}",
            daemon=True,
        )
        self._process.start()
        child.close()
        self._connection = parent
        self._health = VoiceHealth(self.settings.voice_process, self.files.live, time.monotonic())
        if self._hotwords:
            self._send(SetHotwords(self._hotwords))

    def _stop_voice(self) -> None:
        """Kill for real: terminate, then kill if it does not go. What it reported before it died
        (heard, said, played) still counts."""
        if self._process is not None and self._process.is_alive():
            self._process.terminate()
            self._process.join(KILL_GRACE_SECONDS)
            if self._process.is_alive():
                self._process.kill()
                self._process.join(1.0)
        for report in self._leftovers():
            if not isinstance(report, Ready | Failed | InputEnded):
                self._on_report(report)
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _leftovers(self) -> list[Any]:
        """Every report still in the pipe of a voice process that has stopped."""
        reports: list[Any] = []
        if self._connection is None:
            return reports
        with contextlib.suppress(EOFError, OSError):
            while self._connection.poll(0):
                reports.append(self._connection.recv())
        return reports

    # -- the output timeline (file mode) -------------------------------------------------------

    def _advance(self, t: float) -> None:
        """A voice process reported reaching audio second ``t``."""
        self._position = max(self._position, t)
        self._settle_sounds()

    def _settle_sounds(self, everything: bool = False) -> None:
        """Hearth's sounds go on the output timeline once the audio clock has passed their end."""
        if self._timeline is None:
            return
        now = seconds_to_samples(self._position)
        waiting = []
        for at, samples in self._unsettled:
            if everything or at + len(samples) <= now:
                self._timeline.play(samples, at)
            else:
                waiting.append((at, samples))
        self._unsettled = waiting

    def _cut_sounds(self) -> None:
        """A voice process died: its sounds stop where its clock stopped, as a speaker falls silent
        with its process. The sentence they belonged to was not acknowledged, so it is said again
        from there."""
        if self._timeline is not None:
            now = seconds_to_samples(self._position)
            for at, samples in self._unsettled:
                if now > at:
                    self._timeline.play(samples[: now - at], at)
        self._unsettled = []

    # -- stopping ------------------------------------------------------------------------------

    def _install_signal_handlers(self) -> None:
        def request_stop(signum: int, frame: FrameType | None) -> None:
            self._stop_requested = True

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)

    def _begin_drain(self) -> None:
        log.info("stopping: finishing the sentence being spoken")
        self.notifier.stopping()
        self._set_status("Stopping")
        self._draining_since = time.monotonic()
        self._send(Shutdown())

    def _check_drain(self) -> None:
        assert self._draining_since is not None
        waited = time.monotonic() - self._draining_since
        if not self._process.is_alive() or waited > DRAIN_SECONDS:
            self._result = EXIT_OK

    def _shut_down(self) -> None:
        draining = self._draining_since is not None
        if self._process is not None and (self._input_ended or draining):
            # It is leaving on its own; let it finish cleanly (after SIGTERM, within the drain).
            waited = time.monotonic() - self._draining_since if self._draining_since else 0.0
            self._process.join(max(0.0, DRAIN_SECONDS - waited))
        self._stop_voice()
        self._settle_sounds(everything=True)
        if self._worker is not None:
            if draining:
                self._worker.close(BRAIN_STOP_SECONDS)
            else:
                self._worker.close()
        for timeline in (self._timeline, self._room_timeline):
            if timeline is not None:
                timeline.close()
        self.events.close()
        self.notifier.close()

    # -- helpers -------------------------------------------------------------------------------

    def _trace(self, t: float, mark: str, **fields: object) -> None:
        """A wall-clock mark (audio/trace.py); nothing unless tracing."""
        if trace.ENABLED:
            at = time.monotonic()
            self.events.write({"t": t, "event": "trace", "mark": mark, "at": at, **fields})

    def _set_status(self, text: str) -> None:
        if text != self._status:
            self._status = text
            self.notifier.status(text)

    def _clock(self) -> float:
        return round(self._position, 3)

    def _input_samples(self) -> int:
        from audio import read_wav

        return len(read_wav(self.files.input)) if self.files.input else 0
