"""The clock: the zone as a Pi sets it, the prompt's line, and the answers said with no model."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from assistant.schedule import (
    AudioClock,
    ClockQuestion,
    Now,
    ZoneError,
    clock_answer,
    prompt_line,
    system_zone_name,
    zone_named,
)
from assistant.schedule.from_settings import time_zone
from config import ConfigError, load_settings

LONDON = ZoneInfo("Europe/London")


def test_the_system_zone_comes_from_tz_first(tmp_path):
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/America/New_York")
    assert system_zone_name({"TZ": ":Europe/Lisbon"}, link, tmp_path / "none") == "Europe/Lisbon"
    assert system_zone_name({}, link, tmp_path / "none") == "America/New_York"


def test_the_system_zone_falls_back_to_etc_timezone_then_utc(tmp_path):
    copied = tmp_path / "localtime"
    copied.write_bytes(b"TZif")  # a copied file names no zone
    named = tmp_path / "timezone"
    named.write_text("Europe/Berlin\n")
    assert system_zone_name({}, copied, named) == "Europe/Berlin"
    assert system_zone_name({"TZ": "Not/AZone"}, copied, tmp_path / "none") == "UTC"


def test_an_unknown_zone_is_a_clear_error(tmp_path):
    with pytest.raises(ZoneError, match=r"unknown time zone 'Europe/Londn'.*IANA"):
        zone_named("Europe/Londn")
    with pytest.raises(ZoneError):
        zone_named("../../etc/passwd")
    bad = tmp_path / "bad.yaml"
    bad.write_text("clock:\n  timezone: Mars/Olympus\n")
    with pytest.raises(ConfigError, match=r"bad.yaml.*clock.timezone.*Mars/Olympus"):
        load_settings(bad, environ={}, search_path=[])


def test_the_setting_wins_over_the_system_zone(tmp_path):
    config = tmp_path / "zone.yaml"
    config.write_text("clock:\n  timezone: Asia/Tokyo\n")
    assert time_zone(load_settings(config, environ={}, search_path=[])).key == "Asia/Tokyo"


def at(text: str, zone: ZoneInfo = LONDON) -> Now:
    return Now(datetime.fromisoformat(text).replace(tzinfo=zone).timestamp(), 0.0, "b")


def test_the_prompt_line_carries_date_weekday_time_and_zone():
    assert prompt_line(at("2026-03-29T00:59"), LONDON) == (
        "It is now Sunday, 29 March 2026, 12:59 AM local time (Europe/London, UTC+00:00)."
    )
    assert prompt_line(at("2026-03-29T03:05"), LONDON) == (
        "It is now Sunday, 29 March 2026, 3:05 AM local time (Europe/London, UTC+01:00)."
    )
    new_york = ZoneInfo("America/New_York")
    assert "UTC-05:00" in prompt_line(at("2026-12-01T19:00", new_york), new_york)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (ClockQuestion.TIME, "It's 7:30 PM."),
        (ClockQuestion.DATE, "It's Tuesday, 1 December 2026."),
        (ClockQuestion.DAY, "It's Tuesday, 1 December."),
    ],
)
def test_clock_answers(question, said):
    assert clock_answer(question, at("2026-12-01T19:30"), LONDON) == said


def test_noon_and_midnight_are_said_as_people_say_them():
    assert clock_answer(ClockQuestion.TIME, at("2026-12-01T12:00"), LONDON) == "It's 12 PM."
    assert clock_answer(ClockQuestion.TIME, at("2026-12-01T00:05"), LONDON) == "It's 12:05 AM."


def test_a_recordings_clock_counts_audio_seconds_from_its_start():
    clock = AudioClock(1_000.0)
    assert clock.now(2.5) == Now(1_002.5, 2.5, clock.now(0).boot)
