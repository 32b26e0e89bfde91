"""The reply ledger as pure code: said once and in order, re-sent after a restart, owed replies,
and a sentence that killed the voice process twice not sent into the same fault again."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from assistant.reply import AwaitAnswer, HeardUtterance
from assistant.reply_ledger import CONTEXT_CHARS, DROPPED_NOTE, ReplyLedger
from audio import FinishReply, Speak


def ask(ledger: ReplyLedger, text: str = "What is the capital of Kenya?") -> int:
    return ledger.open(HeardUtterance(text, t=3.0))


def say(ledger: ReplyLedger, reply: int, *texts: str) -> list[Speak]:
    said = [ledger.say(reply, text, None, None) for text in texts]
    assert all(said)
    return said  # type: ignore[return-value]


def test_sentences_are_numbered_in_order_and_a_reply_ends_with_its_context():
    ledger = ReplyLedger()
    reply = ask(ledger)
    first, second = say(ledger, reply, "Nairobi.", "It is large.")
    assert (first.job, second.job) == (1, 2) and first.reply == second.reply == reply
    finish = ledger.end(reply)
    context = "What is the capital of Kenya? Nairobi. It is large."
    assert finish == FinishReply(reply, context=context)
    assert ledger.owed() == (reply,) and not ledger.idle
    ledger.spoken(first.job)
    ledger.spoken(second.job)
    assert ledger.idle and ledger.owed() == ()


def test_a_closed_question_carries_its_answers_and_the_context_is_bounded():
    ledger = ReplyLedger()
    reply = ask(ledger, "x" * 1000)
    say(ledger, reply, "Which one is current?")
    ledger.await_answer(reply, AwaitAnswer({"newer": "The new one"}, ("Emacs", "Vim")))
    finish = ledger.end(reply)
    assert finish is not None
    assert finish.answer_phrases == {"newer": "The new one"}
    assert finish.hotwords == ("Emacs", "Vim")
    assert len(finish.context) == CONTEXT_CHARS and finish.context.endswith("current?")


def test_after_a_restart_what_was_not_said_is_sent_again_in_order_then_the_ends():
    ledger = ReplyLedger()
    kenya, uganda = ask(ledger), ask(ledger, "And Uganda?")
    one, two = say(ledger, kenya, "Nairobi.", "It is large.")
    three = say(ledger, uganda, "Kampala.")[0]
    finish = ledger.end(kenya)
    ledger.spoken(one.job)
    assert ledger.resend() == [two, three, finish]
    assert ledger.owed() == (kenya, uganda)
    ledger.spoken(two.job)
    assert ledger.resend() == [three]  # Kenya said in full: forgotten
    assert ledger.owed() == (uganda,)


def test_parts_for_a_reply_that_is_complete_or_unknown_are_refused():
    ledger = ReplyLedger()
    reply = ask(ledger)
    ledger.end(reply)
    assert ledger.say(reply, "Late.", None, None) is None
    assert ledger.end(reply) is None
    assert ledger.say(99, "Nobody asked.", None, None) is None
    assert ledger.idle


def test_unanswered_replies_are_the_open_ones_the_brain_has_not_ended():
    ledger = ReplyLedger()
    first, second, third = ask(ledger, "one"), ask(ledger, "two"), ask(ledger, "three")
    say(ledger, first, "Said.")
    ledger.end(first)
    unanswered = [(n, heard.text) for n, heard in ledger.unanswered()]
    assert unanswered == [(second, "two"), (third, "three")]


def test_an_abandoned_reply_ends_with_the_apology_after_what_was_already_said():
    ledger = ReplyLedger()
    reply = ask(ledger)
    said = say(ledger, reply, "Nairobi.")[0]
    commands = ledger.abandon(reply, "Sorry, I got stuck.")
    speak, finish = commands
    assert isinstance(speak, Speak) and speak.text == "Sorry, I got stuck." and speak.job == 2
    assert isinstance(finish, FinishReply) and finish.reply == reply
    assert ledger.resend() == [said, speak, finish]
    assert ledger.unanswered() == []
    assert ledger.abandon(reply, "Again?") == []  # once


def test_a_sentence_in_the_making_when_the_voice_died_twice_is_replaced_by_a_note():
    ledger = ReplyLedger()
    reply = ask(ledger)
    one, two, three = say(ledger, reply, "Fine.", "And then the river " * 50, "Bye.")
    finish = ledger.end(reply)
    ledger.spoken(one.job)
    assert ledger.voice_died(two.job) is None  # once: sent again
    assert ledger.resend() == [two, three, finish]
    dropped = ledger.voice_died(two.job)  # twice: not into the same fault a third time
    assert dropped is not None and (dropped.job, dropped.text) == (two.job, two.text)
    assert dropped.note == Speak(two.job, reply, DROPPED_NOTE)
    assert ledger.resend() == [dropped.note, three, finish]  # in its place, the order kept
    assert ledger.voice_died(two.job) is None  # the note itself starts afresh


def test_deaths_count_per_sentence_and_only_for_sentences_still_unsaid():
    ledger = ReplyLedger()
    reply = ask(ledger)
    one, two = say(ledger, reply, "First.", "Second.")
    assert ledger.voice_died(one.job) is None
    assert ledger.voice_died(two.job) is None  # a different sentence: its own first death
    assert ledger.voice_died(None) is None  # died while not making speech
    ledger.spoken(one.job)
    assert ledger.voice_died(one.job) is None  # said after all: nothing to drop
    assert ledger.resend() == [two]


@given(st.lists(st.sampled_from(["say0", "say1", "say2", "ack", "end0", "end1"]), max_size=40))
def test_every_sentence_is_said_once_and_in_order_however_restarts_fall(steps):
    """Sentences of three replies, ends and acknowledgements in any order, a new voice process
    after each acknowledgement: what each one is sent starts with the next unsaid sentence, so
    what is said, in all, is every sentence once, in the order it was made."""
    ledger = ReplyLedger()
    replies = [ask(ledger, f"q{n}") for n in range(3)]
    made: list[int] = []
    said: list[int] = []
    for step in steps:
        if step.startswith("say"):
            speak = ledger.say(replies[int(step[3])], f"s{len(made)}", None, None)
            made += [speak.job] if speak else []
        elif step.startswith("end"):
            ledger.end(replies[int(step[3])])
        elif pending := [c for c in ledger.resend() if isinstance(c, Speak)]:
            ledger.spoken(pending[0].job)
            said.append(pending[0].job)
    while pending := [c for c in ledger.resend() if isinstance(c, Speak)]:
        ledger.spoken(pending[0].job)
        said.append(pending[0].job)
    assert said == made
    finished = {c.reply for c in ledger.resend() if isinstance(c, FinishReply)}
    assert finished == set()  # every ended reply whose sentences are said is forgotten


def test_an_announcement_is_owed_until_said_sent_again_after_a_restart_and_ends_no_reply():
    ledger = ReplyLedger()
    reply = ask(ledger)
    answer = say(ledger, reply, "Nairobi.")[0]
    news = ledger.announce("The washing machine has finished.", "joe", 1.1)
    assert news == Speak(news.job, news.reply, "The washing machine has finished.", "joe", 1.1,
                         announcement=True)  # fmt: skip
    assert news.job > answer.job and news.reply != reply  # its own: a barge-in cuts only it
    assert ledger.owed() == (reply,)  # no voice process waits for an announcement's end
    assert ledger.resend() == [answer, news]
    ledger.spoken(answer.job)
    ledger.end(reply)
    assert not ledger.idle  # a recording's run waits for the announcement to be said
    ledger.spoken(news.job)
    assert ledger.idle and ledger.resend() == []


def test_an_announcement_that_killed_the_voice_twice_is_replaced_by_a_note_said_as_one():
    ledger = ReplyLedger()
    news = ledger.announce("Dinner is ready.", None, None)
    assert ledger.voice_died(news.job) is None
    dropped = ledger.voice_died(news.job)
    assert dropped is not None and dropped.note.text == DROPPED_NOTE
    assert dropped.note.announcement  # still held for a quiet moment, as the announcement was


def test_a_reply_with_nothing_sent_is_forgotten_when_its_turn_is_withdrawn():
    ledger = ReplyLedger()
    first = ask(ledger)
    say(ledger, first, "Nairobi.")
    assert not ledger.withdraw(first)  # something of it was sent: it stays
    second = ask(ledger, "What's the weather like?")
    assert ledger.newest() == second
    assert ledger.withdraw(second)
    assert ledger.newest() is None and ledger.owed() == (first,)
    assert ledger.say(second, "Sunny.", None, None) is None  # a late part is dropped
    assert ledger.end(second) is None
