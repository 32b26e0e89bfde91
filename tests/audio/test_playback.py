"""The playback machine as pure code: sentences, pieces and a free mouth in, what to do out."""

from __future__ import annotations

from collections import deque

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from audio.messages import FinishReply, Speak
from audio.playback import (
    Abandon,
    Began,
    CutOff,
    Dropped,
    MouthFree,
    NotMade,
    Phase,
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
    SentenceMade,
    SentenceQueued,
    Silence,
    Stop,
    Synthesize,
)
from audio.tts import SpeechChunk, SpeechParameters

PARAMS = SpeechParameters(voice="joe", speed=1.1, volume=0.9)


def sentence(job: int, reply: int = 1, text: str | None = None, **extra) -> Speak:
    return Speak(job=job, reply=reply, text=text or f"Sentence {job}.", **extra)


def piece(text: str = "piece") -> SpeechChunk:
    return SpeechChunk(text=text, samples=np.zeros(160, dtype=np.int16))


def only(outputs: tuple[PlaybackOutput, ...], kind: type) -> list:
    return [output for output in outputs if isinstance(output, kind)]


def test_one_sentence_is_made_begun_played_said_and_its_reply_finished():
    playback = Playback(PARAMS)
    job = sentence(1)
    [request] = playback.handle(SentenceQueued(job))
    assert request == Synthesize(1, job, PARAMS, starts_reply=True)
    assert playback.phase is Phase.MAKING and playback.making
    chunk = piece()
    assert playback.handle(PieceMade(1, chunk)) == (Began(job),)
    assert playback.phase is Phase.READY
    assert playback.handle(MouthFree()) == (Play(job, chunk, first=True),)
    assert playback.phase is Phase.PLAYING and playback.saying == job
    assert playback.handle(SentenceMade(1)) == ()
    assert not playback.making
    assert playback.handle(MouthFree()) == (Said(job, more=False),)
    assert playback.phase is Phase.IDLE and playback.idle
    finish = FinishReply(1, context="asked and answered")
    assert playback.handle(ReplyEnding(finish)) == ()
    assert playback.finishing
    assert playback.handle(MouthFree()) == (ReplyDone(finish),)
    assert not playback.finishing
    assert playback.handle(MouthFree()) == ()


def test_the_sentence_voice_and_speed_override_the_settings():
    playback = Playback(PARAMS)
    [request] = playback.handle(SentenceQueued(sentence(1, voice="amy", speed=0.8)))
    assert request.params == SpeechParameters(voice="amy", speed=0.8, volume=0.9)


def test_the_next_sentence_is_made_while_one_plays_and_only_one_ahead():
    playback = Playback(PARAMS)
    first, second, third = sentence(1), sentence(2), sentence(3)
    playback.handle(SentenceQueued(first))
    # Queued behind the first: nothing more is asked of the worker while it makes the first.
    assert playback.handle(SentenceQueued(second)) == ()
    assert playback.handle(SentenceQueued(third)) == ()
    playback.handle(PieceMade(1, piece()))
    playback.handle(MouthFree())
    [request] = playback.handle(SentenceMade(1))
    assert request.job == second and not request.starts_reply
    playback.handle(PieceMade(2, piece()))
    # The second is made ahead; the third waits until the second is begun.
    assert playback.handle(SentenceMade(2)) == ()
    outputs = playback.handle(MouthFree())
    assert outputs[:2] == (Said(first, more=True), Began(second))
    assert only(outputs, Synthesize)[0].job == third
    assert playback.phase is Phase.READY


