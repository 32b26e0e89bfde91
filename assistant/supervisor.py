"""The supervisor: runs the voice process and the brain, watches both, and carries replies.

It coordinates: the voice process is judged by what it reports from inside its own loop
(``VoiceHealth``), the brain by the progress of its turns (``TurnWatch``); what is owed to the
room is kept in the ``ReplyLedger``, and file mode's output in the ``OutputTimeline``. When the
voice process is stuck it is killed and a new one started, and every sentence it had not finished
saying is sent again, in order, once. When a turn of the brain is stuck it is abandoned with a
short apology and a new brain answers the next question. When neither can be helped, the
supervisor stops pinging systemd's watchdog and exits, so systemd restarts the service.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from assistant.arbitration import Arbiter
from assistant.brain import Brain
from assistant.brain_worker import (
    BrainFailed,
    BrainWorker,
    CardVoice,
    KnownNames,
    Progress,
    ReplyEnd,
    SpeakText,
)
from assistant.event_log import EventLog
from assistant.home_link import Announcement, HomeLink
from assistant.output_timeline import OutputTimeline, Sound
from assistant.reply import (
    AwaitAnswer,
    Defer,
    HeardUtterance,
    Note,
    RoutineAsk,
    RoutineResult,
    VolumeSet,
)
from assistant.reply_ledger import ReplyLedger
from assistant.schedule_keeper import (
    Action,
    Announce,
    RingItem,
    RunRoutine,
    ScheduleKeeper,
    SilenceItem,
    WriteEvent,
)
from assistant.systemd_notify import SystemdNotifier
from assistant.turn_watch import Stall, TurnWatch
from assistant.voice_health import VoiceHealth
from assistant.voice_runner import VoiceRunner
from audio import (
    Command,
    Failed,
    Heard,
    Heartbeat,
    Held,
    HoldAt,
    InputEnded,
    Played,
    Ready,
    Record,
    Report,
    Ring,
    RingEnd,
    RingStopped,
    SetHotwords,
    SetOutput,
    Shutdown,
    Spoken,
    StandDown,
    State,
    StopRing,
    TakeBack,
    TimelineSink,
    Via,
    VoiceIO,
    WentOn,
    trace,
)
from config import Settings
from support import FailpointError

log = logging.getLogger(__name__)

DRAIN_SECONDS = 8.0
"""After SIGTERM: time for the sentence being spoken to finish before the process is killed."""
BRAIN_STOP_SECONDS = 2.0
"""After SIGTERM: time for the brain to end its turn and close the memory. A turn still waiting on
the model is left behind; its memory writes are transactions, so none is left half-done."""
BRAIN_START_SECONDS = 60.0
"""The first brain (memory, model client, card) must be built within this."""
WATCHDOG_PING_SECONDS = 1.0
POLL_SECONDS = 0.25
"""Longest sleep of the loop when neither the voice process nor the brain has anything: both
wake it when they do, and the watchdog's limits are whole seconds."""
TURN_ABANDONED = "Sorry, I got stuck on that one. Please ask me again."

EXIT_OK = 0
EXIT_FAILED = 1

