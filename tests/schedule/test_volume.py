"""Volume by voice: the desk changes Hearth's output level, keeps it beside the memory, and says
the result; the pure rules of what each request does and what is said."""

from __future__ import annotations

import pytest

from assistant.output_levels import KeptLevels
from assistant.reply import HeardUtterance, Note, Sentence, VolumeSet
from assistant.schedule import (
    AudioClock,
    ScheduleDesk,
    ScheduleStore,
    Volume,
    VolumeChange,
    changed_level,
    volume_said,
)
from audio import OutputLevel
from tests.schedule.test_desk import LONDON, SATURDAY_5PM


@pytest.fixture
def levels(database):
    kept = KeptLevels(lambda: ScheduleStore.open(database))
    yield kept
    kept.close()


def desk_with(levels: KeptLevels) -> ScheduleDesk:
    # No scheduler: the volume is the desk's even before anything can ring.
    return ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON, volume=levels)


def test_set_the_volume_keeps_it_says_it_and_tells_the_voice(levels, database):
    parts = desk_with(levels).take(HeardUtterance("Set the volume to forty percent."))
    assert parts is not None
    assert [p for p in parts if isinstance(p, VolumeSet)] == [VolumeSet(OutputLevel(0.4))]
    assert [p.text for p in parts if isinstance(p, Sentence)] == ["Volume 40 percent."]
    note = next(p for p in parts if isinstance(p, Note))
    assert (note.event, note.fields["percent"], note.fields["kept"]) == ("volume", 40, True)
    # Another Hearth process (a restart) reads what was kept.
    again = KeptLevels(lambda: ScheduleStore.open(database))
    assert again.output() == OutputLevel(0.4)
    again.close()


def test_louder_quieter_mute_and_unmute_go_from_the_kept_level(levels):
    desk = desk_with(levels)
    levels.keep_output(OutputLevel(0.5))

    def said(text: str) -> tuple[OutputLevel, list[str]]:
        parts = desk.take(HeardUtterance(text)) or []
        (changed,) = [p.level for p in parts if isinstance(p, VolumeSet)]
        return changed, [p.text for p in parts if isinstance(p, Sentence)]

    assert said("Louder.") == (OutputLevel(0.6), ["Volume 60 percent."])
    assert said("Turn the volume down.") == (OutputLevel(0.5), ["Volume 50 percent."])
    assert said("Mute.") == (OutputLevel(0.5, muted=True), [])  # it would not be heard
    assert levels.output() == OutputLevel(0.5, muted=True)
    assert said("Turn the sound back on.") == (OutputLevel(0.5), ["Sound on, volume 50 percent."])


def test_without_a_place_to_keep_the_volume_the_request_is_not_the_desks():
    desk = ScheduleDesk(AudioClock(SATURDAY_5PM.timestamp()), LONDON)
    assert desk.take(HeardUtterance("Louder.")) is None


def test_a_store_that_cannot_be_used_still_changes_the_volume_and_says_so(tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    levels = KeptLevels(lambda: ScheduleStore.open(folder))  # a folder is no database
    parts = desk_with(levels).take(HeardUtterance("Set the volume to 30 percent.")) or []
    assert VolumeSet(OutputLevel(0.3)) in parts
    assert [p.text for p in parts if isinstance(p, Sentence)] == [
        "Volume 30 percent. I couldn't save it for later."
    ]
    assert levels.output() == OutputLevel(0.3)  # the last known holds


@pytest.mark.parametrize(
    ("old", "change", "new", "said"),
    [
        (OutputLevel(1.0), VolumeChange.UP, OutputLevel(1.0), "I'm already at full volume."),
        (OutputLevel(0.1), VolumeChange.DOWN, OutputLevel(0.1),
         "I'm as quiet as I go, volume 10 percent. Say mute to silence me."),
        (OutputLevel(0.1, True), VolumeChange.DOWN, OutputLevel(0.1), "Volume 10 percent."),
        (OutputLevel(0.6), VolumeChange.UNMUTE, OutputLevel(0.6),
         "I'm not muted, volume 60 percent."),
        (OutputLevel(0.6), VolumeChange.MUTE, OutputLevel(0.6, True), None),
    ],
)  # fmt: skip
def test_what_each_request_does_and_what_is_said(old, change, new, said):
    request = Volume(change)
    assert changed_level(old, request) == new
    assert volume_said(old, new, request) == said


def test_set_without_a_number_keeps_the_level():
    assert changed_level(OutputLevel(0.3, True), Volume(VolumeChange.SET)) == OutputLevel(0.3)