def test_a_sentence_of_two_pieces_plays_them_in_order_and_waits_in_a_gap_for_a_late_one():
    playback = Playback(PARAMS)
    job = sentence(1)
    playback.handle(SentenceQueued(job))
    one, two = piece("Well,"), piece("that is a long story.")
    playback.handle(PieceMade(1, one))
    assert playback.handle(MouthFree()) == (Play(job, one, first=True),)
    # The first clause has played; Piper is still on the rest.
    assert playback.handle(MouthFree()) == ()
    assert playback.phase is Phase.GAP
    assert playback.handle(PieceMade(1, two)) == ()
    assert playback.phase is Phase.READY
    assert playback.handle(MouthFree()) == (Play(job, two, first=False),)
    playback.handle(SentenceMade(1))
    assert playback.handle(MouthFree()) == (Said(job, more=False),)


def test_a_sentence_whose_end_comes_in_the_gap_is_said_at_once():
    playback = Playback(PARAMS)
    job = sentence(1)
    playback.handle(SentenceQueued(job))
    playback.handle(PieceMade(1, piece()))
    playback.handle(MouthFree())
    playback.handle(MouthFree())
    assert playback.phase is Phase.GAP
    playback.handle(SentenceMade(1))
    assert playback.phase is Phase.READY
    assert playback.handle(MouthFree()) == (Said(job, more=False),)


def test_nothing_plays_until_the_mouth_is_free_and_the_reply_end_waits_for_the_mouth():
    """An earcon is playing as the first sentence is made: the reply has begun, the piece waits."""
    playback = Playback(PARAMS)
    job = sentence(1)
    playback.handle(SentenceQueued(job))
    playback.handle(ReplyEnding(FinishReply(1)))
    assert playback.handle(PieceMade(1, piece())) == (Began(job),)
    assert playback.handle(SentenceMade(1)) == ()
    assert only(playback.handle(MouthFree()), Play)
    outputs = playback.handle(MouthFree())
    assert outputs == (Said(job, more=False), ReplyDone(FinishReply(1)))


def test_a_reply_end_with_no_sentences_is_done_when_the_mouth_is_free():
    playback = Playback(PARAMS)
    assert playback.handle(ReplyEnding(FinishReply(4))) == ()
    assert playback.handle(MouthFree()) == (ReplyDone(FinishReply(4)),)


def test_a_sentence_that_cannot_be_made_is_reported_begun_and_ended():
    playback = Playback(PARAMS)
    job = sentence(1)
    playback.handle(SentenceQueued(job))
    outputs = playback.handle(SentenceMade(1, failure="voice 'x' not found"))
    assert outputs == (NotMade(job, "voice 'x' not found"), Began(job))
    assert playback.handle(MouthFree()) == (Said(job, more=False),)


def test_barge_in_silences_drops_every_unsaid_sentence_and_the_rest_of_the_reply():
    playback = Playback(PARAMS)
    jobs = [sentence(n) for n in (1, 2, 3)]
    for job in jobs:
        playback.handle(SentenceQueued(job))
    playback.handle(PieceMade(1, piece()))
    playback.handle(MouthFree())
    playback.handle(SentenceMade(1))  # the second is being made now
    playback.handle(ReplyEnding(FinishReply(1)))
    outputs = playback.handle(CutOff())
    assert outputs == (Silence(), Abandon(2), *(Dropped(job) for job in jobs))
    assert playback.idle and not playback.finishing and playback.phase is Phase.IDLE
    # What was on its way for the cut reply is dropped too; its end is ignored.
    late = sentence(4)
    assert playback.handle(SentenceQueued(late)) == (Dropped(late),)
    assert playback.handle(ReplyEnding(FinishReply(1))) == ()
    assert playback.handle(PieceMade(2, piece())) == ()  # made for nobody
    assert playback.handle(MouthFree()) == ()
    # The next reply waits for the worker to finish the abandoned request, then starts afresh.
    answer = sentence(5, reply=2)
    assert playback.handle(SentenceQueued(answer)) == ()
    [request] = playback.handle(SentenceMade(2))
    assert request.job == answer and request.starts_reply


def test_cutting_off_local_speech_does_not_silence_later_local_speech():
    playback = Playback(PARAMS)
    hint = Speak(job=-1, reply=-1, text="Say Jarvis first")
    playback.handle(SentenceQueued(hint))
    playback.handle(CutOff())
    playback.handle(SentenceMade(1))
    assert only(playback.handle(SentenceQueued(hint)), Synthesize)


