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
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
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
    args = parser.parse_args()
    bench_parse(not args.no_stt)
    bench_idle(args.idle_seconds)
    bench_lateness()
    if args.libraries:
        bench_libraries()


if __name__ == "__main__":
    main()
