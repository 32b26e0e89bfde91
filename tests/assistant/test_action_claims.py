"""The claim check: a sentence saying an action was taken is said only when one was."""

from __future__ import annotations

import pytest

from assistant.action_claims import NOT_DONE, ActionKind, backed, claims_action

CLAIMS = [
    "I've set a timer for seven minutes.",
    "I have set a seven minute timer for your eggs.",
    "I set a timer for you.",
    "I\u2019ve started a timer for the eggs.",  # a typographic apostrophe
    "Okay, I've gone ahead and set an egg timer.",
    "I'll give you a shout in seven minutes.",
    "I will remind you to call mum at seven.",
    "I'll let you know when the eggs are done.",
    "Timer set for seven minutes.",
    "Your reminder is set for 7 PM.",
    "The eggs timer has been started.",
    "Done, seven minutes it is.",
    "All set!",
    "I've cancelled the pasta timer.",
    "I've turned on the kitchen lights.",
    "I switched off the fan for you.",
    "I have dimmed the bedroom lamp to 40%.",
    "The kitchen lights are now on.",
    "The heating has been turned off.",
    "Brightness set to 40 percent.",
    "I've locked the back door.",
    "I've announced that dinner is ready.",
]

NOT_CLAIMS = [
    "You could set a timer for seven minutes.",
    "Eggs take about seven minutes to boil.",
    "Say: set a timer for seven minutes.",
    "I can't set timers myself.",
    "Would you like me to set a timer?",
    "The capital of France is Paris.",
    "The kitchen lights are on.",  # a state, as Home Assistant reports it
    "Is the back door locked?",
    "You can turn on the lights by saying so.",
    "Shall I turn off the fan?",
]


@pytest.mark.parametrize("sentence", CLAIMS)
def test_a_claim_of_an_action_is_recognised(sentence):
    assert claims_action(sentence)


@pytest.mark.parametrize("sentence", NOT_CLAIMS)
def test_advice_and_questions_are_not_claims(sentence):
    assert not claims_action(sentence)


SCHEDULE, HOME = {ActionKind.SCHEDULE}, {ActionKind.HOME}


def test_a_claim_is_said_only_when_the_turn_acted():
    assert backed("I've set a timer for seven minutes.", acted=set()) == NOT_DONE
    assert backed("I've set a timer for seven minutes.", acted=SCHEDULE) == (
        "I've set a timer for seven minutes."
    )
    assert backed("Eggs take seven minutes.", acted=set()) == "Eggs take seven minutes."
    assert backed("I've turned on the kitchen lights.", acted=set()) == NOT_DONE


@pytest.mark.parametrize(
    ("sentence", "acted", "said"),
    [
        # A timer really set does not back a claim about the lights, nor the other way round.
        ("I've turned on the kitchen lights.", SCHEDULE, False),
        ("I've turned on the kitchen lights.", HOME, True),
        ("Timer set for seven minutes.", HOME, False),
        ("I'll give you a shout in seven minutes.", SCHEDULE, True),
        ("I've announced that dinner is ready.", HOME, False),  # an announcement is the schedule's
        ("I've announced that dinner is ready.", SCHEDULE, True),
        ("I've set a timer and turned on the lights.", SCHEDULE, False),
        ("I've set a timer and turned on the lights.", SCHEDULE | HOME, True),
        # A claim naming neither is backed by any action of the turn.
        ("Done, seven minutes it is.", HOME, True),
        ("All set!", set(), False),
    ],
)
def test_a_claim_is_backed_only_by_an_action_of_its_kind(sentence, acted, said):
    assert (backed(sentence, acted) == sentence) is said


@pytest.mark.parametrize(
    ("sentence", "standing", "said"),
    [
        # A report naming an item set in an earlier turn is true without a call this turn.
        ("Your pasta timer is set for eight minutes.", ["pasta"], True),
        ("Your reminder to water the tomatoes is set for 7 PM.", ["water the tomatoes"], True),
        # An unnamed report, or one naming no standing item, is how a pretence sounds.
        ("Timer set for seven minutes.", ["pasta"], False),
        ("Your eggs timer is set for seven minutes.", ["pasta"], False),
        ("Your pasta timer is set for eight minutes.", [], False),
        # A deed is this turn's: an earlier pasta timer does not back "I've set".
        ("I've set a pasta timer for eight minutes.", ["pasta"], False),
        # An alarm is named by its time, whole: both were said as "I couldn't do that."
        ("Your alarm is set for 7 AM.", ["7 am", "7:00 am"], True),
        ("Your alarm is set for 7:00 a.m. tomorrow.", ["7 am", "7:00 am"], True),
        ("Your alarm is set for 7 PM.", ["7 am", "7:00 am"], False),
        ("Your alarm is set for 11 PM.", ["1 pm", "1:00 pm"], False),  # not "1 PM"
        # That none stands is no claim at all (the tool's own words after list_alarms).
        ("You have no alarms set.", [], True),
        ("Your timer isn't set.", [], True),
        # A negative word elsewhere leaves a claim a claim.
        ("No problem, your timer is set for ten minutes.", [], False),
        ("Not a problem: alarm set for 6 AM.", [], False),
        ("Your timer is set for ten minutes, so don't worry.", [], False),
        # A reminder's own words with a digit in them name it by its words, as before.
        ("Your pills reminder is set for 8 PM.", ["take 2 pills"], True),
    ],
)
def test_a_report_of_a_standing_item_is_backed_by_the_item(sentence, standing, said):
    assert (backed(sentence, acted=set(), standing=standing) == sentence) is said
