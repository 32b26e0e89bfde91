"""The personality card: fields documented, edits taken at the next turn, bad edits survived."""

from __future__ import annotations

import os
import shutil

import pytest

from assistant.card_keeper import BAD_CARD_ANNOUNCEMENT, CardKeeper
from audio import default_voice_dirs, resolve_voice
from config import ConfigError, packaged_file
from config.personality import PersonalityCard, Teasing, load_card

PACKAGED = packaged_file("personality.yaml")


def write(path, text):
    path.write_text(text)
    # A coarse file system may keep the same mtime within one test; move it on explicitly.
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def test_the_packaged_card_is_valid_and_documents_every_field():
    card = load_card(PACKAGED)
    assert card.name == "Jarvis" and card.teasing is Teasing.LIGHT and card.examples
    text = PACKAGED.read_text()
    for field in PersonalityCard.model_fields:
        assert f"\n{field}:" in text, f"{field} is not in the packaged card"


def test_a_bad_card_names_file_line_and_field(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text("name: Ada\nteasing: sometimes\nmood: grumpy\n")
    with pytest.raises(ConfigError) as error:
        load_card(card)
    message = str(error.value)
    assert f"{card}, line 2: key 'teasing'" in message
    assert f"{card}, line 3: key 'mood': unknown key" in message


def test_edits_take_effect_and_a_bad_edit_keeps_the_last_good_card(tmp_path):
    card = tmp_path / "card.yaml"
    write(card, "name: Ada\n")
    keeper = CardKeeper(card)
    assert keeper.current().card.name == "Ada"
    write(card, "name: Bea\n")
    assert keeper.current().card.name == "Bea"
    write(card, "name: [\n")
    first = keeper.current()
    assert first.card.name == "Bea" and first.announce == BAD_CARD_ANNOUNCEMENT
    assert keeper.current().announce is None  # announced once, not at every turn
    write(card, "name: Cy\n")
    assert keeper.current() == keeper.current() and keeper.current().card.name == "Cy"


def test_a_bad_card_at_start_falls_back_to_the_packaged_one_and_says_so(tmp_path):
    card = tmp_path / "card.yaml"
    card.write_text("teasing: often\n")
    state = CardKeeper(card).current()
    assert state.card.name == "Jarvis" and state.announce == BAD_CARD_ANNOUNCEMENT


def test_a_removed_card_keeps_the_last_good_one(tmp_path):
    card = tmp_path / "card.yaml"
    write(card, "name: Ada\n")
    keeper = CardKeeper(card)
    keeper.current()
    card.unlink()
    state = keeper.current()
    assert state.card.name == "Ada" and state.announce == BAD_CARD_ANNOUNCEMENT


@pytest.mark.parametrize(
    ("edit", "why"),
    [
        ("", "the card is empty"),  # became the packaged Jarvis without a word
        ("name: Ada\nvoice:\n  piper_voice: en_GB-nosuch-medium\n", "en_GB-nosuch-medium"),
    ],
    ids=["emptied", "a voice not installed"],
)
def test_an_edit_that_would_silence_or_replace_hearth_keeps_the_last_good_card(
    tmp_path, caplog, edit, why
):
    card = tmp_path / "card.yaml"
    write(card, "name: Bea\n")
    keeper = CardKeeper(card)
    assert keeper.current().card.name == "Bea"
    write(card, edit)
    state = keeper.current()
    assert state.card.name == "Bea" and state.announce == BAD_CARD_ANNOUNCEMENT
    assert why in caplog.text


def test_a_voice_installed_after_the_card_named_it_is_taken_without_an_edit(tmp_path):
    card = tmp_path / "card.yaml"
    voice = tmp_path / "voices" / "joe.onnx"
    write(card, "name: Bea\n")
    keeper = CardKeeper(card)
    keeper.current()
    write(card, f"name: Ada\nvoice:\n  piper_voice: {voice}\n")
    assert keeper.current().card.name == "Bea"  # not installed yet: the last good card
    installed = resolve_voice("en_US-joe-medium", default_voice_dirs())
    voice.parent.mkdir()
    shutil.copy(installed, voice)
    shutil.copy(f"{installed}.json", f"{voice}.json")
    assert keeper.current().card.name == "Ada"  # the fix was installing it, not an edit
