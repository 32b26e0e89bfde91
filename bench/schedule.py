"""The schedule's costs, as ratios measured in one run.

    python -m bench.schedule [--idle-seconds 5] [--no-stt] [--libraries]

1. Local parse time per utterance, over every transcript tiny.en wrote in the phrase table
   (``tests/schedule/data/heard.tsv``), against the memory's local command parser and against
   one tiny.en transcription of a request (what the parse is added to).
2. The scheduler's idle CPU with 50 pending items: sleeping until the next due time (the wake-up
   policy), asked every 0.25 s by the supervisor's loop, against polling ``wake`` every 0.25 s.
3. How late the scheduler decides an item against its due time, on the real clocks (the ring's
   own latency through the voice process is the engine's, measured in phase 2).
4. ``--libraries``: the number and date libraries the parser was chosen from, scored on tiny.en's
   spellings of lengths and times (needs ``pip install -e '.[schedule-eval]'``).
5. ``--live``: how late a ring is against its due time, live. A real ``hearth run`` on a private
   PulseAudio (the tests' null sinks; needs ``pulseaudio``) with ``--timers`` short timers put in
   its store, ``--spacing`` seconds apart. For each: from its due wall time to the scheduler's
   decision (``timer_finished``'s ``decided_at``), to its ``ring_start`` event (the wall time the
   bench saw the line, polling every 5 ms), and to the first ring samples on the speaker sink's
   monitor (found by the ring's waveform in the recording, whose samples are placed on the wall
   clock by marks of how much the monitor had delivered; see ``tests/audio/pulse.py``'s
   ``WallRecording`` for the alignment and its error, printed with the figures).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from assistant.schedule import ItemKind, Scheduler, ScheduleStore, SystemClock, parse_request
from assistant.schedule.durations import find_duration
from assistant.schedule.timing import repeating, resolve
from assistant.schedule.words import normalise
from assistant.voice_commands import parse_voice_command

HEARD = Path(__file__).resolve().parents[1] / "tests" / "schedule" / "data" / "heard.tsv"
POLL_SECONDS = 0.25
ZONE = ZoneInfo("Europe/London")
ANCHOR = datetime(2026, 3, 7, 15, 0)

# tiny.en's spellings (from heard.tsv and the issue) and what they mean.
LENGTHS = {
    "set a timer for 10 minutes": 600, "set a timer for 90 seconds": 90,
    "set a timer for half an hour": 1800, "set a timer for an hour and a half": 5400,
    "Set a 10-minute timer.": 600, "10 min timer": 600,
    "start a timer for a minute and a half.": 90, "timer for 25 minutes for the eggs.": 1500,
    "timer for one hour thirty minutes": 5400, "two hours and fifteen minutes": 8100,
    "set a timer for 8 minutes called pasta.": 480, "Pasta timer 8 minutes": 480,
}  # fmt: skip
TIMES = {
    "Wake me up at 7.": (7, 0), "Set an alarm for 6.30 tomorrow.": (6, 30),
    "set an alarm for 6 30 tomorrow": (6, 30), "Set an alarm for half past six.": (18, 30),
    "Set an alarm for quarter to eight.": (19, 45), "set in alarm for noon.": (12, 0),
    "Set an alarm for 7am.": (7, 0), "Remind me to water the tomatoes at 7pm.": (19, 0),
    "Remind me tonight at 8 to take the bread out.": (20, 0),
    "Remind me tomorrow morning to call the dentist.": (8, 0),
    "set an alarm for 6.30 pm": (18, 30),
    "Every Sunday at 10, remind me to put the bins out.": (10, 0),
}  # fmt: skip


def heard_transcripts() -> list[str]:
    with HEARD.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [row["heard"] for row in rows] + sorted({row["phrase"] for row in rows})


def per_call(function, inputs: list[str], rounds: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        for text in inputs:
            function(text)
    return (time.perf_counter() - start) / (rounds * len(inputs))


def bench_parse(with_stt: bool) -> None:
    inputs = heard_transcripts()
    parse_request(inputs[0])  # warm
    ours = per_call(parse_request, inputs, 20)
    memory_commands = per_call(parse_voice_command, inputs, 20)
    print(f"parse: {len(inputs)} utterances, {ours * 1e6:.0f} us each "
          f"({ours / memory_commands:.1f}x the memory's local command parser)")  # fmt: skip
    if with_stt:
        from audio import SpeechToText
        from config import SpeechToTextSettings
        from tests.speech import speech

        stt = SpeechToText(SpeechToTextSettings())
        audio = speech("Set a pasta timer for eight minutes.")
        stt.transcribe(audio)
        start = time.perf_counter()
        stt.transcribe(audio)
        hearing = time.perf_counter() - start
        print(f"parse vs hearing: a parse is {ours / hearing:.5f} of one tiny.en transcription "
              f"({hearing:.2f} s for {len(audio) / 16000:.1f} s of speech)")  # fmt: skip


def fifty_pending(folder: Path) -> Scheduler:
    store = ScheduleStore.open(folder / "memory.db")
    scheduler = Scheduler(store)
    now = SystemClock().now()
    scheduler.wake(now)
    for index in range(25):
        scheduler.add_timer(now, 3600 + index * 60, f"timer {index}", ZONE.key)
        moment = datetime.fromtimestamp(now.wall + 7200 + index * 600, ZONE)
        scheduler.add_at(now, ItemKind.ALARM, moment)
    return scheduler


def cpu_while(loop, seconds: float) -> float:
    """CPU seconds the process used running ``loop`` for ``seconds`` of wall time."""
    start_cpu = time.process_time()
    loop(time.monotonic() + seconds)
    return time.process_time() - start_cpu


def bench_idle(seconds: float) -> None:
    clock = SystemClock()
    with tempfile.TemporaryDirectory() as folder:
        scheduler = fifty_pending(Path(folder))

        def sleep_until_due(end: float) -> None:
            while (left := end - time.monotonic()) > 0:
                wait = scheduler.seconds_until_next(clock.now())
                time.sleep(min(left, wait if wait is not None else left))
                if wait is not None and wait <= 0:
                    scheduler.wake(clock.now())

        def asked_by_the_loop(end: float) -> None:
            while (left := end - time.monotonic()) > 0:
                wait = scheduler.seconds_until_next(clock.now())
                if wait is not None and wait <= 0:
                    scheduler.wake(clock.now())
                time.sleep(min(left, POLL_SECONDS))

        def polling(end: float) -> None:
            while (left := end - time.monotonic()) > 0:
                scheduler.wake(clock.now())
                time.sleep(min(left, POLL_SECONDS))

        policy = cpu_while(sleep_until_due, seconds)
        loop = cpu_while(asked_by_the_loop, seconds)
        poll = cpu_while(polling, seconds)
        scheduler.store.close()
    per_hour = 3600 / seconds
    print(
        f"idle, 50 pending, {seconds:.0f} s each: sleep until due {policy * per_hour:.3f} CPU s/h, "
        f"asked every {POLL_SECONDS} s {loop * per_hour:.3f} CPU s/h, "
        f"polling wake() {poll * per_hour:.2f} CPU s/h"
    )
    print(f"idle ratios: sleep until due / polling = {policy / poll:.4f}; "
          f"asked by the loop / polling = {loop / poll:.3f}")  # fmt: skip


def bench_lateness(count: int = 20) -> None:
    clock = SystemClock()
    with tempfile.TemporaryDirectory() as folder:
        store = ScheduleStore.open(Path(folder) / "memory.db")
        scheduler = Scheduler(store)
        now = clock.now()
        scheduler.wake(now)
        for index in range(count):
            moment = datetime.fromtimestamp(now.wall + 0.5 + index * 0.1, ZONE)
            scheduler.add_at(now, ItemKind.REMINDER, moment, text=f"reminder {index}")
        lateness = []
        while len(lateness) < count:
            wait = scheduler.seconds_until_next(clock.now())
            if wait:
                time.sleep(wait)
            for event in scheduler.wake(clock.now()):
                if hasattr(event, "due_at") and event.event == "reminder_due":
                    lateness.append(clock.now().wall - event.due_at)
                    scheduler.finish(clock.now(), event.item_id, "said")
        store.close()
    median, worst = statistics.median(lateness) * 1000, max(lateness) * 1000
    print(f"decision lateness on the real clocks ({count} items): median {median:.1f} ms, "
          f"max {worst:.1f} ms")  # fmt: skip


LIVE_RING_SECONDS = 2.5
"""--live: each ring ends by itself after one period, and what finished is said, before the next."""
LIVE_LEAD_SECONDS = 4.0
POLL_EVENTS_SECONDS = 0.005


def bench_live(folder: Path, count: int, spacing: float) -> None:
    from tests.audio.pulse import SPEAKER, running_pulse
    from tests.hearth_run import NotifySocket, RunningHearth
    from tests.ollama_server import OllamaServer
    from tests.speaker_audio import ring_onsets

    for program in ("pulseaudio", "pactl", "pacat", "parec"):
        if shutil.which(program) is None:
            print(f"live ring lateness: skipped, {program} is not installed")
            return
    server = OllamaServer().start()
    status = NotifySocket(folder / "notify.socket")
    settings = (
        f"ollama:\n  url: {server.url}\nschedule:\n  auto_stop_seconds: {LIVE_RING_SECONDS}\n"
    )
    try:
        with running_pulse(folder / "pulse") as pulse:
            sound_server = {name: pulse.env[name] for name in ("PULSE_SERVER", "PULSE_COOKIE")}
            db = folder / "memory.db"
            service = RunningHearth(
                folder, None, settings, db, {**sound_server, **status.environment}
            )
            try:
                while status.status_after(0.0, "Standby") is None:
                    if service.process.poll() is not None:
                        print(f"live ring lateness: hearth exited\n{service.log()[-2000:]}")
                        return
                    time.sleep(0.1)
                time.sleep(3.0)  # a null sink holds a new stream back for a moment
                latency = [line.strip() for line in pulse.pactl("list", "sinks").splitlines()
                           if "Latency" in line]  # fmt: skip
                recording = pulse.start_wall_recording(SPEAKER)
                dues = set_timers(db, count, spacing)
                seen = watch_rings(service, dues[-1][1] + spacing)
                events = service.events.all()
            finally:
                service.stop()
                service.end()
            audio = recording.stop()
    finally:
        status.close()
        server.stop()
    decided = {e["item_id"]: e["decided_at"] for e in events if e["event"] == "timer_finished"}
    onsets = ring_onsets(audio)
    report_live(dues, decided, seen, [recording.wall_at(onset) for onset in onsets], spacing)
    spreads = [recording.spread_at(onset) * 1000 for onset in onsets] or [float("nan")]
    print(f"  alignment: each ring onset placed on the wall clock by the tightest of the "
          f"{recording.MARK_SECONDS * 1000:.0f} ms marks of the monitor's delivery in the "
          f"{recording.WINDOW_SECONDS} s after it ({recording.marks} marks); the others came up "
          f"to {statistics.median(spreads):.0f} ms later (median over onsets, max "
          f"{max(spreads):.0f} ms); the sink renders a block at once ({'; '.join(latency)}): "
          f"error within one block early, the tightest mark's delay late")  # fmt: skip


def set_timers(db: Path, count: int, spacing: float) -> list[tuple[int, float]]:
    """``count`` unnamed timers in the store, ``spacing`` s apart: (item, due wall time) each."""
    store = ScheduleStore.open(db)
    scheduler = Scheduler(store)
    now = SystemClock().now()
    dues = []
    for index in range(count):
        item, started = scheduler.add_timer(now, LIVE_LEAD_SECONDS + index * spacing, None, "UTC")
        dues.append((item.id, started.due_at))
    store.close()
    return dues


def watch_rings(service, until: float) -> dict[int, float]:
    """The wall time each item's ``ring_start`` line was first seen, until the wall time
    ``until``."""
    seen: dict[int, float] = {}
    while time.time() < until:
        for event in service.events.new():
            if event["event"] == "ring_start":
                for item in event["items"]:
                    seen.setdefault(item, time.time())
        time.sleep(POLL_EVENTS_SECONDS)
    return seen


def report_live(
    dues: list[tuple[int, float]],
    decided: dict[int, float],
    seen: dict[int, float],
    onsets: list[float],
    spacing: float,
) -> None:
    rows = []
    for item, due in dues:
        heard = [at for at in onsets if due - 1.0 <= at < due + spacing - 1.0]
        rows.append((decided.get(item), seen.get(item), heard[0] if heard else None, due))
    missing = sum(None in row for row in rows)
    whole = [row for row in rows if None not in row]
    print(f"live ring lateness: {len(dues)} timers {spacing:.0f} s apart, hearth run on "
          f"PulseAudio null sinks; {len(whole)} measured, {missing} without an event or a "
          f"ring heard; ring periods heard {len(onsets)}")  # fmt: skip
    if not whole:
        return
    parts = {
        "due -> decided (timer_finished)": [d - due for d, _, _, due in whole],
        "due -> ring_start event seen": [s - due for _, s, _, due in whole],
        "due -> first ring samples (audio)": [a - due for _, _, a, due in whole],
        "  of which decided -> audio": [a - d for d, _, a, _ in whole],
    }
    for name, values in parts.items():
        print(f"  {name:36} median {statistics.median(values) * 1000:6.1f} ms, "
              f"max {max(values) * 1000:6.1f} ms")  # fmt: skip
    each = " ".join(f"{value * 1000:.0f}" for value in parts["due -> first ring samples (audio)"])
    print(f"  due -> audio, each timer (ms): {each}")
    audio = sum(parts["due -> first ring samples (audio)"])
    event = sum(parts["due -> decided (timer_finished)"])
    print(
        f"  split of the total lateness: the scheduler's decision (event) {event / audio:.0%}, "
        f"the ring's path from the decision to the speaker {1 - event / audio:.0%}"
    )


def import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return float(result.stdout.strip() or "nan")


def score(name: str, length_of, time_of) -> None:
    start = time.perf_counter()
    lengths = sum(1 for text, seconds in LENGTHS.items() if _safe(length_of, text) == seconds)
    times = sum(1 for text, hm in TIMES.items() if _safe(time_of, text) == hm)
    calls = len(LENGTHS) + len(TIMES)
    each = (time.perf_counter() - start) / calls
    print(f"  {name:20} lengths {lengths}/{len(LENGTHS)}, times {times}/{len(TIMES)}, "
          f"{each * 1000:.2f} ms a call")  # fmt: skip


def _safe(function, text):
    try:
        return function(text)
    except Exception:  # a library's failure on one phrase counts as a miss
        return None


def bench_libraries() -> None:
    print("number and date libraries on tiny.en's spellings (import time in a fresh process):")
    anchor = ANCHOR

    def our_length(text):
        found = find_duration(normalise(text).split())
        return found.seconds if found else None

    def our_time(text):
        intent = parse_request(text)
        wake_up = getattr(intent, "wake_up", False)
        now = anchor.replace(tzinfo=ZONE)
        if intent.repeat is not None:  # as the desk stores it
            moment = repeating(intent.repeat, intent.when, now, wake_up)[0]
        else:
            moment = resolve(intent.when, now, wake_up)
        return (moment.hour, moment.minute)

    print(f"  import: text2num {import_seconds('text_to_num'):.3f} s")
    score("text2num + grammar", our_length, our_time)
    if importlib.util.find_spec("ovos_date_parser"):
        from ovos_date_parser import extract_datetime, extract_duration

        print(f"  import: ovos-date-parser {import_seconds('ovos_date_parser'):.3f} s")

        def ovos_length(text):
            found = extract_duration(text, lang="en")[0]
            return found.total_seconds() if found else None

        def ovos_time(text):
            found = extract_datetime(text, anchorDate=anchor, lang="en")
            return (found[0].hour, found[0].minute) if found else None

        score("ovos-date-parser", ovos_length, ovos_time)
    else:
        print("  ovos-date-parser: not installed")
    if importlib.util.find_spec("dateparser"):
        from dateparser.search import search_dates

        print(f"  import: dateparser {import_seconds('dateparser'):.3f} s")
        options = {"RELATIVE_BASE": anchor, "PREFER_DATES_FROM": "future"}

        def dp_length(text):
            found = search_dates(text, languages=["en"], settings=options)
            return (found[0][1] - anchor).total_seconds() if found else None

        def dp_time(text):
            found = search_dates(text, languages=["en"], settings=options)
            return (found[0][1].hour, found[0][1].minute) if found else None

        score("dateparser", dp_length, dp_time)
    else:
        print("  dateparser: not installed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle-seconds", type=float, default=5.0)
    parser.add_argument("--no-stt", action="store_true", help="skip the tiny.en comparison")
    parser.add_argument("--libraries", action="store_true", help="score the candidate libraries")
    parser.add_argument("--live", action="store_true", help="ring lateness of a live hearth run")
    parser.add_argument("--timers", type=int, default=10, help="--live: timers to ring")
    parser.add_argument("--spacing", type=float, default=8.0, help="--live: seconds between dues")
    args = parser.parse_args()
    bench_parse(not args.no_stt)
    bench_idle(args.idle_seconds)
    bench_lateness()
    if args.libraries:
        bench_libraries()
    if args.live:
        with tempfile.TemporaryDirectory(prefix="hearth-ring-") as folder:
            bench_live(Path(folder), args.timers, args.spacing)


if __name__ == "__main__":
    main()
