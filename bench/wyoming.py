"""What speech over Wyoming costs beside the local models, and what a failing service costs
before the local fallback answers, measured in one run.

    python -m bench.wyoming [--rounds 3]

Both services run on this machine (``wyoming-faster-whisper`` with the same tiny.en model,
int8, beam 1; ``wyoming-piper`` with the same Joe voice), so the ratios are the protocol's own
cost (connection, events, the service's WAV file and resampling), not a bigger box's speed-up.
Transcription: the nine real recordings with a known text in ``shared/data/audio``. Synthesis:
six reply sentences. Fallback: the same recording with the service refusing connections (port
closed) and with it hung (SIGSTOP), under the default timeouts. Each figure is the median wall
time over --rounds rounds; the machine is shared, so compare ratios within the run.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from audio.remote import speech_to_text, text_to_speech
from audio.stt import SpeechToText
from audio.tts import SpeechParameters, TextToSpeech
from audio.wav import read_wav
from config import SpeechToTextSettings, TextToSpeechSettings
from tests.servers import free_port
from tests.wyoming_servers import faster_whisper_service, piper_service

RECORDINGS = ("harvard-spk1-1", "harvard-spk1-2", "harvard-spk1-3", "harvard-spk1-4",
              "harvard-spk1-5", "harvard-spk1-6", "harvard-birch-canoe", "harvard-frosty-air",
              "arithmetic-question")  # fmt: skip
SENTENCES = (
    "The kitchen light is on.", "Nairobi is the capital of Kenya.",
    "Your timer for the pasta has finished.", "It is twenty degrees in the living room.",
    "I have turned off the lights in the bedroom and the hall.", "Dinner is ready.",
)  # fmt: skip
PARAMS = SpeechParameters(variation=False)


def shared_audio() -> Path:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "data" / "audio" / "README.md").is_file():
            return parent / "shared" / "data" / "audio"
    raise SystemExit("shared/data/audio not found beside or above this checkout")


def median_seconds(work: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    audio = [read_wav(shared_audio() / f"{name}.wav") for name in RECORDINGS]
    folder = Path(tempfile.mkdtemp(prefix="hearth-bench-wyoming-"))
    whisper, piper = faster_whisper_service(folder).start(), piper_service(folder).start()
    try:
        local_stt = SpeechToText(SpeechToTextSettings())
        local_stt.load()
        remote_stt = speech_to_text(SpeechToTextSettings(backend="wyoming", uri=whisper.uri,
                                                         call_timeout_seconds=15))  # fmt: skip
        local_tts = TextToSpeech()
        local_tts.load(PARAMS.voice)
        remote_tts = text_to_speech(TextToSpeechSettings(backend="wyoming", uri=piper.uri,
                                                         call_timeout_seconds=15))  # fmt: skip
        for clip in audio[:2]:  # warm both sides
            local_stt.transcribe(clip)
            remote_stt.transcribe(clip)
        list(remote_tts.synthesize(SENTENCES[0], PARAMS))

        def hear_all(model) -> Callable[[], None]:
            return lambda: [model.transcribe(clip) for clip in audio]

        def say_all(model) -> Callable[[], None]:
            return lambda: [list(model.synthesize(s, PARAMS, starts_reply=False))
                            for s in SENTENCES]  # fmt: skip

        hear_local = median_seconds(hear_all(local_stt), rounds) / len(audio)
        hear_remote = median_seconds(hear_all(remote_stt), rounds) / len(audio)
        say_local = median_seconds(say_all(local_tts), rounds) / len(SENTENCES)
        say_remote = median_seconds(say_all(remote_tts), rounds) / len(SENTENCES)
        assert remote_stt.health.take_notice() is None, "the services answered throughout"

        refused = speech_to_text(SpeechToTextSettings(backend="wyoming",
                                                      uri=f"tcp://127.0.0.1:{free_port()}",
                                                      retry_after_seconds=0))  # fmt: skip
        refused.load()  # its local model loaded and warm, as at Hearth's start
        refused.local.transcribe(audio[0])
        # Alternated, so that the shared machine's load falls on both alike.
        pairs = [(median_seconds(lambda: refused.transcribe(audio[0]), 1),
                  median_seconds(lambda: local_stt.transcribe(audio[0]), 1))
                 for _ in range(rounds)]  # fmt: skip
        hear_refused = statistics.median(first for first, _ in pairs)
        hear_alone = statistics.median(second for _, second in pairs)
        hung_settings = SpeechToTextSettings(backend="wyoming", uri=whisper.uri,
                                             retry_after_seconds=0)  # fmt: skip
        hung = speech_to_text(hung_settings)
        hung.load()
        hung.local.transcribe(audio[0])
        whisper.freeze()
        try:
            hear_hung = median_seconds(lambda: hung.transcribe(audio[0]), 1)
        finally:
            whisper.thaw()
    finally:
        whisper.stop()
        piper.stop()

    print(f"Wyoming speech beside the local models ({rounds} rounds, same models, same machine)")
    print(f"  transcription per utterance  local {hear_local:.3f} s   wyoming {hear_remote:.3f} s"
          f"   ratio {hear_remote / hear_local:.2f}")  # fmt: skip
    print(f"  synthesis per sentence       local {say_local:.3f} s   wyoming {say_remote:.3f} s"
          f"   ratio {say_remote / say_local:.2f}")  # fmt: skip
    print(
        f"  service refusing: local answer after {hear_refused:.3f} s"
        f" ({hear_refused / hear_alone:.2f} x the local model alone)"
    )
    allowance = hung_settings.remote_allowance_seconds
    print(
        f"  service hung: local answer after {hear_hung:.2f} s"
        f" (timeouts allow {allowance:g} s; the local model {hear_alone:.2f} s)"
    )


if __name__ == "__main__":
    main()