def test_a_stop_finishes_the_sentence_being_said_and_drops_the_rest_silently():
    """What was not begun stays with the supervisor, so it is not acknowledged."""
    playback = Playback(PARAMS)
    first, second, third = sentence(1), sentence(2), sentence(3)
    for job in (first, second, third):
        playback.handle(SentenceQueued(job))
    playback.handle(PieceMade(1, piece()))
    playback.handle(MouthFree())
    playback.handle(SentenceMade(1))
    assert playback.handle(Stop()) == (Abandon(2),)
    assert playback.saying == first
    assert playback.handle(MouthFree()) == (Said(first, more=False),)
    assert playback.idle
    later = sentence(4, reply=2)
    assert playback.handle(SentenceQueued(later)) == (Dropped(later),)
    assert playback.handle(ReplyEnding(FinishReply(2))) == ()
    assert not playback.finishing


def test_each_reply_starts_a_reply_and_its_later_sentences_do_not():
    playback = Playback(PARAMS)
    starts = []
    for job in (sentence(1, reply=1), sentence(2, reply=1), sentence(3, reply=2)):
        [request] = playback.handle(SentenceQueued(job))
        starts.append(request.starts_reply)
        playback.handle(SentenceMade(request.token))
        playback.handle(MouthFree())
    assert starts == [True, False, True]


# Any order of events ------------------------------------------------------------------------------


def test_a_ring_waits_for_a_quiet_moment_then_plays_period_after_period_until_cleared():
    playback = Playback(PARAMS)
    assert playback.handle(RingQueued(7)) == ()
    assert playback.rings_waiting and not playback.ringing
    # Someone is in the middle of a request: the ring waits.
    assert playback.handle(MouthFree(quiet=False)) == ()
    assert playback.handle(MouthFree(quiet=True)) == (RingBegan((7,)), PlayRing())
    assert playback.phase is Phase.RINGING and playback.ringing == (7,)
    assert playback.handle(MouthFree(quiet=True)) == (PlayRing(),)
    assert playback.handle(MouthFree(quiet=False)) == (PlayRing(),)  # once ringing, it goes on
    assert playback.handle(RingCleared(7, "command")) == (
        RingEnded((7,), "command", sound_over=True),
        Silence(),
    )
    assert playback.phase is Phase.IDLE and not playback.ringing
    assert playback.handle(MouthFree(quiet=True)) == ()


def test_a_ring_never_begins_inside_a_sentence_and_begins_once_the_reply_is_done():
    playback = Playback(PARAMS)
    job, chunk = sentence(1), piece()
    playback.handle(SentenceQueued(job))
    playback.handle(PieceMade(1, chunk))
    playback.handle(RingQueued(3))
    assert playback.handle(MouthFree(quiet=True)) == (Play(job, chunk, first=True),)
    playback.handle(SentenceMade(1))
    finish = FinishReply(1)
    playback.handle(ReplyEnding(finish))
    # The sentence ends and the reply with it; the ring waits for the next quiet moment.
    assert playback.handle(MouthFree(quiet=False)) == (Said(job, more=False), ReplyDone(finish))
    assert playback.handle(MouthFree(quiet=True)) == (RingBegan((3,)), PlayRing())


def test_sentences_that_come_while_it_rings_wait_behind_the_ring():
    playback = Playback(PARAMS)
    playback.handle(RingQueued(3))
    playback.handle(MouthFree(quiet=True))
    job, chunk = sentence(1), piece()
    [request] = playback.handle(SentenceQueued(job))
    assert request.job == job  # made meanwhile, so it is ready when the ring ends
    assert playback.handle(PieceMade(1, chunk)) == ()
    assert playback.phase is Phase.RINGING
    assert playback.handle(MouthFree()) == (PlayRing(),)
    outputs = playback.handle(RingCleared(None, "stop_word"))
    assert outputs == (RingEnded((3,), "stop_word", sound_over=True), Silence(), Began(job))
    assert playback.handle(MouthFree()) == (Play(job, chunk, first=True),)