STATUS_TEXT = {
    State.STANDBY: "Standby: waiting for the wake word",
    State.LISTENING: "Listening",
    State.THINKING: "Thinking",
    State.SPEAKING: "Speaking",
    State.FOLLOW_UP: "Follow-up: listening without the wake word",
    State.RINGING: "Ringing",
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


class Supervisor:
    """Runs Hearth: the voice process under a watchdog, and the brain answering it."""

    def __init__(
        self,
        settings: Settings,
        make_brain: Callable[[], Brain],
        files: RunFiles,
        notifier: SystemdNotifier | None = None,
        on_event: Callable[[dict[str, Any]], None] | None = None,
        arbiter: Arbiter | None = None,
        home: HomeLink | None = None,
        schedule: Callable[[], ScheduleKeeper] | None = None,
    ):
        self.settings = settings
        self.files = files
        self.notifier = notifier or SystemdNotifier()
        self._home = home
        """The kept volume and microphone, and Home Assistant's device; None: neither."""
        self._on_event = on_event
        self.events = EventLog(files.events, self._event_written)
        self._make_brain = make_brain
        self._worker: BrainWorker | None = None
        self._abandoned: list[BrainWorker] = []
        """Workers given up on, stuck in a turn: counted while their threads live."""
        self._turns = TurnWatch(settings.brain_watch.stall_seconds)
        self._ledger = ReplyLedger()
        self._clock_line = OutputTimeline()
        self._voice: VoiceRunner | None = None
        self._generation = 0
        self._restarts: deque[float] = deque()
        self._consecutive_failures = 0
        self._health = VoiceHealth(settings.voice_process, files.live, time.monotonic())
        self._ever_ready = False
        self._last_ping = 0.0
        self._status = ""
        self._hotwords: tuple[str, ...] = ()
        self._stop_requested = False
        self._draining_since: float | None = None
        self._timeline: TimelineSink | None = None
        self._room_timeline: TimelineSink | None = None
        self._room_lines_said = 0
        self._input_ended = False
        self._result: int | None = None
        self._arbiter = arbiter
        """The household's arbitration: told what this Hearth heard, and each wake word."""
        self._deferred: set[int] = set()
        """Replies another Hearth gives: ended with StandDown, not a follow-up window."""
        self._make_keeper = schedule
        self._keeper: ScheduleKeeper | None = None
        self._hold: float | None = None
        """File mode: the hold last sent to the voice process."""
        self._card_voice = CardVoice(None, None)
        self._delivering: dict[int, int] = {}
        """Sentence (Speak job) -> the schedule item it delivers, finished once it is said."""
        self._routines: dict[int, RoutineAsk] = {}
        """Reply -> the routine it runs."""

    # -- the loop --------------------------------------------------------------------------------

    def run(self) -> int:
        """Run until the input ends (file mode), SIGTERM, or an unrecoverable failure."""
        self._install_signal_handlers()
        try:
            self._worker = BrainWorker(self._make_brain)
        except FailpointError as error:
            log.error("cannot start the brain: %s", error)
            return EXIT_FAILED
        if not self._worker.wait_ready(BRAIN_START_SECONDS) or self._worker.error is not None:
            log.error("cannot start the brain: %s", self._worker.error)
            return EXIT_FAILED
        if self.files.output is not None:
            self._timeline = TimelineSink(self.files.output, self._input_samples())
        if self.files.room_output is not None:
            self._room_timeline = TimelineSink(self.files.room_output)
        if self._home is not None:
            self._home.start()
        if self._make_keeper is not None:
            self._keeper = self._make_keeper()
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
        for report in self._receive(self._sleep_seconds()):
            self._on_report(report)
        self._forward_brain_output()
        self._take_home_orders()
        self._run_schedule()
        if self._result is not None:
            return
        if self._input_ended:
            # The recording is over and the voice process leaves on its own.
            if self._ledger.idle:
                self._result = EXIT_OK
            return
        if self._draining_since is not None:
            self._check_drain()
            return
        self._watch()

    def _receive(self, timeout: float) -> Iterator[Report]:
        """The voice process's reports, once there are some, the brain has output, or time is up.

        Taken one by one: when one makes the supervisor restart the voice process, the rest are
        the old process's, taken (and counted) as it is stopped."""
        voice, worker = self._voice, self._worker
        assert voice is not None and worker is not None
        # Wake for either side: the brain's first sentence must not wait out the timeout.
        with contextlib.suppress(OSError):
            multiprocessing.connection.wait([voice, worker], timeout)
        return voice.take()

    # -- reports from the voice process ----------------------------------------------------------

    def _on_report(self, report: Report) -> None:
        match report:
            case Ready():
                self._on_ready()
            case Heartbeat():
                self._on_heartbeat(report)
            case Record(fields=fields):
                self.events.write(fields)
            case Heard():
                self._on_heard(report)
            case WentOn(t=t, wake=wake):
                self._on_went_on(t, wake)
            case Spoken(job=job):
                self._ledger.spoken(job)
                self._delivered(job)
            case Held(t=t):
                self._advance(t)
                self._run_schedule(held_at=t)
            case RingStopped(items=items, t=t, by=by):
                self._rings_stopped(items, t, by)
            case Played(at_sample=at, samples=samples, by="room"):
                self._room_lines_said += 1
                if self._room_timeline is not None:
                    self._room_timeline.play(samples, at)
            case Played(at_sample=at, samples=samples):
                if self._timeline is not None:
                    self._write_sounds(self._clock_line.played(Sound(at, samples)))
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
        self._set_status(STATUS_TEXT[State.STANDBY])

    def _on_heartbeat(self, beat: Heartbeat) -> None:
        self._health.on_heartbeat(beat, time.monotonic())
        self._advance(beat.t)
        if self._arbiter is not None:
            self._arbiter.heard(beat.t, beat.state)
        if self._draining_since is None:
            self._set_status(STATUS_TEXT[beat.state])

    def _on_heard(self, heard: Heard) -> None:
        assert self._worker is not None
        utterance = HeardUtterance(
            heard.text, heard.via, heard.t, dict(heard.answer_scores), heard.wake, heard.spelled
        )
        if self._arbiter is not None and heard.wake is not None:
            self._arbiter.claim(utterance)  # before anything heard after it is told
        reply = self._ledger.open(utterance)
        self._trace(heard.t, "heard", reply=reply)
        self._advance(heard.t)  # what was heard is never heard again after a restart
        self._turns.asked(reply, time.monotonic())
        self._worker.ask(reply, utterance)

    def _on_went_on(self, t: float, wake: bool) -> None:
        """The last request's speaker went on, or the wake word was said again, before its reply
        began: if its turn has said and done nothing, it is taken back, and the voice process
        hears the request again whole, or a new one in its place."""
        assert self._worker is not None
        reply = self._ledger.newest()
        taken = reply is not None and self._worker.withdraw(reply)
        if reply is not None and taken:
            self._ledger.withdraw(reply)
            self._turns.ended(reply, time.monotonic())
            self._send(TakeBack())
        self.events.write({"t": t, "event": "went_on", "taken_back": taken, "wake": wake})

    def _on_failed(self, reason: str, retry: bool) -> None:
        if retry:
            self._restart(reason)
            return
        log.error("the voice process cannot run: %s", reason)
        self.events.write({"t": self._clock(), "event": "error", "what": "voice process",
                           "message": reason})  # fmt: skip
        self._result = EXIT_FAILED

    # -- the brain's output ----------------------------------------------------------------------

    def _forward_brain_output(self) -> None:
        assert self._worker is not None
        parts = list(self._worker.take())
        if parts:
            # A request may have set an item (committed before its first part): file mode holds
            # the voice loop at its time before the reply's first sentence lets the clock run.
            self._send_hold()
        for reply, part in parts:
            now = time.monotonic()
            self._turns.progressed(now)
            heard = self._ledger.heard(reply)
            match part:
                case KnownNames(words=words):
                    if words != self._hotwords:
                        self._hotwords = words
                        self._send(SetHotwords(words))
                case Progress():
                    pass  # the model is streaming: the turn is alive
                case BrainFailed(message=message):
                    self._give_up(f"the brain cannot be built: {message}")
                    return
                case SpeakText(text=text, voice=voice, speed=speed) if heard is not None:
                    speak = self._ledger.say(reply, text, voice, speed)
                    if speak is not None:
                        self._trace(heard.t, "speak_sent", reply=reply, job=speak.job)
                        self._send(speak)
                case Note(event=event, fields=fields) if heard is not None:
                    self.events.write({"t": heard.t, "event": event, **fields})
                case AwaitAnswer() if heard is not None:
                    self._ledger.await_answer(reply, part)
                case Defer() if heard is not None:
                    self._deferred.add(reply)
                case VolumeSet(level=level):
                    self._send(self._home.volume_changed(level) if self._home else SetOutput(level))
                case CardVoice():
                    self._card_voice = part
                case RoutineResult() if heard is not None and self._keeper is not None:
                    self._routines.pop(reply, None)
                    self._carry_out(self._keeper.routine(part, self._clock()))
                case ReplyEnd() if heard is not None:
                    self._end_reply(reply, heard, now)
                    self._schedule_changed()
        if parts:
            # A routine's result releases the hold kept while it ran (or moves it to its retry).
            self._send_hold()

    def _end_reply(self, reply: int, heard: HeardUtterance, now: float) -> None:
        said = self._ledger.said(reply)
        finish = self._ledger.end(reply)
        self._turns.ended(reply, now)
        if finish is not None and reply in self._deferred:
            self._deferred.discard(reply)
            self._send(StandDown(reply))
        elif finish is not None:
            if heard.via is not Via.SCHEDULE:
                self.events.write({"t": heard.t, "event": "reply", "text": said})
            elif said:
                self.events.write({"t": heard.t, "event": "announcement", "text": said})
            self._send(finish)

    def _send(self, command: Command) -> None:
        if self._voice is not None:
            self._voice.send(command)

    # -- watching ------------------------------------------------------------------------------

    def _watch(self) -> None:
        now = time.monotonic()
        problem = self._problem()
        if problem is not None:
            self._restart(problem)
            return
        stall = self._turns.problem(now)
        if stall is not None:
            self._recover_brain(stall)
            if self._result is not None:
                return  # the brain cannot be helped: no more pings, systemd restarts us
        if self._health.ready and now - self._last_ping >= WATCHDOG_PING_SECONDS:
            # Pinged only from here: after the checks above found the voice loop healthy and
            # the brain making progress (or being rebuilt).
            self.notifier.watchdog()
            self._last_ping = now

    def _problem(self) -> str | None:
        """Why the voice process must be restarted, or None when it is healthy."""
        assert self._voice is not None
        if not self._voice.alive:
            return self._why_it_left()
        return self._health.problem(time.monotonic())

    def _why_it_left(self) -> str | None:
        """A voice process that is gone: what it reported before leaving still counts, and may say
        why it left (the recording ended: no problem at all)."""
        assert self._voice is not None
        said_why = None
        for report in self._voice.leftovers():
            match report:
                case Failed(reason=reason, retry=True):
                    said_why = reason
                case _:
                    self._on_report(report)
        if self._input_ended or self._result is not None:
            return None
        return said_why if said_why is not None else self._voice.why_it_left()

    def _restart(self, reason: str) -> None:
        limits = self.settings.voice_process
        now = time.monotonic()
        self._stop_voice()
        self._write_sounds(self._clock_line.cut())
        dropped = self._ledger.voice_died(self._health.synthesizing())
        if dropped is not None:
            log.warning("not saying %r again: the voice process died twice making it", dropped.text)
            self.events.write({"t": self._clock(), "event": "speech_dropped", "job": dropped.job,
                               "text": dropped.text, "note": dropped.note.text})  # fmt: skip
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
        self._start_voice(start_sample=self._clock_line.position_sample)
        # Whatever was not said yet is said now, in order, once; then the replies' ends.
        for command in self._ledger.resend():
            self._send(command)

    # -- the brain -------------------------------------------------------------------------------

    def _recover_brain(self, stall: Stall) -> None:
        """A turn is stuck: it ends with an apology, and a new brain takes the questions after
        it. Too many stuck at once, and the service gives up."""
        assert self._worker is not None
        now = time.monotonic()
        heard = self._ledger.heard(stall.reply)
        log.warning("abandoning the brain's turn for reply %d: %s", stall.reply, stall.reason)
        self._abandon_worker()
        said = " ".join(filter(None, [self._ledger.said(stall.reply), TURN_ABANDONED]))
        for command in self._ledger.abandon(stall.reply, TURN_ABANDONED):
            self._send(command)
        self._turns.ended(stall.reply, now)
        if heard is not None:
            self.events.write({"t": heard.t, "event": "reply", "text": said})
        stuck = sum(worker.alive for worker in self._abandoned)
        if stuck > self.settings.brain_watch.max_stuck_turns:
            self._give_up(f"{stuck} turns are stuck (last: {stall.reason})")
            return
        generation = self._worker.generation + 1
        self.events.write({"t": self._clock(), "event": "brain_restart", "reason": stall.reason,
                           "generation": generation})  # fmt: skip
        self._worker = BrainWorker(self._make_brain, generation)
        self._turns.restarted(now)
        for reply, utterance in self._ledger.unanswered():
            routine = self._routines.get(reply)
            if routine is not None:
                self._worker.run_routine(reply, routine)
            else:
                self._worker.ask(reply, utterance)

    def _abandon_worker(self) -> None:
        """Close the worker without waiting for it: its thread is stuck in a turn."""
        assert self._worker is not None
        self._worker.close(timeout=0)
        self._abandoned.append(self._worker)

    def _give_up(self, reason: str) -> None:
        """The brain cannot be helped: stop pinging the watchdog and leave with a failure."""
        log.error("the brain cannot recover: %s; giving up so systemd can restart the service",
                  reason)  # fmt: skip
        self.events.write({"t": self._clock(), "event": "error", "what": "brain",
                           "message": reason})  # fmt: skip
        self._set_status(f"Failed: {reason}")
        self._result = EXIT_FAILED

    # -- the household (Home Assistant) -------------------------------------------------------

    def _take_home_orders(self) -> None:
        """Carry out what Home Assistant asked since the last step."""
        if self._home is None:
            return
        for order in self._home.take(self._clock()):
            match order:
                case Announcement():
                    self._announce_from_home(order)
                case _:
                    self._send(order)

    def _announce_from_home(self, order: Announcement) -> None:
        """Said by the voice process once nobody is in the middle of a request or a reply; owed
        like a reply's sentence until then."""
        if self._input_ended or self._draining_since is not None:
            log.warning("not announcing %r: Hearth is stopping", order.text[:80])
            return
        speak = self._ledger.announce(order.text, order.voice, order.speed)
        self.events.write({"t": self._clock(), "event": "announcement", "job": speak.job,
                           "text": speak.text})  # fmt: skip
        self._send(speak)

    def _event_written(self, record: dict[str, Any]) -> None:
        if self._home is not None:
            self._home.observe(record)
        if self._on_event is not None:
            self._on_event(record)

    # -- the voice process ---------------------------------------------------------------------

    def _start_voice(self, start_sample: int) -> None:
        # A restarted demo room goes on with the lines it has not said yet.
        script = self.files.script[self._room_lines_said :]
        # A reply begun and not finished is awaited by the new process as by the old one.
        io = VoiceIO(
            str(self.files.input) if self.files.input else None,
            start_sample,
            script,
            owed_replies=self._ledger.owed(),
        )
        self._voice = VoiceRunner(self.settings, io, self._generation)
        self._health = VoiceHealth(self.settings.voice_process, self.files.live, time.monotonic())
        if self._hotwords:
            self._send(SetHotwords(self._hotwords))
        if self._home is not None:
            for command in self._home.voice_setup():
                self._send(command)
        if self._keeper is not None:
            # What rang when the last process died rings on (once: the same ring goes on).
            for item in self._keeper.sounding:
                self._send(Ring(item))
            self._hold = None
            self._send_hold(force=True)

    def _stop_voice(self) -> None:
        """Kill it for real; what it reported before it died (heard, said, played) still
        counts."""
        if self._voice is None:
            return
        for report in self._voice.stop():
            if not isinstance(report, Ready | Failed | InputEnded):
                self._on_report(report)

    # -- the schedule --------------------------------------------------------------------------

    @property
    def _on_audio_clock(self) -> bool:
        """File mode: the schedule runs on the audio clock, holding the voice loop."""
        return not self.files.live

    def _sleep_seconds(self) -> float:
        """Live: the loop sleeps until the next item is due, or its poll for the watchdog."""
        if self._keeper is None or self._on_audio_clock or self._draining_since is not None:
            return POLL_SECONDS
        wait = self._keeper.seconds_until_due(self._clock())
        return POLL_SECONDS if wait is None else min(POLL_SECONDS, wait)

    def _run_schedule(self, held_at: float | None = None) -> None:
        """Decide what is due: live, whenever it is; in file mode, where the voice loop is held
        (then release it to the next moment something may be due)."""
        keeper = self._keeper
        if keeper is None or self._draining_since is not None or self._result is not None:
            return
        if self._on_audio_clock:
            if held_at is None:
                return
            self._carry_out(keeper.wake(held_at), held_at)
            self._send_hold()
            return
        t = self._clock()
        wait = keeper.seconds_until_due(t)
        if wait is not None and wait <= 0:
            self._carry_out(keeper.wake(t), t)

    def _send_hold(self, force: bool = False) -> None:
        """File mode: tell the voice loop where to wait for the schedule next, if that moved."""
        if self._keeper is None or not self._on_audio_clock:
            return
        hold = self._keeper.hold(self._clock_line.position)
        if force or hold != self._hold:
            self._hold = hold
            self._send(HoldAt(hold))

    def _schedule_changed(self) -> None:
        """A turn ended: it may have cancelled a ringing item, or added time to it."""
        if self._keeper is not None:
            self._carry_out(self._keeper.changed(self._clock()))

    def _rings_stopped(self, items: tuple[int, ...], t: float, by: RingEnd) -> None:
        self._advance(t)
        if self._keeper is not None:
            ended = "stop" if by is RingEnd.STOP_WORD else "auto"
            self._carry_out(self._keeper.stopped(items, t, ended), t)

    def _delivered(self, job: int) -> None:
        """A sentence was said: the item it delivered (a reminder, a late timer) is finished."""
        item = self._delivering.pop(job, None)
        if item is not None and self._keeper is not None:
            self._carry_out(self._keeper.said(item, self._clock()))

    def _carry_out(self, actions: list[Action], t: float | None = None) -> None:
        """Do what the schedule decided, at audio second ``t`` (default: where the clock is)."""
        at = self._clock() if t is None else round(t, 3)
        for action in actions:
            match action:
                case RingItem(item=item):
                    self._send(Ring(item))
                case SilenceItem(item=item):
                    self._send(StopRing(item))
                case Announce(text=text, item=item):
                    self._say_for_schedule(text, item, at)
                case RunRoutine(ask=ask):
                    self._run_routine(ask, at)
                case WriteEvent(fields=fields):
                    self.events.write({"t": at, **fields})

    def _say_for_schedule(self, text: str, item: int | None, t: float) -> None:
        """Say ``text`` as a reply to nothing heard, in the card's voice; the voice loop says it
        once nobody is in the middle of a request, and again after a restart if it must."""
        heard = HeardUtterance("", Via.SCHEDULE, t)
        reply = self._ledger.open(heard)
        voice = self._card_voice
        speak = self._ledger.say(reply, text, voice.voice, voice.speed)
        if speak is None:
            return
        if item is not None:
            self._delivering[speak.job] = item
        self._send(speak)
        self._end_reply(reply, heard, time.monotonic())

    def _run_routine(self, ask: RoutineAsk, t: float) -> None:
        """A routine's model call, on the brain worker: its answer is said as a reply."""
        assert self._worker is not None
        heard = HeardUtterance(ask.prompt, Via.SCHEDULE, t)
        reply = self._ledger.open(heard)
        self._routines[reply] = ask
        self._turns.asked(reply, time.monotonic())
        self._worker.run_routine(reply, ask)

    # -- the output timeline (file mode) -------------------------------------------------------

    def _advance(self, t: float) -> None:
        """A voice process reported reaching audio second ``t``."""
        self._write_sounds(self._clock_line.reached(t))

    def _write_sounds(self, sounds: list[Sound]) -> None:
        if self._timeline is not None:
            for sound in sounds:
                self._timeline.play(sound.samples, sound.at_sample)

    # -- stopping ------------------------------------------------------------------------------

    def _install_signal_handlers(self) -> None:
        def request_stop(signum: int, frame: FrameType | None) -> None:
            self._stop_requested = True

        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
        # A terminal that hangs up, or a `kill -HUP` meant as "reload": a clean stop, not a
        # death that leaves the output unwritten and the memory's log open (settings are read
        # at start; the card reloads itself).
        signal.signal(signal.SIGHUP, request_stop)

    def _begin_drain(self) -> None:
        log.info("stopping: finishing the sentence being spoken")
        self.notifier.stopping()
        self._set_status("Stopping")
        self._draining_since = time.monotonic()
        self._send(Shutdown())

    def _check_drain(self) -> None:
        assert self._draining_since is not None
        waited = time.monotonic() - self._draining_since
        if (self._voice is not None and not self._voice.alive) or waited > DRAIN_SECONDS:
            self._result = EXIT_OK

    def _shut_down(self) -> None:
        draining = self._draining_since is not None
        if self._voice is not None and (self._input_ended or draining):
            # It is leaving on its own; let it finish cleanly (after SIGTERM, within the drain).
            waited = time.monotonic() - self._draining_since if self._draining_since else 0.0
            self._voice.join(max(0.0, DRAIN_SECONDS - waited))
        self._stop_voice()
        self._write_sounds(self._clock_line.rest())
        if self._keeper is not None:
            self._keeper.close()
        if self._worker is not None:
            stuck = self._turns.problem(time.monotonic()) is not None
            # A stuck turn is not waited for; a draining one only briefly.
            self._worker.close(0 if stuck else BRAIN_STOP_SECONDS if draining else 10.0)
        for timeline in (self._timeline, self._room_timeline):
            if timeline is not None:
                try:
                    timeline.close()
                except OSError as error:
                    # Its folder removed or its disk full while Hearth ran: said, not a
                    # traceback that would cut the rest of the shutting down short.
                    log.error("cannot write the recording %s: %s", timeline.path,
                              error.strerror or error)  # fmt: skip
                    self._result = EXIT_FAILED
        if self._home is not None:
            self._home.close()
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
        return round(self._clock_line.position, 3)

    def _input_samples(self) -> int:
        """The input's length, from its header: `hearth run` has read the file through already
        (a float file a second time would cost a pass over hours of audio at start-up)."""
        from audio.wav import WavReader

        if not self.files.input:
            return 0
        with WavReader(self.files.input) as reader:
            return reader.total_samples
