"""The voice loop: frames in, wake word, end of speech, transcripts and speech out, on one clock.

``VoiceEngine.run`` reads 32 ms frames from an audio source and drives the pure cores (segmenter,
listener, playback) with the models' verdicts. What a request is heard with is the ear's
(``audio.ear``), the stop check over a reply the stop watch's (``audio.stop_watch``), both on the
hearing worker (``audio.hearing_worker``); the engine decides when. It reports to, and takes
commands from, a ``Channel``: the supervisor in another process, or a small responder for
``hearth listen``. Time is the audio clock (samples consumed); in file mode the loop waits for a
reply without consuming input, so thinking takes no audio time and a recording runs the same way
every time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from multiprocessing import connection
from typing import Protocol

import numpy as np

from audio import stop_check, trace
from audio.devices import AudioDeviceError
from audio.ear import Ear, HearingCues, Judging, Speculation, Transcription, TranscriptionRequest
from audio.earcons import Earcon, earcon
from audio.echo import TAIL_SECONDS as ECHO_TAIL_SECONDS
from audio.echo import EchoCanceller
from audio.end_of_turn import (
    EarReading,
    ear_in_time,
    judge_pause,
    weighs_by_ear,
)
from audio.format import VAD_FRAME_SAMPLES, samples_to_seconds, seconds_to_samples
from audio.hearing_worker import HearingWorker
from audio.io import AudioSource, LiveSource
from audio.listener import (
    ConversationEnded,
    Deferred,
    HintGiven,
    Listener,
    ListenerOutput,
    ReplyAbandoned,
    ReplyFinished,
    ReplyStarted,
    RequestReopened,
    RingOver,
    RingStarted,
    State,
    StopRequested,
    StopRinging,
    StopSpeaking,
    TakenBack,
    Tick,
    Transcript,
    UtteranceHeard,
    Via,
    WakeAccepted,
    WakeDetected,
    WakeRefused,
    WentOnAsked,
)
from audio.loudness import OutputLevel
from audio.messages import (
    Command,
    FinishReply,
    Heard,
    Heartbeat,
    Held,
    HoldAt,
    InputEnded,
    Job,
    JobKind,
    Ready,
    Record,
    Report,
    Ring,
    RingEnd,
    RingStopped,
    SetHotwords,
    SetMicrophone,
    SetOutput,
    Shutdown,
    Speak,
    Spoken,
    StandDown,
    StopRing,
    StopSaying,
    TakeBack,
    WentOn,
)
from audio.models import VoiceModels
from audio.mouth import SpeakerMouth, TimelineMouth
from audio.pace import SynthesisPace
from audio.phrase import wake_name
from audio.playback import (
    Abandon,
    Began,
    CutOff,
    Dropped,
    MouthFree,
    NotMade,
    PieceMade,
    Play,
    Playback,
    PlaybackOutput,
    PlayRing,
    ReplyDone,
    ReplyEnding,
    RingBegan,
    RingCleared,
    RingEnded,
    RingQueued,
    Said,
    SentenceQueued,
    Silence,
    Stop,
    Synthesize,
)
from audio.recent import RecentAudio
from audio.remote import RemoteSpeechChunk, local_hearing
from audio.request_span import RequestSpan
from audio.ring_ducking import RingDucker
from audio.segmenter import (
    EndReason,
    Phase,
    Segmenter,
    SegmenterEvent,
    SpeechEnded,
    SpeechPaused,
    SpeechResumed,
    SpeechStarted,
)
from audio.silences import shortened
from audio.speakable import speakable
from audio.speech_worker import Made, SpeechWorker
from audio.stop_watch import StopWatch
from audio.stt import EndReadings
from audio.tts import SpeechParameters
from audio.wake_check import WakeVerifier
from audio.wake_measure import FLOOR_SECONDS, WakeMeasure, level_db, noise_floor_db
from audio.wakeup import Wakeup
from audio.wakeword import WakeDetection
from config import Settings
from support import Failpoint, Failpoints

log = logging.getLogger(__name__)

FRAME_SECONDS = samples_to_seconds(VAD_FRAME_SAMPLES)
HISTORY_MARGIN_SECONDS = 5.0
"""Audio kept beyond the longest utterance, for the wake window and the pre-roll."""
DEVICE_RETRY_SECONDS = 0.5
STANDBY_SPEECH_FLOOR = 100.0
"""RMS (of int16 samples, about -50 dBFS) under which a standby frame holds no speech to hint at;
speech at a normal distance is 30 times louder, and a quiet request is still heard once awake."""
WAKE_CONTINUATION_SECONDS = 0.6
"""A request starting this soon after the wake word (its pre-roll, for one long enough to stand
alone) is heard together with it: one said straight on, whose pre-roll would begin inside the
wake phrase. One said after a pause is heard alone, as a person said it: heard with the wake
phrase, Whisper lost or changed its first word ("Drops the two", "They thin striped" for "A thin
stripe"). bench.hearing --full, real speakers after "Hey Jarvis." and 1.2 s: across rooms 6.0%
at 1.0 s, 4.0% at 0.6 s (raw faster-whisper 5.6%); under noise 2.6% and 1.6% (raw 0%)."""
HINT_VOLUME = 0.6
"""The "say the wake word first" hint is said quietly."""
END_OF_LISTENING_GRACE_SECONDS = 0.15
"""How long after a request is taken the end-of-listening earcon waits for the reply to begin: a
reply that begins by then is the acknowledgement itself, and its first word does not wait behind
the earcon's 0.27 s (it did, live: the first word came 0.35 s after the decision where its audio
was ready after 0.08 s). A slower reply gets the earcon at this delay."""
RING_MARGIN_SECONDS = 60.0
"""Beyond the schedule's auto-stop, before a ring stops by itself in the voice process (a backstop:
the supervisor ends it)."""


class Channel(Protocol):
    """Where reports go and commands come from."""

    def send(self, report: Report) -> None:
        """Deliver a report."""
        ...

    def receive(self, timeout: float) -> Command | None:
        """The next command, waiting up to ``timeout`` seconds (0: only look)."""
        ...

    def fileno(self) -> int | None:
        """A descriptor readable when a command is waiting, or None if commands never wait."""
        ...


Mouth = TimelineMouth | SpeakerMouth


class VoiceEngine:
    """Hears the room and speaks to it; one instance per voice process."""

    def __init__(
        self,
        settings: Settings,
        models: VoiceModels,
        open_source: Callable[[], AudioSource],
        mouth: Mouth,
        channel: Channel,
        failpoints: Failpoints | None = None,
        start_sample: int = 0,
        owed_replies: Iterable[int] = (),
    ):
        self._settings = settings
        self._models = models
        self._open_source = open_source
        self._source: AudioSource | None = None
        self._mouth = mouth
        self._channel = channel
        self._failpoints = failpoints or Failpoints()
        self._clock = start_sample
        self._owed = set(owed_replies)
        """Replies begun before a restart and not yet finished: waited for like any reply."""
        self._frames = 0
        history = settings.vad.max_utterance_seconds + HISTORY_MARGIN_SECONDS
        self._recent = RecentAudio(seconds_to_samples(history))
        self._recent.skip_to(start_sample)
        self._segmenter = Segmenter(settings.vad)
        if start_sample:
            # A resumed input: the segmenter's clock starts where the audio clock stands.
            self._segmenter.process(samples_to_seconds(start_sample), None)
        self._listener = Listener(
            settings.listener,
            settings.vad,
            models.wake.phrases,
            ring_seconds=settings.schedule.auto_stop_seconds + RING_MARGIN_SECONDS,
        )
        # The wake check's margins were measured on the local model's greedy decode.
        self._verifier = WakeVerifier(settings.wake, local_hearing(models.stt))
        self._pre_roll = seconds_to_samples(settings.wake.pre_roll_seconds)
        self._reply_wait = settings.listener.reply_wait_seconds
        self._wakeup = Wakeup()
        """Signalled by the loop's own helpers (the speech worker, the speaker, the hearing
        worker) when done."""
        self._worker = HearingWorker(self._wakeup, self._transcribing)
        self._cues = HearingCues(
            [wake_name(phrase) for phrase in models.wake.phrases],
            settings.stt.hotwords,
            end_silence_seconds=settings.vad.end_silence_seconds,
            pre_roll_samples=self._pre_roll,
        )
        self._ear = Ear(models.stt, self._listener.request_words, self._failpoints)
        # Barge-in keeps the microphone open while Hearth speaks: its own voice comes back. A ring
        # keeps it open too (a stop word ends it), so the ring is taken out the same way.
        self._echo = EchoCanceller() if settings.audio.echo_cancellation else None
        self._cancel_speech = settings.listener.barge_in
        """Cancel the echo of speech as well as of the ring."""
        self._stop_watch: StopWatch | None = None
        """With barge-in, the stop check over the reply (``audio.stop_watch``)."""
        checking = stop_check.checks(settings.listener.stop_words)
        if self._echo is not None and self._cancel_speech and checking:
            hearing = stop_check.LinearHearing(
                seconds_to_samples(history), seconds_to_samples(ECHO_TAIL_SECONDS), start_sample
            )
            self._stop_watch = StopWatch(
                hearing, models.stt, self._worker, self._cues.names, self._record
            )
        self._ring = RingDucker(earcon(Earcon.RING))
        self._ring_echo_until = 0
        """Audio-clock sample until which the ring's echo is cancelled (the last period's end and
        the room's tail)."""
        self._hold: int | None = None
        """File mode: the audio-clock sample the supervisor's schedule holds the loop at."""
        self._held_at: int | None = None
        self._base_params = SpeechParameters.from_settings(settings.tts)
        self._pending_wakes: list[WakeDetection] = []
        self._wake: WakeDetection | None = None
        self._wake_measure: WakeMeasure | None = None
        """How well the accepted wake word was heard, for the household's arbitration."""
        self._held_end: SpeechEnded | None = None
        self._speculation: Speculation | None = None
        self._span = RequestSpan()
        self._playback = Playback(self._base_params)
        self._speech = SpeechWorker(models.tts, self._failpoints, self._wakeup)
        mouth.wake_when_done(self._wakeup.signal)
        self._first_pieces: dict[int, int] = {}
        self._speech_deadlines: dict[int, tuple[float | None, int]] = {}
        """Per synthesis token: the deadline of each of its pieces, and the sentence's job."""
        """Requests (by token) whose first piece is still to come, and their jobs (for tracing)."""
        self._announcing = False
        """Speech outside a conversation (a hint, speech re-sent after a restart) is playing."""
        self._settled_at = 0
        """Audio-clock sample from which the microphone hears again after such speech."""
        self._jobs: dict[str, Job] = {}
        self._pace = SynthesisPace()
        warm_up = models.tts.warm_up(self._base_params.voice)
        if warm_up is not None:  # a first pace, so even the first sentence has a deadline to fit
            self._pace.observe(self._base_params.voice, *warm_up)
        self._last_transcription = Transcription("", {})
        self._output = OutputLevel()
        """How loud every sound is played (the supervisor sends the kept level at start)."""
        self._microphone_muted = False
        self._waiting_speech: list[Speak] = []
        """Speech waiting for its moment: announcements (a quiet room) and the notices of a
        speech service that stopped answering (a quiet room, or the reply under way)."""
        self._speaker_failure = ""
        self._microphone_lost = False
        self._stopping = False
        self._input_ended = False
        self._last_heartbeat = 0.0
        self._end_earcon_at: int | None = None
        """Audio-clock sample at which the end-of-listening earcon sounds unless the reply began."""

    # -- the loop --------------------------------------------------------------------------------

    def run(self) -> None:
        """Listen and speak until the input ends or a Shutdown has been carried out."""
        self._send(Ready(live=self._mouth.live))
        try:
            while not self._done():
                self._take_commands(timeout=0.0)
                self._speak_step()
                if self._at_hold():
                    self._take_commands(timeout=self._settings.voice_process.heartbeat_seconds)
                    self._heartbeat(waiting=True)
                    continue
                if self._waiting_for_reply():
                    self._take_commands(timeout=self._settings.voice_process.heartbeat_seconds)
                    self._heartbeat(waiting=True)
                    continue
                frame = self._read()
                if frame is None:
                    self._wait_for_work()
                    self._judge_pause()
                    # A microphone reopened after a loss may take a moment to deliver: frames
                    # stand still on purpose until it does (it gives up after its stall time).
                    self._heartbeat(waiting=self._microphone_lost)
                    continue
                self._hear(frame)
                self._speak_step()
                self._heartbeat()
        finally:
            self._worker.close()
            self._speech.close()
        if self._input_ended:
            self._send(InputEnded(self.t))

    @property
    def quiet(self) -> bool:
        """Nothing is being said and Hearth is listening for someone to talk (standby or window)."""
        return (
            self._listener.state in (State.STANDBY, State.FOLLOW_UP)
            and self._playback.idle
            and not self._mouth.busy(self._clock)
        )

    @property
    def t(self) -> float:
        """The audio clock in seconds."""
        return samples_to_seconds(self._clock)

    def _done(self) -> bool:
        # A ring does not hold the end of a recording open: the schedule rings it again next run.
        ringing = bool(self._playback.ringing)
        speaking = not self._playback.idle or self._mouth.busy(self._clock)
        busy = (not ringing and speaking) or bool(self._waiting_speech)
        if self._stopping:
            return not busy
        return (
            self._input_ended
            and not busy
            and not self._expecting_reply()
            and not self._hearing_unfinished()
        )

    def _expecting_reply(self) -> bool:
        return (
            self._listener.state in (State.THINKING, State.SPEAKING)
            or self._playback.finishing
            or bool(self._owed)
        )

    def _hearing_unfinished(self) -> bool:
        """Whether what was heard still needs audio time to be settled: a wake detection not yet
        verified, an utterance not yet ended, a wait for a request not yet over. At the end of a
        recording these run on in silence, as they would in a room that fell quiet."""
        return (
            bool(self._pending_wakes)
            or self._held_end is not None
            or self._segmenter.phase is not Phase.WAITING
            or self._segmenter.armed
        )

    def _at_hold(self) -> bool:
        """File mode: the clock reached the schedule's hold; it waits for the supervisor there
        (reported once, with the clock reading the schedule decides on)."""
        if self._mouth.live or self._hold is None or self._clock < self._hold or self._stopping:
            return False
        if self._held_at != self._hold:
            self._held_at = self._hold
            self._send(Held(self.t))
        return True

    def _room_quiet(self) -> bool:
        """Whether a ring may begin now: nobody is in the middle of a request (a wake being
        checked, an utterance in the follow-up window) and no reply is owed."""
        state = self._listener.state
        if self._owed or self._pending_wakes or self._held_end is not None:
            return False
        if state is State.FOLLOW_UP:
            return self._segmenter.phase is Phase.WAITING
        return state is State.STANDBY

    def _waiting_for_reply(self) -> bool:
        """File mode: nothing to say yet while a reply is owed; thinking takes no audio time."""
        return (
            not self._mouth.live
            and not self._stopping
            and self._expecting_reply()
            and self._playback.idle
            and not self._playback.finishing
        )

    def close(self) -> None:
        """Release the input and the output."""
        if self._source is not None:
            self._source.close()
        self._mouth.close()
        self._wakeup.close()

    def _read(self) -> np.ndarray | None:
        """The next frame of the room; None while a live microphone has recorded nothing new."""
        if self._playback.saying is not None:
            # A read that hangs while Hearth speaks: the moment a stuck device costs the most.
            self._failpoints.hang_if(Failpoint.AUDIO_READ_HANG)
        if self._failpoints.hit(Failpoint.DEVICE_STALL):
            self._stall()
        frame = None if self._input_ended else self._read_source()
        if frame is None and not self._input_ended:
            return None
        if frame is None:
            # The recording is over, but a reply or what was heard may be unfinished: time goes
            # on in silence.
            frame = np.zeros(VAD_FRAME_SAMPLES, dtype=np.int16)
        elif len(frame) < VAD_FRAME_SAMPLES:
            frame = np.pad(frame, (0, VAD_FRAME_SAMPLES - len(frame)))
        self._frames += 1
        return frame

    def _read_source(self) -> np.ndarray | None:
        """The next frame: from a live source only if recorded already (None if not yet), from a
        recording at once (None at its end, which ends the input). A failing device is closed and
        reopened until it comes back.

        While it is gone, commands are still taken (a Shutdown ends the wait with silence, so
        the loop can leave), and heartbeats say that frames stand still on purpose.
        """
        while True:
            if self._stopping and self._source is None:
                return np.zeros(VAD_FRAME_SAMPLES, dtype=np.int16)  # leaving: no device needed
            try:
                if self._source is None:
                    self._source = self._open_source()
                source = self._source
                if isinstance(source, LiveSource):
                    frame = source.poll(VAD_FRAME_SAMPLES)
                else:
                    frame = source.read(VAD_FRAME_SAMPLES)
                    self._input_ended = frame is None
                if self._microphone_lost and frame is not None:
                    self._microphone_lost = False
                    log.info("the microphone is back")
                    self._record("device_back")  # once audio flows, not at each opening
                return frame
            except AudioDeviceError as error:
                if self._source is not None:
                    self._source.close()
                    self._source = None
                if not self._microphone_lost:
                    log.error("%s; waiting for it to come back", error)
                    self._record("error", what="microphone", message=str(error))
                    self._microphone_lost = True
                # Alive but waiting: heartbeats say frames stand still on purpose.
                self._heartbeat(waiting=True)
                self._take_commands(timeout=DEVICE_RETRY_SECONDS)
                if not self._stopping:
                    self._heartbeat(waiting=True, force=True)

    def _wait_for_work(self) -> None:
        """Live, with no new audio yet: sleep until a frame, a command or a helper's result comes
        (so a reply is taken the moment it is sent, not a microphone block later), or until the
        next heartbeat is due."""
        due = self._last_heartbeat + self._settings.voice_process.heartbeat_seconds
        waiters: list[object] = [self._wakeup]
        if isinstance(self._source, LiveSource):
            waiters.append(self._source)
        channel = self._channel.fileno()
        if channel is not None:
            waiters.append(channel)
        connection.wait(waiters, max(0.0, due - time.monotonic()))  # type: ignore[arg-type]
        self._wakeup.clear()  # before looking for the work: a later signal wakes the next wait

    def _stall(self) -> None:
        """A device that stopped delivering: the loop lives (heartbeats) but frames stand still."""
        while True:
            self._heartbeat()
            time.sleep(0.05)

    def _begin_job(
        self, kind: JobKind, deadline: float | None = None, speak_job: int | None = None
    ) -> None:
        """A long job starts (a transcription on the loop's thread, a synthesis on the speech
        worker's): tell the supervisor now, and it holds the job to a deadline of its own, since
        heartbeats cannot show that a job is hung (they pause during one on the loop's thread)."""
        self._jobs[kind] = Job(kind, time.monotonic(), deadline, speak_job)
        self._heartbeat(force=True)

    def _end_job(self, kind: JobKind) -> None:
        """The job is over: say so at once, or its deadline would run on in the supervisor."""
        if self._jobs.pop(kind, None) is not None:
            self._heartbeat(force=True)
        self._take_notices()

    def _heartbeat(self, waiting: bool = False, force: bool = False) -> None:
        now = time.monotonic()
        if (
            not force
            and now - self._last_heartbeat < self._settings.voice_process.heartbeat_seconds
        ):
            return
        self._last_heartbeat = now
        speaking = self._speaking_job()
        jobs = (*self._jobs.values(), speaking) if speaking else tuple(self._jobs.values())
        self._send(Heartbeat(self._frames, self.t, self._listener.state, jobs, waiting))

    def _send(self, report: Report) -> None:
        self._channel.send(report)

    def _record(self, event: str, **fields: object) -> None:
        self._send(Record({"t": round(self.t, 3), "event": event, **fields}))

    def _trace(self, mark: str, **fields: object) -> None:
        """A wall-clock mark (audio/trace.py); nothing unless tracing."""
        if trace.ENABLED:
            self._record("trace", mark=mark, at=time.monotonic(), **fields)

    # -- commands --------------------------------------------------------------------------------

    def _take_commands(self, timeout: float) -> None:
        command = self._channel.receive(timeout)
        while command is not None:
            self._apply(command)
            command = self._channel.receive(0.0)

    def _apply(self, command: Command) -> None:
        match command:
            case Speak(announcement=True):
                self._waiting_speech.append(command)
            case Speak():
                self._trace("speak_received", job=command.job)
                self._play_outputs(self._playback.handle(SentenceQueued(command)))
            case FinishReply():
                self._owed.discard(command.reply)
                self._play_outputs(self._playback.handle(ReplyEnding(command)))
            case StandDown(reply=reply):
                self._owed.discard(reply)
                self._act(self._listener.handle(Deferred(self.t)))
            case TakeBack():
                self._act(self._listener.handle(TakenBack(self.t)))
            case SetHotwords(words=words):
                self._cues.set_known_names(words)
            case Shutdown():
                self._stopping = True
                self._play_outputs(self._playback.handle(Stop()))
            case SetOutput(level=level):
                self._output = level
            case SetMicrophone(muted=muted):
                self._set_microphone(muted)
            case StopSaying():
                self._stop_saying()
            case Ring(item=item):
                self._play_outputs(self._playback.handle(RingQueued(item)))
            case StopRing(item=item):
                self._play_outputs(self._playback.handle(RingCleared(item, "command")))
            case HoldAt(t=t):
                self._hold = None if t is None else seconds_to_samples(t)

    # -- speaking --------------------------------------------------------------------------------

    def _speak_step(self) -> None:
        """Take what the speech worker made, and give the mouth its next piece once it is free."""
        self._take_made(self._speech.take())
        self._sound_end_of_listening()
        self._release_held()
        if not self._mouth.live:
            # Here, at the top of a step, never from inside the handling of what was made: a
            # nested wait would leave the results already taken (a sentence's end behind its
            # piece) unhandled while it waited for them, forever.
            self._await_speech()
        if self._mouth.busy(self._clock):
            return
        failure = self._mouth.failure
        if failure != self._speaker_failure:
            # Once per outage, like the microphone: sentences said meanwhile go nowhere.
            if failure:
                self._record("error", what="speaker", message=failure)
            else:
                self._record("speaker_back")
            self._speaker_failure = failure
        self._play_outputs(self._playback.handle(MouthFree(quiet=self._room_quiet())))

    def _play_outputs(self, outputs: tuple[PlaybackOutput, ...]) -> None:
        """Carry out what the playback machine says, in order."""
        for output in outputs:
            match output:
                case Synthesize():
                    self._synthesize(output)
                case Began(job=job):
                    in_conversation = self._listener.state in (State.THINKING, State.SPEAKING)
                    if self._listener.state is State.THINKING:
                        self._act(self._listener.handle(ReplyStarted(self.t)))
                        if self._echo is not None:
                            # From here Silero hears the canceller's output over the reply: its
                            # state carried over from the request scored a person's "Stop." 0.24
                            # to 0.57 there, a fresh one 0.61 to 0.75 (the same frames).
                            self._models.vad.reset()
                    # Speech outside a conversation (re-sent after a restart) still closes the
                    # microphone.
                    self._announcing = not in_conversation
                case Play(job=job, chunk=chunk, first=first):
                    if first:
                        self._record("speak_start", job=job.job, text=job.text)
                    # Each piece where it starts on the sample clock: a first clause and the rest
                    # of its sentence are two pieces, and their join can be measured.
                    self._record("speak_piece", job=job.job, text=chunk.text,
                                 at_sample=self._clock, samples=len(chunk.samples))  # fmt: skip
                    if self._stop_watch is not None:
                        self._stop_watch.playing(chunk.text, self._clock, len(chunk.samples))
                    self._mouth.start(self._volume(job, chunk.samples), self._clock)
                case Said(job=job, more=more):
                    self._record("speak_end", job=job.job)
                    self._send(Spoken(job.job))
                    # With the sentence acknowledged, the clock it ended on: a restarted process
                    # resumes from the last heartbeat, never before speech already counted as said.
                    self._heartbeat(force=True)
                    if self._announcing and not more:
                        self._end_announcement()
                case NotMade(message=message):
                    self._record("error", what="speech", message=message)
                    self._play_earcon(Earcon.ERROR)
                case Dropped(job=job) if job.job >= 0:
                    self._send(Spoken(job.job, interrupted=True))
                case Silence():
                    self._mouth.stop(self._clock)
                case Abandon(token=token):
                    self._speech.cancel(token)
                case ReplyDone(finish=finish):
                    self._finish_reply(finish)
                case RingBegan(items=items):
                    self._ring_began(items)
                case PlayRing():
                    self._mouth.start(self._ring.period(self._clock), self._clock)
                    tail = seconds_to_samples(ECHO_TAIL_SECONDS)
                    self._ring_echo_until = self._clock + self._ring.length + tail
                case RingEnded(items=items, by=by, sound_over=over):
                    self._ring_ended(items, by, over)

    def _ring_began(self, items: tuple[int, ...]) -> None:
        self._record("ring_start", items=list(items))
        if self._listener.state is not State.RINGING:
            self._act(self._listener.handle(RingStarted(self.t)))

    def _ring_ended(self, items: tuple[int, ...], by: str, over: bool) -> None:
        """Rings ended: the room hears the change; the supervisor, unless it asked for it."""
        self._record("ring_stop", items=list(items), by=by)
        if by in (RingEnd.STOP_WORD, RingEnd.TIMEOUT):
            self._send(RingStopped(items, self.t, RingEnd(by)))
        if over:
            self._ring.reset()
        if over and self._listener.state is State.RINGING:
            self._act(self._listener.handle(RingOver(self.t)))

    def _synthesize(self, request: Synthesize) -> None:
        """Hand a sentence to the speech worker. While Piper makes a piece of it, that is a
        ``speak`` job with a deadline scaled to the sentence once the voice's pace is known (see
        ``_speaking_job``): the loop beats on meanwhile, so only the job's own deadline can tell
        a hung Piper from a long sentence."""
        job = request.job
        self._trace("synthesis_start", job=job.job)
        self._first_pieces[request.token] = job.job
        deadline = self._pace.deadline(request.params.voice, len(speakable(job.text)))
        if deadline is not None and self._settings.tts.backend == "wyoming":
            # The service may use up its whole allowance before the local voice starts.
            deadline += self._settings.tts.remote_allowance_seconds
        self._speech_deadlines[request.token] = (deadline, job.job)
        self._speech.submit(request)

    def _speaking_job(self) -> Job | None:
        """The piece the speech worker is making, as a job: its clock starts when Piper starts on
        the piece, not when the sentence was queued behind the one before (under load, a short
        sentence waiting its turn would otherwise run past its deadline without Piper hanging)."""
        making = self._speech.making()
        if making is None or making.token not in self._speech_deadlines:
            return None
        deadline, speak_job = self._speech_deadlines[making.token]
        return Job(JobKind.SPEAK, making.since, deadline, speak_job)

    def _await_speech(self) -> None:
        """File mode: the audio clock waits for the speech being made, so a recording runs the same
        way every time (as it waits for a reply); the loop beats meanwhile."""
        while self._playback.making:
            self._take_made(self._speech.take(self._settings.voice_process.heartbeat_seconds))
            self._heartbeat()

    def _take_made(self, made: list[Made]) -> None:
        for item in made:
            result = item.result
            if isinstance(result, PieceMade):
                if not isinstance(result.chunk, RemoteSpeechChunk):
                    # Only the local voice's pace: a fast service must not shorten the deadline
                    # its local fallback may need.
                    self._pace.observe(item.voice, len(result.chunk.text), item.seconds)
                job = self._first_pieces.pop(result.token, None)
                if job is not None:
                    self._trace("audio_ready", job=job)
            else:
                self._first_pieces.pop(result.token, None)
                self._speech_deadlines.pop(result.token, None)
            self._play_outputs(self._playback.handle(result))

    def _end_announcement(self) -> None:
        """Speech outside a conversation is over: hear the room again once the echo has settled.

        (In a conversation the listener keeps the microphone closed while speaking and settling.)
        """
        self._announcing = False
        settle = seconds_to_samples(self._settings.listener.settle_seconds)
        self._settled_at = self._clock + settle

    def _finish_reply(self, finish: FinishReply) -> None:
        if self._announcing:
            self._end_announcement()
        if self._listener.state in (State.THINKING, State.SPEAKING):
            asks = bool(finish.answer_phrases)
            self._act(self._listener.handle(ReplyFinished(self.t, asks_question=asks)))
        self._cues.reply_finished(finish)

    def _volume(self, job: Speak, samples: np.ndarray) -> np.ndarray:
        if job.job < 0:  # local hints
            samples = (samples.astype(np.float32) * HINT_VOLUME).astype(np.int16)
        return self._output.apply(samples)

    def _play_earcon(self, kind: Earcon) -> None:
        if self._settings.audio.earcons and not self._mouth.busy(self._clock):
            self._record("earcon", kind=kind.value)
            self._mouth.start(self._output.apply(earcon(kind)), self._clock)

    def _sound_end_of_listening(self) -> None:
        """The end-of-listening earcon, once its grace is over, if the reply has not begun."""
        due = self._end_earcon_at
        if due is None or self._clock < due:
            return
        self._end_earcon_at = None
        if self._listener.state is State.THINKING:
            self._play_earcon(Earcon.END_OF_LISTENING)

    # -- hearing ---------------------------------------------------------------------------------

    def _hear(self, frame: np.ndarray) -> None:
        start = self._clock
        if self._microphone_muted:
            # Closed: the room is not heard at all, the wake word included; the clock goes on.
            frame = np.zeros_like(frame)
        microphone = frame
        played = None
        if self._echo is not None and (self._cancel_speech or start < self._ring_echo_until):
            played = self._said_during(start, len(frame))
            frame = self._echo.process(frame, played)
        self._clock += len(frame)
        # Over a ring the microphone is heard as it is: the ring's tones are no speech to Silero
        # (0.01 on its echo) nor words to Whisper, while AEC3, suppressing the near end against a
        # loud reference, pulls a shouted "Stop!" under the VAD's threshold (0.2 to 0.55 where it
        # was 0.5 to 0.6) and, with no echo to cancel, makes Whisper write it as "dot".
        ringing = self._listener.state is State.RINGING
        heard = microphone if ringing else frame
        self._recent.append(heard)
        t = self.t
        open_ = (
            self._listener.microphone_open(t)
            and not self._announcing
            and self._clock >= self._settled_at
        )
        probability = self._speech_probability(heard)
        if self._stop_watch is not None:
            self._stop_watch.hear(microphone, played, probability)
        if ringing:
            self._duck_ring(probability)
        detections = self._models.wake.process(frame, start + len(frame))
        if open_:
            self._pending_wakes.extend(self._over_reply(d) for d in detections)
        self._verify_wakes()
        self._judge_pause()
        # A person may cut into a ring, or a reply with barge-in, with a short stop word.
        state = self._listener.state
        over_reply = state is State.RINGING or (
            state is State.SPEAKING and self._settings.listener.barge_in
        )
        event = self._segmenter.process(
            FRAME_SECONDS, probability if open_ else None, over_reply=over_reply
        )
        if event is not None:
            self._on_segment(event)
        self._step_stop_check()
        if self._held_end is not None and not self._pending_wakes:
            held, self._held_end = self._held_end, None
            self._act(self._listener.handle(held))
        self._act(self._listener.handle(Tick(t, saying=not self._playback.idle)))

    def _duck_ring(self, probability: float | None) -> None:
        """A person speaking over the ring: the ring goes on 20 dB quieter until it ends."""
        rest = self._ring.duck(probability, self._clock)
        if rest is None:
            return
        self._record("ring_ducked")
        if len(rest) and self._mouth.busy(self._clock):
            self._mouth.stop(self._clock)
            self._mouth.start(rest, self._clock)

    def _said_during(self, start: int, samples: int) -> np.ndarray:
        """What Hearth played while the microphone heard this frame: its echo's reference."""
        recorded_at = self._source.recorded_at if isinstance(self._source, LiveSource) else None
        return self._mouth.said(start, samples, recorded_at)

    def _speech_probability(self, frame: np.ndarray) -> float | None:
        """Silero's verdict on a frame; in standby a frame below the speech floor is silence
        without asking it. In standby the VAD only earns hints (the wake word runs on every
        frame regardless), and a quiet shelf is most of a day: this halves its idle cost."""
        if self._listener.state is State.STANDBY:
            level = float(np.sqrt(np.mean(np.square(frame, dtype=np.float32))))
            if level < STANDBY_SPEECH_FLOOR:
                return 0.0
        # Placed on the clock, so that after a quiet spell it was spared it starts afresh.
        return self._models.vad.process(frame, self._clock - len(frame))

    def _over_reply(self, detection: WakeDetection) -> WakeDetection:
        """A detection over a reply being said is verified on the audio up to it: the 0.2 s that
        verification otherwise waits for (a name still being finished) is most of the time a
        person waits for the reply to stop. Over a reply the wake word is said on its own, and
        a barge-in scene cut it 0.08 to 0.20 s after "Hey Jarvis." ended at seven moments, every
        one heard (margins +2.2 to +3.0), where waiting cut it 0.28 to 0.46 s after."""
        if self._listener.state is State.SPEAKING:
            return replace(detection, verify_after_seconds=0.0)
        return detection

    def _verify_wakes(self) -> None:
        while self._pending_wakes and self._clock >= self._pending_wakes[0].verify_window[1]:
            detection = self._pending_wakes.pop(0)
            window = self._recent.between(*detection.verify_window)
            self._begin_job(JobKind.TRANSCRIBE)
            verdict = self._verifier.judge(detection, window)
            self._end_job(JobKind.TRANSCRIBE)
            start = detection.verify_window[0]
            before = self._recent.between(start - seconds_to_samples(FLOOR_SECONDS), start)
            measure = WakeMeasure(self.t, detection.score, level_db(window), noise_floor_db(before))
            self._record("wake_check", model=detection.model, score=round(detection.score, 3),
                         heard=verdict.heard, accepted=verdict.accepted,
                         evidence=verdict.evidence.value, margin=verdict.margin,
                         level_db=round(measure.level_db, 1),
                         floor_db=round(measure.floor_db, 1))  # fmt: skip
            if verdict.accepted:
                self._pending_wakes.clear()
                self._wake = detection
                self._wake_measure = measure
                self._act(self._listener.handle(WakeDetected(self.t)))
            else:
                fired = samples_to_seconds(detection.end_sample)
                self._act(self._listener.handle(WakeRefused(fired)))

    def _on_segment(self, event: SegmenterEvent) -> None:
        self._send(Record(event.as_record()))
        self._take_segment(event)

    def _take_segment(self, event: SegmenterEvent) -> None:
        state = self._listener.state
        taking_requests = state in (State.LISTENING, State.FOLLOW_UP, State.RINGING) or (
            state is State.SPEAKING and self._settings.listener.barge_in
        )
        match event:
            case SpeechStarted():
                self._span.speech_started()
                self._drop_stop_check()
                self._act(self._listener.handle(event))
            case SpeechPaused() if taking_requests:
                self._drop_speculation()
                request = self._transcription_request(
                    event.start, event.end, state, weigh_end=weighs_by_ear(event.longest_pause)
                )
                future = self._worker.submit(self._ear.transcribe, request)
                self._speculation = Speculation(event, future)
                # Until its words are known, the pause may be a speaker looking for a word.
                self._end_pause_after(self._settings.vad.trailing_silence_seconds)
                if state is State.SPEAKING and self._stop_watch is not None:
                    self._stop_watch.paused(event, self._clock)
                if not self._mouth.live:
                    # File mode: judged at once, so a recording runs the same way every time.
                    self._judge_pause(wait=True)
            case SpeechResumed(silence_start=silence_start, silence_end=silence_end):
                self._span.went_on((silence_start, silence_end))
                self._drop_speculation()
                self._drop_stop_check()
            case SpeechEnded() if event.is_utterance and state is State.STANDBY:
                if self._pending_wakes:
                    self._held_end = event
                else:
                    self._act(self._listener.handle(event))
            case SpeechEnded() if taking_requests and (
                event.is_utterance
                or self._said_with_wake(event, state)
                or self._span.reopened is not None  # however short, it ends the request
            ):
                if not event.is_utterance:
                    self._segmenter.reset()  # taken as the request: the wait for one is over
                self._trace("end_declared")
                self._act(self._listener.handle(event))
                heard = self._transcript_for(event, state)
                self._trace("transcript", stt_seconds=round(heard.seconds, 4), began=heard.began)
                self._last_transcription = heard
                self._cues.request_heard(event, heard.text)
                start = self._span.start(event.start)
                transcript = Transcript(self.t, heard.text, start, event.end)
                self._act(self._listener.handle(transcript))
            case SpeechEnded():
                if state is State.THINKING:
                    self._span.ended_while_thinking(event)  # its speaker may have gone on
                self._act(self._listener.handle(event))
        if isinstance(event, SpeechEnded):
            self._drop_stop_check()  # the utterance is over (its transcript, if any, has it)

    def _said_with_wake(self, event: SpeechEnded, state: State) -> bool:
        """A request too short to be an utterance on its own, said straight on from the wake
        phrase ("Hey Jarvis, mute"): heard together with it, it is long enough."""
        wake = self._wake
        return (
            event.reason is EndReason.TOO_SHORT
            and state is State.LISTENING
            and wake is not None
            and seconds_to_samples(event.start) - wake.end_sample
            < seconds_to_samples(WAKE_CONTINUATION_SECONDS)
        )

    def _judge_pause(self, wait: bool = False) -> None:
        """Once the words before a pause are known, let them say how long a silence ends it: a
        complete request ends sooner, one that trails off later (audio/end_of_turn.py). Words
        that read as complete are weighed by the ear as well, which may only lengthen the wait:
        live, the words judge at once and the ear counts if it answers before the pause ended;
        in file mode (``wait``) both are waited for, so a recording runs the same way every
        time."""
        speculation = self._speculation
        if speculation is None or speculation.judging is Judging.DONE:
            return
        if speculation.judging is Judging.WORDS:
            if not (wait or speculation.future.done()):
                return
            heard = self._worker.result(speculation.future)
            speculation.judging = Judging.EAR
            queued = round(heard.began - speculation.submitted, 4)
            self._trace("speculation_judged", queued=queued, stt_seconds=round(heard.seconds, 4))
            to_weigh = heard.to_weigh
            silence = None
            if to_weigh is None or not wait:
                silence = self._judge_words(speculation, heard, None)
            # The words may have ended the turn already; live, the ear is asked only if it can
            # answer before the pause ends (``end_of_turn.ear_in_time``).
            if (
                to_weigh is None
                or self._speculation is not speculation
                or (silence is not None and not self._ear_in_time(speculation, heard, silence))
            ):
                speculation.judging = Judging.DONE
                return
            speculation.readings = self._worker.submit(to_weigh.readings)
        heard = speculation.future.result()
        readings = speculation.readings
        if readings is None or readings.cancelled() or not (wait or readings.done()):
            return
        speculation.judging = Judging.DONE
        try:
            reading = self._worker.result(readings)
        except Exception as error:  # extra evidence: its failure never stops the hearing
            log.warning("the ear could not weigh %r: %s", heard.text, error)
            reading = None
        if reading is not None or wait:
            self._judge_words(speculation, heard, reading)

    @contextmanager
    def _transcribing(self) -> Iterator[None]:
        """A transcription job on the loop's thread (the loop waits for the hearing worker, or
        transcribes itself): the supervisor holds a job that does not come back to its deadline."""
        self._begin_job(JobKind.TRANSCRIBE)
        try:
            yield
        finally:
            self._end_job(JobKind.TRANSCRIBE)

    def _ear_in_time(self, speculation: Speculation, heard: Transcription, silence: float) -> bool:
        """Whether the ear's reading, begun now, can answer before the pause ends."""
        ends_at = speculation.pause.end + silence
        return ear_in_time(heard.seconds, ends_at - self.t)

    def _judge_words(
        self, speculation: Speculation, heard: Transcription, readings: EndReadings | None
    ) -> float:
        """Set the silence that ends the pause from its words (and the ear's reading of their
        end, once known), record the judgement, and return the silence."""
        text = heard.text
        words = self._listener.request_words(text)
        wake_phrase_only = not words.strip() and any(char.isalnum() for char in text)
        judgement = judge_pause(
            words, speculation.pause.longest_pause, self._settings.vad,
            wake_phrase_only=wake_phrase_only,
            reading=None if readings is None else EarReading(
                readings.lead, readings.last_word, heard.avg_logprob
            ),
        )  # fmt: skip
        # "Stop" over a reply needs no more silence: nothing else said then would count.
        silence = 0.0 if self._listener.interrupts(text) else judgement.end_silence_seconds
        record = {} if readings is None else readings.as_record()
        self._record("pause_judged", text=text, shape=judgement.shape.value,
                     end_silence=silence, logprob=round(heard.avg_logprob, 3),
                     **record)  # fmt: skip
        self._end_pause_after(silence)
        return silence

    def _end_pause_after(self, silence_seconds: float) -> None:
        """The pause in progress ends after ``silence_seconds``; at once if it has lasted that
        long (words judged after the short silence they allow end the turn as they come)."""
        ended = self._segmenter.end_after(silence_seconds)
        if ended is not None:
            self._on_segment(ended)

    def _transcript_for(self, event: SpeechEnded, state: State) -> Transcription:
        speculation = self._speculation
        with self._transcribing():
            if speculation is not None and speculation.pause.ended_by(event):
                self._speculation = None
                heard = speculation.future.result()
                speculation.cancel()  # the ear, if still to come, can no longer lengthen it
            else:
                self._drop_speculation()
                request = self._transcription_request(event.start, event.end, state)
                heard = self._ear.transcribe(request)
            if self._stop_watch is not None and self._stop_watch.heard_in(event):
                # The stop check heard "Stop." where the transcript did not: the stop word it is.
                heard = replace(heard, text=stop_check.STOP_PHRASES[0])
            return heard

    def _step_stop_check(self) -> None:
        """Make the stop check that is due (``audio.stop_watch``), and end the utterance as a stop
        when it hears one."""
        watch = self._stop_watch
        if watch is None or not watch.step(self._clock, live=self._mouth.live):
            return
        self._end_pause_after(0.0)  # the utterance ends now, its transcript the stop word
        watch.drop()  # no longer paused, nothing ended: the check is spent all the same

    def _drop_stop_check(self) -> None:
        """Forget a stop check: the speaker went on, or the utterance is over."""
        if self._stop_watch is not None:
            self._stop_watch.drop()

    def _drop_speculation(self) -> None:
        """Forget a transcription begun at a pause the speaker went on from; one still waiting
        for the worker is cancelled, so a long monologue's pauses do not queue up stale work."""
        if self._speculation is not None:
            self._speculation.cancel()
            self._speculation = None

    def _transcription_request(
        self, start: float, end: float, state: State, *, weigh_end: bool = False
    ) -> TranscriptionRequest:
        """What transcribing the utterance heard in ``state`` from ``start`` to ``end`` needs,
        read now; ``weigh_end`` at a pause where the ear's reading of the end judges the turn."""
        samples, wake_end = self._utterance_audio(self._span.start(start), end)
        reopened = self._span.reopened
        follow_up = state is State.FOLLOW_UP or (
            reopened is not None and reopened.via is Via.FOLLOW_UP
        )
        return self._cues.request(
            samples, wake_end, start,
            listening=state is State.LISTENING, follow_up=follow_up, weigh_end=weigh_end,
        )  # fmt: skip

    def _utterance_audio(self, start: float, end: float) -> tuple[np.ndarray, int]:
        """An utterance's audio with its pre-roll, and where in it the wake word was detected
        (0 when it does not begin with the wake phrase).

        A request said straight after the wake word ("Hey Jarvis, what's ...") is taken from the
        start of the wake phrase: Whisper hears a whole sentence better than one that begins in
        the middle of "Jarvis", and the listener strips the wake phrase from the transcript.
        The pauses the speaker went on from after the wake phrase are shortened
        (``audio.silences``): after a long one Whisper writes what came before and stops.
        """
        first = seconds_to_samples(start) - self._pre_roll
        wake = self._wake
        wake_end = 0
        if (
            wake is not None
            and self._listener.state is State.LISTENING
            and first - wake.end_sample < seconds_to_samples(WAKE_CONTINUATION_SECONDS)
            and wake.verify_window[0] < first
        ):
            first = wake.verify_window[0]
            wake_end = max(0, wake.end_sample - first)
        samples = self._recent.between(first, seconds_to_samples(end))
        inside = [
            (seconds_to_samples(silence_start) - first, seconds_to_samples(silence_end) - first)
            for silence_start, silence_end in self._span.pauses
        ]
        return shortened(samples, [(a, b) for a, b in inside if a >= wake_end]), wake_end

    # -- acting on the listener ------------------------------------------------------------------

    def _act(self, outputs: tuple[ListenerOutput, ...]) -> None:
        for output in outputs:
            self._send(Record(output.as_record()))
            match output:
                case WakeAccepted():
                    self._span.new_request()
                    self._pending_wakes.clear()
                    self._drop_speculation()
                    self._drop_stop_check()
                    # Still talking: the request goes on from the wake phrase in one breath, and
                    # counting it from here keeps a short one ("mute") a fresh start would miss.
                    talking = self._segmenter.phase is Phase.SPEAKING
                    self._segmenter.reset(armed=True, in_speech=talking)
                    self._play_earcon(Earcon.WAKE)
                case UtteranceHeard(text=text, via=via):
                    self._span.taken()
                    heard = self._last_transcription
                    wake = self._wake_measure if via is Via.WAKE else None
                    self._send(Heard(text, via, self.t, heard.scores, wake, heard.spelled))
                    grace = seconds_to_samples(END_OF_LISTENING_GRACE_SECONDS)
                    self._end_earcon_at = self._clock + grace
                case WentOnAsked(t=t, wake=wake):
                    self._send(WentOn(t, wake))
                case RequestReopened():
                    self._reopen(output)
                case HintGiven(text=text):
                    self._say_locally(text)
                case StopSpeaking():
                    # Barge-in: stop the sentence, drop the rest of the reply, tell the supervisor.
                    self._play_outputs(self._playback.handle(CutOff()))
                case ReplyAbandoned(text=text):
                    # The reply never came (or stopped coming): what is left of it is dropped, and
                    # the room is told, instead of Hearth waiting on, deaf, for good.
                    log.warning("no reply came for %.0f s; giving up on it", self._reply_wait)
                    self._play_outputs(self._playback.handle(CutOff()))
                    self._play_earcon(Earcon.ERROR)
                    self._say_locally(text)
                case ConversationEnded():
                    self._wake = None
                    self._wake_measure = None
                    self._cues.conversation_ended()
                    self._segmenter.reset()
                case StopRinging(timed_out=timed_out):
                    by = RingEnd.TIMEOUT if timed_out else RingEnd.STOP_WORD
                    self._play_outputs(self._playback.handle(RingCleared(None, by.value)))

    def _reopen(self, reopened: RequestReopened) -> None:
        """Hear the request taken back from its start (``audio.request_span``)."""
        self._end_earcon_at = None
        ended = self._span.reopen(reopened)
        if ended is not None:
            self._take_segment(ended)  # what they went on with is already over

    def _say_locally(self, text: str) -> None:
        """Speech that needs no brain (the hint): a negative job number marks it local."""
        local = Speak(job=-1, reply=-1, text=text)
        self._play_outputs(self._playback.handle(SentenceQueued(local)))

    # -- what is said outside a conversation, the microphone, stop from outside ---------------

    def _release_held(self) -> None:
        """Hand playback the held speech whose moment has come: an announcement once nobody is
        in the middle of a request or a reply; a notice then too, or at once within a reply
        (it is said before the rest of the answer)."""
        if not self._waiting_speech:
            return
        quiet = self._quiet_for_announcement()
        replying = self._listener.state in (State.THINKING, State.SPEAKING)
        due = [job for job in self._waiting_speech if quiet or (replying and not job.announcement)]
        for job in due:
            self._waiting_speech.remove(job)
            self._play_outputs(self._playback.handle(SentenceQueued(job)))

    def _quiet_for_announcement(self) -> bool:
        """Nobody is making a request (no wake being checked, no utterance under way) and
        Hearth is saying nothing and waiting for no reply: standby, or a follow-up window."""
        return (
            self._listener.state in (State.STANDBY, State.FOLLOW_UP)
            and self._playback.idle
            and not self._playback.finishing
            and not self._mouth.busy(self._clock)
            and not self._hearing_unfinished()
            and not self._owed
        )

    def _take_notices(self) -> None:
        """A speech service that stopped answering is said once per outage, when fitting."""
        for notice in self._models.take_notices():
            self._record("speech_fallback", text=notice)
            self._waiting_speech.append(Speak(job=-1, reply=-1, text=notice))

    def _set_microphone(self, muted: bool) -> None:
        if muted == self._microphone_muted:
            return
        self._microphone_muted = muted
        log.info("microphone %s", "closed" if muted else "open")
        self._record("microphone", muted=muted)
        if muted:
            self._pending_wakes.clear()  # a wake heard just before is not acted on after it

    def _stop_saying(self) -> None:
        """Stop from outside the room (Home Assistant): drop what is waiting to be announced, and
        what is being said; a reply's conversation ends as after a spoken stop."""
        for job in [job for job in self._waiting_speech if job.announcement]:
            self._waiting_speech.remove(job)
            self._send(Spoken(job.job, interrupted=True))
        self._record("stop_requested")
        self._act(self._listener.handle(StopRequested(self.t)))
        if not self._playback.idle or self._mouth.busy(self._clock):
            self._play_outputs(self._playback.handle(CutOff()))
        if self._announcing:
            self._end_announcement()