def test_two_rings_sound_as_one_and_the_sound_ends_with_the_last():
    playback = Playback(PARAMS)
    playback.handle(RingQueued(1))
    playback.handle(RingQueued(2))
    assert playback.handle(MouthFree(quiet=True)) == (RingBegan((1, 2)), PlayRing())
    assert playback.handle(RingQueued(2)) == ()  # sent again (after a restart): rings once
    assert playback.handle(RingQueued(4)) == (RingBegan((4,)),)
    assert playback.handle(RingCleared(1, "command")) == (
        RingEnded((1,), "command", sound_over=False),
    )
    assert playback.ringing == (2, 4)
    assert playback.handle(RingCleared(None, "stop_word")) == (
        RingEnded((2, 4), "stop_word", sound_over=True),
        Silence(),
    )
    assert playback.handle(RingCleared(9, "command")) == ()


def test_a_shutdown_ends_the_ring_and_a_barge_in_does_not():
    playback = Playback(PARAMS)
    playback.handle(RingQueued(1))
    playback.handle(MouthFree(quiet=True))
    assert playback.handle(CutOff()) == ()
    assert playback.ringing == (1,)
    assert playback.handle(Stop()) == (RingEnded((1,), "shutdown", sound_over=True), Silence())
    assert playback.handle(RingQueued(2)) == ()  # stopping: nothing more is taken


