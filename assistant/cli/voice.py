"""``hearth say``, ``hearth transcribe`` and ``hearth listen``: the ears and mouth on their own."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from assistant.cli.common import (
    EXIT_OK,
    UserError,
    check_distinct_files,
    check_output_file,
    settings_from,
)
from assistant.event_log import EventLog
from audio import VAD_FRAME_SAMPLES
from audio.silences import shortened

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
    from audio import SpeechParameters, VoiceNotFoundError, VoiceSpeakerError, write_wav
    from audio.remote import text_to_speech

    settings = settings_from(args)
    text = _valid_text(args.text)
    if args.output:
        check_output_file(args.output, "--output")
    try:
        # The voice the settings ask for: the Wyoming service's, the local one if it fails.
        speaking = text_to_speech(settings.tts)
        chunks = list(speaking.synthesize(text, SpeechParameters.from_settings(settings.tts)))
    except (VoiceNotFoundError, VoiceSpeakerError) as error:
        raise UserError(str(error)) from None
    if not chunks:
        raise UserError(
            f"nothing to say: {text!r} has no words that can be spoken (only symbols, emoji or "
            "markup)"
        )
    samples = np.concatenate([chunk.samples for chunk in chunks])
    if args.output:
        try:
            write_wav(args.output, samples.astype(np.int16))
        except OSError as error:
            raise UserError(f"--output {args.output}: {error.strerror or error}") from None
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


def _valid_text(text: str) -> str:
    """The text to say, or a UserError: empty, or bytes that are not UTF-8 (Python hands such
    arguments over as lone surrogates, which no voice can take)."""
    if not text.strip():
        raise UserError("nothing to say: the text is empty")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raw = text.encode("utf-8", "surrogateescape")
        where = len(text[: error.start].encode("utf-8", "surrogateescape"))
        raise UserError(
            f"the text is not valid UTF-8 (byte {raw[where]:#04x} at position {where}); "
            "check the terminal's or the script's encoding"
        ) from None
    return text


def _transcribe(args: argparse.Namespace) -> int:
    from audio import SpeechModelError, VoiceActivity, WavError, read_wav
    from audio.remote import speech_to_text

    settings = settings_from(args)
    try:
        samples = read_wav(args.file)
        # The ears the settings ask for: the Wyoming service's, the local model if it fails.
        stt = speech_to_text(settings.stt)
    except (WavError, SpeechModelError) as error:
        raise UserError(str(error)) from None
    speech = _speech_only(samples, VoiceActivity())
    heard = stt.transcribe(speech, vad_speech=True) if speech is not None else None
    print(heard.text if heard is not None else "")
    return EXIT_OK


def _speech_only(samples: np.ndarray, vad: Any) -> np.ndarray | None:
    """The recording with every silence the voice activity detector hears cut short
    (``audio.silences``): in a long silence Whisper writes words of its own ("you you you" after
    a sentence and two minutes of nothing). None when no 32 ms frame holds speech (Whisper is
    not even asked about silence)."""
    silences: list[tuple[int, int]] = []
    quiet_from: int | None = 0
    heard = False
    for start in range(0, len(samples) - VAD_FRAME_SAMPLES + 1, VAD_FRAME_SAMPLES):
        probability = vad.process(samples[start : start + VAD_FRAME_SAMPLES])
        if probability is not None and probability >= 0.5:
            heard = True
            if quiet_from is not None:
                silences.append((quiet_from, start))
                quiet_from = None
        elif quiet_from is None:
            quiet_from = start
    if quiet_from is not None:
        silences.append((quiet_from, len(samples)))
    return shortened(samples, silences) if heard else None


def _listen(args: argparse.Namespace) -> int:
    from audio import SpeechModelError, WakeModelError, WavError, listen_to_recording

    settings = settings_from(args)
    if args.events:
        check_output_file(args.events, "--events", devices=True)
        check_distinct_files({"--input": args.input, "--events": args.events})
    events = EventLog(args.events, _print_event)
    try:
        listen_to_recording(settings, str(args.input), events.write)
    except (WavError, SpeechModelError, WakeModelError) as error:
        raise UserError(str(error)) from None
    finally:
        events.close()
    if events.failure:
        raise UserError(events.failure)
    return EXIT_OK


def _print_event(record: dict[str, Any]) -> None:
    if record["event"] in PRINTED_EVENTS:
        print(_describe(record), flush=True)


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
