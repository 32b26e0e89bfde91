"""One turn of conversation: answer a pending question, run a local command, or ask the model.

``Brain.respond`` turns what the person said into reply parts (sentences to speak as soon as each
is known, notes for the event stream, and an awaited answer when the reply ends in a question).
Failures of the model are spoken, short and specific; the next turn simply tries again.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, replace

from assistant.action_claims import ActionKind, backed, claims_action
from assistant.arbitration import Arbiter
from assistant.card_keeper import CardKeeper
from assistant.chat_client import ChatClient, ChatMessage, ToolCall
from assistant.conflict_question import Choice, ConflictQuestion
from assistant.conversation import ConversationHistory
from assistant.fact_repair import (
    Correction,
    ValueQuestion,
    answer_value,
    as_meant,
    corrected_statement,
    missing_value,
    parse_correction,
    value_prefix,
)
from assistant.home import HomeControl, HomeTools
from assistant.learning import Learner
from assistant.memory_reach import UNREACHABLE, WITHOUT_MEMORY, MemoryReach, refusal
from assistant.model_errors import ModelError, ToolsUnsupported
from assistant.model_tools import Toolbox, ToolOutcome, ToolSet, refusals
from assistant.prompt import build_system_prompt
from assistant.reply import (
    AwaitAnswer,
    Defer,
    HeardUtterance,
    Note,
    ReplyPart,
    RoutineAsk,
    RoutineResult,
    Sentence,
)
from assistant.reply_limit import SpokenBudget
from assistant.schedule import CAPABILITIES, ScheduleDesk, ScheduleTools
from assistant.turn_gate import TurnGate, TurnPhase, TurnWithdrawn
from assistant.voice_commands import (
    CommandKind,
    mid_sentence,
    parse_voice_command,
    to_second_person,
)
from audio import IncrementalSentenceSplitter, Via
from audio.speakable import speakable  # not through the package: its module has this name
from config import PersonalityCard
from memory import (
    Action,
    Memory,
    MemoryInputError,
    MemoryUnavailable,
    Origin,
    Recall,
    RememberOutcome,
    Source,
    StoreError,
    guess_kind,
)

log = logging.getLogger(__name__)

MAX_FACTS_SPOKEN = 5
ROUTINE_LINE = (
    "The next message is a routine the user scheduled for this time, not something just said: "
    "answer it directly, in a few sentences said to the room."
)


@dataclass(frozen=True)
class BrainPolicy:
    """Settings of the brain that are not the model's."""

    ask_again_seconds: float = 24 * 3600
    reply_max_chars: int = 600
    """The most of one model answer said aloud (see ``assistant.reply_limit``)."""
    answer_window_seconds: float = 30.0
    """Audio seconds after a request in which the next, even with the wake word again, may
    answer the question its turn asked or correct the fact it stored ("No, I said ..."). A long
    reply uses it up; a follow-up in the listener's window, which opens once the reply is said,
    always may. Later, a request is a new one."""


MAX_TOOL_ROUNDS = 3
"""How many times one turn's model may call tools before it must answer in words."""

NO_WORDS = "I've no answer to that. Try asking another way."
"""Said when the model's answer held nothing to say (only spaces or emoji, or only tool calls
after the last round): a person who asked must hear something."""
DONE = "Done."
"""Said when the model acted through a tool and then said nothing."""

MAX_VALUE_TRIES = 2
"""How often Hearth asks for a value it did not catch before it lets the statement go."""


@dataclass(frozen=True)
class _JustStored:
    """The fact the last turn stored, which the next utterance may correct."""

    fact_id: int
    text: str
    t: float