class PlaybackMachine(RuleBasedStateMachine):
    """The loop's side played at random: sentences and reply ends arrive, the worker answers the
    oldest request piece by piece, the mouth frees, a barge-in or a stop comes. Invariants:

    - the worker is asked for one request at a time, in order, and at most one sentence ahead of
      the one being said;
    - pieces play in the order they were made, only after the mouth was free, each sentence's first
      piece marked first;
    - every queued sentence ends once: said, dropped, or (after a stop) left to the supervisor,
      and sentences are said in the order they came;
    - a reply's end is done only once every sentence queued before it is settled;
    - a ring begins only at a quiet moment with no sentence begun, and no sentence plays while it
      rings; each queued ring ends once.
    """

    @initialize()
    def start(self) -> None:
        self.playback = Playback(PARAMS)
        self.next_job = 0
        self.reply = 1
        self.requests: deque[Synthesize] = deque()
        self.pieces_left: dict[int, int] = {}
        self.mouth_busy = False
        self.played: list[tuple[int, str]] = []
        self.made: dict[int, list[str]] = {}
        self.said: list[int] = []
        self.dropped: list[int] = []
        self.queued: list[int] = []
        self.stopped = False
        self.unsettled_before_end: set[int] | None = None
        self.rings: set[int] = set()
        self.ringing = False
        self.begun: Speak | None = None

    def act(
        self, outputs: tuple[PlaybackOutput, ...], mouth_was_free: bool = False, quiet: bool = False
    ) -> None:
        for output in outputs:
            match output:
                case RingBegan(items=items):
                    assert set(items) <= self.rings
                    if not self.ringing:
                        assert quiet and self.begun is None, "a ring began inside a sentence"
                    self.ringing = True
                case PlayRing():
                    assert mouth_was_free and not self.mouth_busy and self.ringing
                    self.mouth_busy = True
                case RingEnded(items=items, sound_over=over):
                    assert set(items) <= self.rings
                    self.rings -= set(items)
                    if over:
                        self.ringing = False
                case Began(job=job):
                    self.begun = job
                case Synthesize():
                    assert not self.requests, "two requests at once"
                    self.requests.append(output)
                    self.pieces_left[output.token] = len(output.job.text) % 3
                case Play(job=job, chunk=chunk, first=first):
                    assert mouth_was_free and not self.mouth_busy and not self.ringing
                    self.mouth_busy = True
                    assert first == (not any(j == job.job for j, _ in self.played))
                    self.played.append((job.job, chunk.text))
                case Said(job=job):
                    assert job.job not in self.said
                    self.said.append(job.job)
                    self.begun = None
                case Dropped(job=job):
                    self.dropped.append(job.job)
                    if self.begun == job:
                        self.begun = None
                case ReplyDone():
                    settled = set(self.said) | set(self.dropped)
                    assert self.unsettled_before_end is not None
                    assert self.unsettled_before_end <= settled
                    self.unsettled_before_end = None
                case Silence():
                    self.mouth_busy = False

    @rule(reply_change=st.booleans())
    def queue_sentence(self, reply_change: bool) -> None:
        self.reply += reply_change
        self.next_job += 1
        job = Speak(self.next_job, self.reply, "x" * (self.next_job % 5 + 1))
        self.queued.append(job.job)
        self.act(self.playback.handle(SentenceQueued(job)))

    @rule()
    def end_reply(self) -> None:
        if self.unsettled_before_end is None:
            self.unsettled_before_end = set(self.queued)
        self.act(self.playback.handle(ReplyEnding(FinishReply(self.reply))))

    @precondition(lambda self: bool(self.requests))
    @rule(fail=st.booleans())
    def worker_answers(self, fail: bool) -> None:
        request = self.requests[0]
        if self.pieces_left[request.token] > 0 and not fail:
            self.pieces_left[request.token] -= 1
            text = f"{request.job.job}.{self.pieces_left[request.token]}"
            self.made.setdefault(request.job.job, []).append(text)
            self.act(self.playback.handle(PieceMade(request.token, piece(text))))
        else:
            self.requests.popleft()
            self.act(self.playback.handle(SentenceMade(request.token, "no" if fail else "")))

    @rule(quiet=st.booleans())
    def mouth_frees(self, quiet: bool = False) -> None:
        self.mouth_busy = False
        self.act(self.playback.handle(MouthFree(quiet)), mouth_was_free=True, quiet=quiet)

    @rule(item=st.integers(1, 3))
    def ring(self, item: int) -> None:
        if not self.stopped:
            self.rings.add(item)
        self.act(self.playback.handle(RingQueued(item)))

    @rule(item=st.none() | st.integers(1, 3))
    def clear_ring(self, item: int | None) -> None:
        self.act(self.playback.handle(RingCleared(item, "command")))

    @rule()
    def barge_in(self) -> None:
        self.act(self.playback.handle(CutOff()))

    @rule()
    def stop(self) -> None:
        self.stopped = True
        self.unsettled_before_end = None
        self.act(self.playback.handle(Stop()))

    @invariant()
    def pieces_play_in_the_order_made(self) -> None:
        for job in {j for j, _ in self.played}:
            played = [text for j, text in self.played if j == job]
            assert played == self.made[job][: len(played)]

    @invariant()
    def sentences_are_said_in_order_and_each_settles_once(self) -> None:
        assert self.said == sorted(self.said)
        assert len(set(self.said) | set(self.dropped)) == len(self.said) + len(self.dropped)
        assert not self.playback.idle or self.playback.saying is None

    def teardown(self) -> None:
        """Drained (the worker answers everything, the mouth frees), nothing is left hanging."""
        if not hasattr(self, "playback"):
            return
        self.clear_ring(None)
        assert not self.rings and not self.ringing
        for _ in range(1000):
            if self.playback.idle and not self.playback.making and not self.playback.finishing:
                break
            if self.requests:
                self.worker_answers(fail=False)
            else:
                self.mouth_frees()
        assert self.playback.idle and not self.playback.making
        assert not self.playback.finishing
        settled = set(self.said) | set(self.dropped)
        if not self.stopped:
            assert settled == set(self.queued)


PlaybackMachine.TestCase.settings = settings(max_examples=300, stateful_step_count=40)
TestPlaybackMachine = PlaybackMachine.TestCase
