"""Fixtures shared by the audio tests."""

from tests.audio.pulse import pulse  # noqa: F401 (a fixture, found by its name)