class Brain:
    """Decides what to say to each utterance; owns the pending conflict question."""

    def __init__(
        self,
        memory: Memory,
        client: ChatClient,
        cards: CardKeeper,
        history: ConversationHistory,
        learner: Learner | None = None,
        policy: BrainPolicy | None = None,
        desk: ScheduleDesk | None = None,
        arbiter: Arbiter | None = None,
        home: HomeControl | None = None,
    ):
        self.memory = memory
        self.client = client
        self.cards = cards
        self.history = history
        self.learner = learner
        self.policy = policy or BrainPolicy()
        self.desk = desk
        """The clock and the schedule: asked first whether it takes an utterance."""
        self.arbiter = arbiter
        """The household's: whether this Hearth or another answers a wake word all heard."""
        self.home = home
        """Home Assistant: asked next, for requests about the home."""
        self._pending: ConflictQuestion | ValueQuestion | None = None
        self._just_stored: _JustStored | None = None
        self._last_turn_t: float | None = None
        """When the last utterance ended: its turn's question is answered only soon after."""
        self.card: PersonalityCard | None = None
        """The personality card of the turn in progress (its voice says the sentences)."""
        self.reach = MemoryReach()
        """Whether the memory answered last time: an outage is told once, not every turn."""
        self.tools = _toolbox(desk, home) if client.supports_tools else None
        """The schedule's and the home's tools offered to the model; None when there are none
        to offer, or once the model has refused them (remembered for the run: it is not offered
        them again)."""
        self._gate = TurnGate()
        """The turn in progress's: whether it may still be withdrawn."""

    @property
    def pending_question(self) -> ConflictQuestion | ValueQuestion | None:
        """The question awaiting an answer (which fact is current, or a missing value), if any."""
        return self._pending

    def respond(self, heard: HeardUtterance, gate: TurnGate | None = None) -> Iterator[ReplyPart]:
        """The reply to one utterance, part by part, as soon as each part is known.

        ``gate``: the turn may be withdrawn through it while it waits for the model (its speaker
        went on); the consumer commits it before passing on a part that is not a note. A withdrawn
        turn stops with :class:`TurnWithdrawn`, or where it was closed, leaving the questions
        it would have answered (the memory's and the schedule desk's) still open.
        """
        self._gate = gate or TurnGate()
        kept = (self._pending, self._just_stored, self._last_turn_t)
        desk_question = self.desk.question if self.desk is not None else None
        try:
            yield from self._respond(heard)
        except (TurnWithdrawn, GeneratorExit):
            if self._gate.phase is TurnPhase.WITHDRAWN:
                self._pending, self._just_stored, self._last_turn_t = kept
                if self.desk is not None:
                    self.desk.ask_again(desk_question)
            raise

    def _respond(self, heard: HeardUtterance) -> Iterator[ReplyPart]:
        if heard.wake is not None and not (yield from self._arbitrate(heard)):
            return
        if self.learner is not None:
            yield from self.learner.collect(self.history)
        card_state = self.cards.current()
        self.card = card_state.card
        if card_state.announce:
            yield Note("error", {"what": "personality card", "message": card_state.announce})
            yield Sentence(card_state.announce)
        try:
            yield from self._reply(heard, card_state.card)
        except MemoryUnavailable as error:
            # A call no step expected to fail (marking a question asked after the answer, say):
            # the turn ends here, and what was said stays said.
            if (yield from self._lost(error)):
                yield Sentence(f"{UNREACHABLE}.")

    def _reply(self, heard: HeardUtterance, card: PersonalityCard) -> Iterator[ReplyPart]:
        pending, self._pending = self._pending, None
        just_stored, self._just_stored = self._just_stored, None
        asked_at, self._last_turn_t = self._last_turn_t, heard.t
        if asked_at is not None and not self._in_answer_time(heard, asked_at):
            # Long after the question, with the wake word: a new request, whatever its words
            # ("what time is it now?" is no "the new one"). The conflict stays in the memory,
            # to be asked again; the schedule's question is simply dropped.
            if pending is not None:
                yield Note("question_expired", {"asked": pending.text()})
            pending = None
            if self.desk is not None:
                self.desk.ask_again(None)
        parts, done = self._answer_pending(pending, heard, just_stored)
        yield from parts
        if done:
            return
        if (
            just_stored is not None
            and not isinstance(pending, ConflictQuestion)  # its corrections were weighed above
            and self._may_correct(just_stored, heard)
        ):
            correction = parse_correction(as_meant(heard.text, heard.spelled))
            if correction is not None:
                yield from self._correct(just_stored, correction, heard)
                return
        taken = self.desk.take(heard) if self.desk is not None else None
        if taken is not None:
            yield from taken
            return
        if self.home is not None and (home_reply := self.home.take(heard)) is not None:
            yield from self._said_by_home(heard, home_reply)
            return
        command = parse_voice_command(heard.text)
        if command is not None:
            handlers = {
                CommandKind.REMEMBER: self._remember,
                CommandKind.FORGET: self._forget,
                CommandKind.RECALL: self._recall_aloud,
            }
            yield from handlers[command.kind](command.subject, heard)
            return
        yield from self._ask_model(heard, card)

    def _answer_pending(
        self,
        pending: ConflictQuestion | ValueQuestion | None,
        heard: HeardUtterance,
        just_stored: _JustStored | None,
    ) -> tuple[list[ReplyPart], bool]:
        """What to say when a question was pending, and whether that answers the turn."""
        if isinstance(pending, ConflictQuestion):
            return self._answer_conflict(pending, heard, just_stored)
        if isinstance(pending, ValueQuestion):
            if parse_voice_command(heard.text) is None:
                value = answer_value(as_meant(heard.text, heard.spelled))
                if value is not None:
                    return list(self._take_value(pending, value, heard)), True
                if pending.tries < MAX_VALUE_TRIES and len(heard.text.split()) <= 3:
                    # Misheard again ("then"): once more, with a way to make it easier.
                    again = replace(pending, tries=pending.tries + 1)
                    return list(
                        self._ask_value(again, "Sorry, I didn't catch that. You can spell it.")
                    ), True
            return [Note("value_unanswered", {"asked": pending.text(), "heard": heard.text})], False
        return [], False

    def _answer_conflict(
        self, pending: ConflictQuestion, heard: HeardUtterance, just_stored: _JustStored | None
    ) -> tuple[list[ReplyPart], bool]:
        """An answer to a conflict question: a choice when the words or the audio make one;
        else, for a newer fact just stored, a correction of it ("Now you say Enax": "No, I said
        Emacs", "E M A C S"), after which the question is asked again with the value meant."""
        newer = just_stored if just_stored and just_stored.fact_id == pending.newer.id else None
        choice = pending.interpret(heard.text, _choice_scores(heard))
        if choice is None:
            correction = parse_correction(as_meant(heard.text, heard.spelled))
            meant = correction.right if correction is not None else None
            if meant is not None and newer is not None and pending.is_set_right_by(meant):
                assert correction is not None
                if corrected_statement(newer.text, correction).casefold() != newer.text.casefold():
                    return list(self._correct(newer, correction, heard)), True
                choice = Choice.NEWER  # the value as stored, said again: "No, I said Emacs"
            elif meant is not None:
                choice = pending.interpret(meant)  # spelled: "V I M" names Vim
        if choice is None:
            return [
                Note("conflict_unanswered", {"facts": [pending.older.id, pending.newer.id]})
            ], False
        if choice is Choice.NEWER and newer is not None:
            # Chosen, and still open to "No, I said ..." in the next breath: the ear may have
            # heard the value the same wrong way twice ("No, I said angry").
            self._just_stored = replace(newer, t=heard.t)
        return list(self._settle(pending, choice)), True

    def _said_by_home(self, heard: HeardUtterance, parts: list[ReplyPart]) -> Iterator[ReplyPart]:
        """Home Assistant's answer, kept in the conversation so the model knows what was done."""
        said = " ".join(part.text for part in parts if isinstance(part, Sentence))
        self.history.add(heard.text, said)
        yield from parts

    def close(self) -> None:
        """Close what the brain holds open: the learner, the memory, the model client, the
        schedule desk's store and the link to Home Assistant (on the brain's own thread)."""
        if self.learner is not None:
            self.learner.close()
        self.memory.close()
        self.client.close()
        if self.desk is not None:
            self.desk.close()
        if self.home is not None:
            self.home.close()

    # -- routines --------------------------------------------------------------------------------

    def run_routine(self, ask: RoutineAsk) -> Iterator[ReplyPart]:
        """A routine's turn: its prompt to the model and the answer said (a silent one's only
        recorded). A model that gives no answer is reported in the ``RoutineResult``, not said:
        the schedule tries again later and says once if it gives up."""
        self._gate = TurnGate()  # nobody speaks a routine: it is never withdrawn
        card = self.cards.current().card
        self.card = card
        recall = self.memory.recall(ask.prompt)
        situation = self.desk.prompt_lines(ask.t) if self.desk is not None else ()
        system = build_system_prompt(card, recall, None, (*situation, ROUTINE_LINE))
        messages = [ChatMessage("system", system), ChatMessage("user", ask.prompt)]
        said: list[str] = []
        try:
            for part in self._model_reply(lambda _abilities: messages, card, said):
                if not ask.silent or not isinstance(part, Sentence):
                    yield part
        except ModelError as error:
            if not said:  # nothing reached the room: it may be tried again without repeating
                log.info("routine %d got no answer: %s", ask.item_id, error)
                yield RoutineResult(ask.item_id, failure=str(error), spoken_failure=error.spoken)
                return
            log.info("routine %d was cut short: %s", ask.item_id, error)
        text = " ".join(said)
        if ask.silent:
            log.info("routine %d (silent): %s", ask.item_id, text)
        yield Note("routine_result", {"item_id": ask.item_id, "text": text, "silent": ask.silent})
        yield RoutineResult(ask.item_id, text)

    # -- the model -------------------------------------------------------------------------------

    def _ask_model(self, heard: HeardUtterance, card: PersonalityCard) -> Iterator[ReplyPart]:
        recall = yield from self._recall_for_prompt(heard.text)

        def prompt(abilities: str) -> list[ChatMessage]:
            desk = self.desk
            if desk is not None:
                situation = desk.prompt_lines(heard.t, abilities)
            else:  # no clock to tell; the tools' line still is, the schedule's refusal is not
                situation = (abilities,) if abilities != CAPABILITIES else ()
            system = build_system_prompt(card, recall, self.history.summary, situation)
            return [
                ChatMessage("system", system),
                *self.history.messages(),
                ChatMessage("user", heard.text),
            ]

        said: list[str] = []
        try:
            yield from _with_words(self._model_reply(prompt, card, said, heard.t), said)
        except ModelError as error:
            # Spoken, and in the event stream; the log keeps the detail for a person reading it.
            log.info("reply failed: %s", error)
            # What was already said stays said; the rest of the sentence in progress is dropped.
            yield Note("error", {"what": "model", "kind": type(error).__name__,
                                 "message": str(error)})  # fmt: skip
            yield Sentence(error.spoken)
        self._gate.commit()  # an answer with no words is still the exchange to remember
        reply = " ".join(said)
        self.history.add(heard.text, reply)
        if self.learner is not None:
            self.learner.submit(heard.text, reply, self.history)
        yield from self._ask_about_recalled_conflict(recall)

    def _standing(self) -> tuple[str, ...]:
        """The names of the schedule's items still to come (none without a schedule)."""
        return self.desk.standing_names() if self.desk is not None else ()

    def _model_reply(
        self,
        prompt: Callable[[str], list[ChatMessage]],
        card: PersonalityCard,
        said: list[str],
        t: float | None = None,
    ) -> Iterator[ReplyPart]:
        """The model's answer sentence by sentence, within its deadlines and its spoken budget;
        what is said is also added to ``said``. Past the budget the model is no longer read,
        and the card's note says the rest was left out.

        ``prompt`` makes the messages, given the line saying what the model can do. Given ``t``
        (the audio time calls act at), the schedule's tools are offered: the calls the model
        makes are carried out and their results sent back, until it answers in words. A model
        that refuses tools is asked again without them, told it cannot act. A sentence claiming
        an action is said only when a tool call of this turn acted.
        """
        tools = self.tools if t is not None else None
        messages = prompt(tools.abilities if tools is not None else CAPABILITIES)
        self._gate.await_model()  # withdrawable until it says or does something
        speech = _Speech(SpokenBudget(self.policy.reply_max_chars), said, self._standing)
        held: list[ReplyPart] = []  # a question a tool's action asked, opened after the answer
        rounds = 0
        while True:
            offered = tools if rounds < MAX_TOOL_ROUNDS else None
            calls: list[ToolCall] = []
            try:
                yield from self._model_round(messages, offered, speech, calls)
            except ToolsUnsupported as error:
                if offered is None or said:
                    raise
                log.warning("%s: asking again without tools, told it cannot act", error)
                self.tools = tools = None
                yield Note("model_tools", {"supported": False, "model": error.model})
                messages = prompt(CAPABILITIES)
                continue
            if not calls or speech.budget.exhausted or offered is None:
                break  # answered in words (or calls it was not offered tools for: none run)
            assert t is not None  # tools are offered only with a time to act at
            self._gate.commit()  # the calls act before anything is said
            rounds += 1
            results = []
            for call, refused in zip(calls, refusals(calls), strict=True):
                if refused is None:
                    outcome = offered.run(call.name, call.arguments, t)
                else:
                    outcome = ToolOutcome(refused)
                kind = offered.kind_of(call.name)
                if outcome.acted and kind is not None:
                    speech.acted.add(kind)
                fields = {"name": call.name, "arguments": dict(call.arguments)}
                yield Note("tool_call", {**fields, "result": outcome.text, "acted": outcome.acted})
                for part in outcome.parts:
                    if isinstance(part, AwaitAnswer):
                        held[:] = [part]
                    else:
                        yield part
                results.append(
                    ChatMessage("tool", outcome.text, tool_name=call.name, tool_call_id=call.id)
                )
            text = " ".join(speech.round_text)
            messages = [*messages, ChatMessage("assistant", text, tuple(calls)), *results]
        budget = speech.budget
        if budget.exhausted:
            log.info("reply cut short after %d characters", budget.used)
            yield Note("reply_cut", {"said_chars": budget.used,
                                     "max_chars": budget.max_chars})  # fmt: skip
            yield Sentence(card.cut_short)
            return
        yield from held

    def _model_round(
        self,
        messages: list[ChatMessage],
        tools: Toolbox | None,
        speech: _Speech,
        calls: list[ToolCall],
    ) -> Iterator[ReplyPart]:
        """One request to the model: its sentences said as they come, its tool calls kept."""
        deadline = self.client.deadline()
        self._gate.on_withdraw(deadline.call_off)
        splitter = IncrementalSentenceSplitter()
        speech.round_text = []
        offered = tools.schemas if tools is not None else ()
        stream = self.client.chat_stream(messages, deadline, tools=offered)
        try:
            for piece in stream:
                if isinstance(piece, ToolCall):
                    calls.append(piece)
                    continue
                for sentence in splitter.feed(piece):
                    deadline.sentence_done()
                    yield from speech.say(sentence)
                    if speech.budget.exhausted:
                        break
                if speech.budget.exhausted:
                    break
        finally:
            stream.close()  # stops reading: a repetition loop is not read to its end
        if not speech.budget.exhausted:
            for sentence in splitter.flush():
                yield from speech.say(sentence)

    def _ask_about_recalled_conflict(self, recall: Recall) -> Iterator[ReplyPart]:
        """A disputed fact came up: ask which is current, at most once per ask-again period."""
        now = time.time()
        by_id = {item.fact.id: item.fact for item in recall.facts}
        for item in recall.facts:
            fact = item.fact
            for other_id in fact.conflicts_with:
                other = by_id.get(other_id)
                if other is None or other.id < fact.id:
                    continue
                asked = max(fact.last_asked_at or 0.0, other.last_asked_at or 0.0)
                if now - asked < self.policy.ask_again_seconds:
                    continue
                yield from self._ask(ConflictQuestion(fact, other))
                return

    # -- the household -------------------------------------------------------------------------

    def _arbitrate(self, heard: HeardUtterance) -> Generator[ReplyPart, None, bool]:
        """Whether this Hearth answers a request after a wake word: False when another heard
        the wake word better (said in the event stream only)."""
        if self.arbiter is None:
            return True
        verdict = self.arbiter.verdict(heard)
        yield Note(f"wake_{verdict.outcome.value}", verdict.record(self.arbiter.device))
        if not verdict.answers:
            log.info("%s heard that wake word better and answers it", verdict.winner)
            yield Defer()
        return verdict.answers

    # -- the memory out of reach -----------------------------------------------------------------

    def _recall_for_prompt(self, text: str) -> Generator[ReplyPart, None, Recall]:
        """What the memory recalls for the prompt; nothing when it cannot be reached (the
        question is answered all the same, and the person hears once why without memory)."""
        try:
            recall = self.memory.recall(text)
        except MemoryUnavailable as error:
            if (yield from self._lost(error)):
                yield Sentence(WITHOUT_MEMORY)
            return Recall((), None)
        yield from self._reached()
        return recall

    def _lost(self, error: MemoryUnavailable) -> Generator[ReplyPart, None, bool]:
        """A memory call failed for want of the database; True when that is news."""
        news = self.reach.lost()
        if news:
            log.warning("the memory cannot be reached: %s", error)
            yield Note("memory_unreachable", {"message": str(error)})
        return news

    def _reached(self) -> Iterator[ReplyPart]:
        if self.reach.reached():
            log.info("the memory can be reached again")
            yield Note("memory_back", {})

    def _unwritable(self, error: StoreError, couldnt: str) -> Iterator[ReplyPart]:
        """A write the memory refused (a full disk, a damaged file): said plainly, the detail
        in the event stream and the log, instead of the turn's generic apology."""
        log.error("%s: %s", couldnt, error)
        yield Note("error", {"what": "memory", "message": str(error)})
        yield Sentence(f"{couldnt}: my memory can't be written to right now. The log says why.")

    def _refuse(self, error: MemoryUnavailable, cannot: str) -> Iterator[ReplyPart]:
        """A request that needs the memory was not done: said aloud every time, never
        acknowledged and kept nowhere (the database is the only safe place for it)."""
        yield from self._lost(error)
        yield Note("memory", {"action": "refused", "reason": "unreachable", "request": cannot})
        yield Sentence(refusal(cannot))

    # -- conflicts -------------------------------------------------------------------------------

    def _ask(self, question: ConflictQuestion) -> Iterator[ReplyPart]:
        self._pending = question
        self.memory.mark_asked([question.older.id, question.newer.id])
        text = question.text()
        yield Note("conflict_question", {"facts": [question.older.id, question.newer.id],
                                         "text": text})  # fmt: skip
        yield Sentence(text)
        phrases = {choice.value: phrase for choice, phrase in question.answer_phrases().items()}
        # Letters too: the newer value may be spelled right ("E M A C S") in answer.
        yield AwaitAnswer(phrases, question.hotwords(), spelling=True)

    def _settle(self, question: ConflictQuestion, choice: Choice) -> Iterator[ReplyPart]:
        older, newer = question.older, question.newer
        try:
            # Only the fact the question named loses: another room may have asked about another.
            if choice is Choice.OLDER:
                self.memory.resolve(older.id, over=[newer.id])
                said = f"Got it: {question.older_value} it is."
            elif choice is Choice.NEWER:
                self.memory.resolve(newer.id, over=[older.id])
                said = f"Got it: {question.newer_value} it is."
            elif choice is Choice.BOTH:
                self.memory.keep_both(older.id, newer.id)
                said = "Okay, I'll keep both."
            else:
                said = "Okay, I'll ask you another time."
        except MemoryInputError as error:
            # The conflict changed meanwhile (settled in another room, or from the command line).
            log.info("conflict answer no longer applies: %s", error)
            yield Sentence("That one is already settled.")
            return
        except MemoryUnavailable as error:
            yield from self._refuse(error, "settle that")
            return
        yield Note("memory", {"action": f"resolve_{choice.value}",
                              "facts": [older.id, newer.id]})  # fmt: skip
        yield Sentence(said)

    # -- local commands --------------------------------------------------------------------------

    def _remember(self, statement: str, heard: HeardUtterance) -> Iterator[ReplyPart]:
        prefix = missing_value(statement)
        if prefix is not None:
            # "My favourite editor is then": the ear lost the value; storing it would keep a
            # fact that says nothing. Ask for the missing part instead.
            yield Note("memory", {"action": "value_missing", "heard": statement})
            yield from self._ask_value(ValueQuestion(prefix, utterance=heard.text))
            return
        yield from self._store(statement, heard, Source(Origin.USER, heard.text, statement))

    def _store(self, statement: str, heard: HeardUtterance, source: Source) -> Iterator[ReplyPart]:
        try:
            outcome = self.memory.remember(statement, guess_kind(statement), source, pinned=True)
        except MemoryInputError as error:
            yield Note("error", {"what": "memory", "message": str(error)})
            yield Sentence("I couldn't remember that.")
            return
        except MemoryUnavailable as error:
            yield from self._refuse(error, "remember that")
            return
        except StoreError as error:
            yield from self._unwritable(error, "I couldn't remember that")
            return
        yield from self._reached()
        yield Note("memory", _outcome_fields(outcome))
        self._just_stored = _JustStored(outcome.fact.id, outcome.fact.text or statement, heard.t)
        if outcome.conflicts:
            yield from self._ask(ConflictQuestion(outcome.conflicts[0], outcome.fact))
            return
        said = to_second_person(outcome.fact.text or statement)
        if outcome.action is Action.MERGED:
            yield Sentence(f"I know. {said}.")
        else:
            yield Sentence(f"Okay, I'll remember that {mid_sentence(said)}.")
        yield AwaitAnswer({}, (), spelling=True)  # a misheard name may be spelled right next

    # -- setting a misheard fact right -----------------------------------------------------------

    def _may_correct(self, stored: _JustStored, heard: HeardUtterance) -> bool:
        return self._in_answer_time(heard, stored.t)

    def _in_answer_time(self, heard: HeardUtterance, since: float) -> bool:
        """Whether ``heard`` may answer (or correct) what the turn that ended at ``since`` asked
        (or stored): a follow-up in its window, or a request soon after it."""
        within = 0 <= heard.t - since <= self.policy.answer_window_seconds
        return heard.via is Via.FOLLOW_UP or within

    def _correct(
        self, stored: _JustStored, correction: Correction, heard: HeardUtterance
    ) -> Iterator[ReplyPart]:
        if correction.right is None:  # "That's wrong." Then what is right?
            question = ValueQuestion(value_prefix(stored.text), stored.fact_id, heard.text)
            yield from self._ask_value(question, "Sorry.")
            return
        text = corrected_statement(stored.text, correction)
        if text.casefold() == stored.text.casefold():
            # The ear made the same mistake twice: saying "sorry" and changing nothing would
            # pretend it was fixed. Ask for it another way instead.
            question = ValueQuestion(value_prefix(stored.text), stored.fact_id, heard.text)
            said = to_second_person(stored.text)
            yield from self._ask_value(
                question, f"I still hear {mid_sentence(said)}. Could you say it another way?"
            )
            return
        yield from self._apply_correction(stored.fact_id, text, heard)

    def _apply_correction(
        self, fact_id: int, text: str, heard: HeardUtterance
    ) -> Iterator[ReplyPart]:
        source = Source(Origin.USER, utterance=heard.text, evidence=text)
        try:
            outcome = self.memory.correct(fact_id, text, source, guess_kind(text))
        except MemoryInputError as error:
            log.info("correction no longer applies: %s", error)
            yield Note("error", {"what": "memory", "message": str(error)})
            yield Sentence("I couldn't change that one.")
            return
        except MemoryUnavailable as error:
            yield from self._refuse(error, "change that")
            return
        except StoreError as error:
            yield from self._unwritable(error, "I couldn't change that")
            return
        yield Note("memory", _outcome_fields(outcome))
        self._just_stored = _JustStored(outcome.fact.id, outcome.fact.text or text, heard.t)
        if outcome.conflicts:
            yield from self._ask(ConflictQuestion(outcome.conflicts[0], outcome.fact))
            return
        said = to_second_person(outcome.fact.text or text)
        yield Sentence(f"Sorry about that. {said[:1].upper()}{said[1:]}.")

    def _ask_value(self, question: ValueQuestion, before: str | None = None) -> Iterator[ReplyPart]:
        self._pending = question
        text = question.text() if before is None else f"{before} {question.text()}"
        yield Note("value_question", {"text": text, "fact": question.fact_id})
        yield Sentence(text)
        yield AwaitAnswer({}, (), spelling=True)  # "V I M" is the surest way to say a name

    def _take_value(
        self, question: ValueQuestion, value: str, heard: HeardUtterance
    ) -> Iterator[ReplyPart]:
        statement = question.statement(value)
        if question.fact_id is not None:
            yield from self._apply_correction(question.fact_id, statement, heard)
            return
        utterance = f"{question.utterance} / {heard.text}"
        yield from self._store(statement, heard, Source(Origin.USER, utterance, statement))

    def _forget(self, description: str, heard: HeardUtterance) -> Iterator[ReplyPart]:
        try:
            fact = self.memory.find(description)
            if fact is not None:
                self.memory.forget(fact.id)
        except MemoryInputError:
            fact = None
        except MemoryUnavailable as error:
            yield from self._refuse(error, "forget that")
            return
        yield from self._reached()
        if fact is None:
            yield Sentence("I don't remember anything like that.")
            return
        text = fact.text or ""
        yield Note("memory", {"action": "forget", "fact": fact.id})
        yield Sentence(f"Okay, I've forgotten that {mid_sentence(to_second_person(text))}.")

    def _recall_aloud(self, subject: str, heard: HeardUtterance) -> Iterator[ReplyPart]:
        try:
            facts = (
                [item.fact for item in self.memory.recall(subject).facts]
                if subject and subject.lower() not in {"me", "us", "anything", "everything"}
                else self.memory.facts()
            )
        except MemoryUnavailable as error:
            yield from self._refuse(error, "tell you what I remember")
            return
        yield from self._reached()
        facts = facts[-MAX_FACTS_SPOKEN:] if not subject else facts[:MAX_FACTS_SPOKEN]
        if not facts:
            yield Sentence("I don't remember anything about that yet.")
            return
        yield Sentence("Here's what I remember.")
        for fact in facts:
            yield Sentence(to_second_person(fact.text or "") + ".")
        if any(fact.conflicts_with for fact in facts):
            yield Sentence("Some of that disagrees; tell me which is current.")


