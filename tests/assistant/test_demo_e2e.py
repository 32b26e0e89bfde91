"""``hearth demo`` itself, end to end, as a newcomer runs it from the README: the scripted room said
by Piper into the real pipeline (wake word, VAD, Whisper, Piper), with the model served by the
tests' Ollama-protocol server on 127.0.0.1, and without one. The story must reach its end: the two
editors disagree, Hearth asks which is current, and the answer settles it. (Its exit code alone
once hid a story that stopped at "Your favorite editor is what?".)"""

from __future__ import annotations

import subprocess

import pytest

from memory import FactStatus, Memory
from tests.hearth_run import ROOT, hearth_command, hearth_environment

pytestmark = pytest.mark.slow

QUESTION = (
    "Earlier you told me your favorite editor is Vim; now you say Emacs. Which one is current?"
)


def run_demo(tmp_path, settings_yaml: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "settings.yaml"
    config.write_text(settings_yaml)
    return subprocess.run(
        hearth_command(config, tmp_path / "memory.db", "demo", "--output-dir", tmp_path / "out"),
        cwd=ROOT,
        env=hearth_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def facts_by_status(db) -> dict[str, FactStatus]:
    memory = Memory.open(db)
    try:
        return {fact.text: fact.status for fact in memory.facts(include_all=True)}
    finally:
        memory.close()


@pytest.mark.parametrize("served", [True, False], ids=["with-model", "model-unreachable"])
def test_the_demo_story_reaches_the_question_and_settles_it(tmp_path, ollama, served):
    url = ollama.url if served else "http://127.0.0.1:9"  # the discard port: nothing listens
    done = run_demo(tmp_path, f"ollama:\n  url: {url}\n")
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    printed = done.stdout
    assert "You (no wake word): And what about Uganda?" in printed, printed
    assert f"Hearth: {QUESTION}" in printed, printed
    assert "Hearth: Got it: Emacs it is." in printed, printed
    assert facts_by_status(tmp_path / "memory.db") == {
        "My favorite editor is Vim": FactStatus.SUPERSEDED,
        "My favorite editor is Emacs": FactStatus.ACTIVE,
    }
    assert (tmp_path / "out" / "conversation.wav").stat().st_size > 0
    if served:
        assert "Hearth: You asked: what is the capital of Kenya" in printed, printed
    else:
        assert "I can't reach the language model" in printed, printed
