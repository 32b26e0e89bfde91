"""``hearth say``, ``hearth transcribe`` and ``hearth listen``: the ears and mouth on their own."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from assistant.cli.common import EXIT_OK, UserError, settings_from
from audio import VAD_FRAME_SAMPLES

# Events worth a line on the terminal; the JSON lines file gets every event.
PRINTED_EVENTS = ("wake", "utterance", "hint", "follow_up_open", "follow_up_close")


def register(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    """Add ``say``, ``transcribe`` and ``listen``."""
    say = subparsers.add_parser("say", parents=[common], help="speak text (or write it to a WAV)")
    say.add_argument("text")
    say.add_argument("--output", type=Path, help="write a WAV instead of playing it")
    say.set_defaults(handler=_say)

    transcribe = subparsers.add_parser(
        "transcribe", parents=[common], help="print the transcript of a WAV file"
    )
    transcribe.add_argument("file", type=Path)
    transcribe.set_defaults(handler=_transcribe)

    listen = subparsers.add_parser(
        "listen", parents=[common], help="run the listener over a recording and print what it heard"
    )
    listen.add_argument("--input", type=Path, required=True, help="the room recording (WAV)")
    listen.add_argument("--events", type=Path, help="also write every event as JSON lines here")
    listen.set_defaults(handler=_listen)


def _say(args: argparse.Namespace) -> int:
    from audio import SpeechParameters, TextToSpeech, VoiceNotFoundError, write_wav

    settings = settings_from(args)
    if not args.text.strip():
        raise UserError("nothing to say: the text is empty")
    try:
        chunks = list(
            TextToSpeech().synthesize(args.text, SpeechParameters.from_settings(settings.tts))
        )
    except VoiceNotFoundError as error:
        raise UserError(str(error)) from None
    samples = np.concatenate([chunk.samples for chunk in chunks]) if chunks else np.zeros(0)
    if args.output:
        write_wav(args.output, samples.astype(np.int16))
        print(f"wrote {len(samples) / 16000:.1f} s of speech to {args.output}")
        return EXIT_OK
    from audio import AudioDeviceError, SpeakerSink

    try:
        sink = SpeakerSink.from_settings(settings.audio)
        sink.play(samples.astype(np.int16))
        sink.close()
    except AudioDeviceError as error:
        raise UserError(f"{error}; use --output FILE.wav to write the speech instead") from None
    return EXIT_OK


def _transcribe(args: argparse.Namespace) -> int:
    from audio import SpeechModelError, SpeechToText, VoiceActivity, WavError, read_wav

    settings = settings_from(args)
    try:
        samples = read_wav(args.file)
        stt = SpeechToText(settings.stt)
    except (WavError, SpeechModelError) as error:
        raise UserError(str(error)) from None
    print(stt.transcribe(samples, vad_speech=_has_speech(samples, VoiceActivity())).text)
    return EXIT_OK


def _has_speech(samples: np.ndarray, vad: Any) -> bool:
    """Whether any 32 ms frame holds speech (Whisper is not even asked about silence)."""
    for start in range(0, len(samples) - VAD_FRAME_SAMPLES + 1, VAD_FRAME_SAMPLES):
        probability = vad.process(samples[start : start + VAD_FRAME_SAMPLES])
        if probability is not None and probability >= 0.5:
            return True
    return False


def _listen(args: argparse.Namespace) -> int:
    from audio import SpeechModelError, WakeModelError, WavError, listen_to_recording

    settings = settings_from(args)
    events = args.events.open("w", encoding="utf-8") if args.events else None

    def on_record(record: dict[str, Any]) -> None:
        if events is not None:
            events.write(json.dumps(record, ensure_ascii=False) + "\n")
        if record["event"] in PRINTED_EVENTS:
            print(_describe(record), flush=True)

    try:
        listen_to_recording(settings, str(args.input), on_record)
    except (WavError, SpeechModelError, WakeModelError) as error:
        raise UserError(str(error)) from None
    finally:
        if events is not None:
            events.close()
    return EXIT_OK


def _describe(record: dict[str, Any]) -> str:
    t = f"{record['t']:8.2f}s"
    match record["event"]:
        case "utterance":
            return f"{t}  utterance ({record['via']}): {record['text']}"
        case "hint":
            return f"{t}  hint: {record['text']}"
        case "follow_up_open":
            return f"{t}  follow-up window open until {record['until']:.2f}s"
        case "follow_up_close":
            return f"{t}  follow-up window closed ({record['reason']})"
        case event:
            return f"{t}  {event}"