class _Speech:
    """What one model turn says: within its spoken budget, and no claim of an action that this
    turn did not take (said once as "I couldn't do that.", then left out)."""

    def __init__(
        self, budget: SpokenBudget, said: list[str], standing: Callable[[], Sequence[str]]
    ):
        self.budget = budget
        self.said = said
        self._standing = standing
        """The names of the schedule's items still to come, read only for a claim."""
        self.acted: set[ActionKind] = set()
        """What the tool calls of this turn changed (the stored schedule, a device)."""
        self.round_text: list[str] = []
        """The sentences of the request in progress (sent back with its tool calls)."""
        self._denied = False

    def say(self, sentence: str) -> Iterator[ReplyPart]:
        """The parts that say ``sentence`` (none past the budget, or for a second denial)."""
        self.round_text.append(sentence)
        standing = self._standing() if claims_action(sentence) else ()
        checked = backed(sentence, self.acted, standing)
        if checked != sentence:
            yield Note("claim_unbacked", {"text": sentence, "said": checked})
            if self._denied:
                return
            self._denied = True
        part = self.budget.take(checked)
        if part is not None:
            self.said.append(part)
            yield Sentence(part)


def _with_words(parts: Iterator[ReplyPart], said: list[str]) -> Iterator[ReplyPart]:
    """``parts``; then, when none of them said a word, "Done." if a tool call acted, else
    :data:`NO_WORDS` (added to ``said``, so the history holds an answer to the question)."""
    spoke = acted = False
    for part in parts:
        spoke = spoke or (isinstance(part, Sentence) and bool(speakable(part.text)))
        acted = acted or (isinstance(part, Note) and part.event == "tool_call"
                          and part.fields.get("acted") is True)  # fmt: skip
        yield part
    if not spoke:
        words = DONE if acted else NO_WORDS
        said.append(words)
        yield Sentence(words)


def _toolbox(desk: ScheduleDesk | None, home: HomeControl | None) -> Toolbox | None:
    """The tools there are something to back: the schedule's with a scheduler to ring them,
    the home's with Home Assistant configured."""
    sets: list[ToolSet] = []
    if desk is not None and desk.can_act:
        sets.append(ScheduleTools(desk))
    if home is not None:
        sets.append(HomeTools(home))
    return Toolbox(sets) if sets else None


def _choice_scores(heard: HeardUtterance) -> dict[Choice, float]:
    names = {choice.value for choice in Choice}
    return {Choice(name): score for name, score in heard.answer_scores.items() if name in names}


def _outcome_fields(outcome: RememberOutcome) -> dict[str, object]:
    return {
        "action": outcome.action.value,
        "fact": outcome.fact.id,
        "text": outcome.fact.text,
        "conflicts": [fact.id for fact in outcome.conflicts],
    }
