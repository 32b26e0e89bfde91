"""How soon Hearth hears again after a hang, whether a restart loses a reply, and what the running
service costs in a quiet room, measured in one run.

    python -m bench.recovery [--faults 100] [--idle-seconds 60] [--shipped-timeouts]

Recovery. ``hearth run`` in file mode hears a recording of --faults questions ("Hey Jarvis, ...")
answered by an Ollama-protocol server on 127.0.0.1 that streams each two-sentence reply at 0.1 s a
word, as a small model on a Pi does. The moment the first sentence of a reply starts, the bench
freezes the voice process (SIGSTOP): a hang of the whole loop, as a stuck driver or a deadlocked
model leaves it, seen from outside the way the supervisor sees any hang (the heartbeats stop; a job
announced just before runs to its deadline instead). The rest of the reply is still on its way
from the model, so every fault puts a reply at risk. (The failpoints serve the tests: each is
armed per voice-process generation, so in one run it would hit the re-sent sentence of every new
process again; a hundred faults spread over a hundred replies are injected from outside.)

Times are wall clock from the SIGSTOP to the supervisor's STATUS lines as systemd receives them
(the bench is the NOTIFY_SOCKET): "Restarting voice process: <reason>" once the hung process is
killed, and "Standby: ..." once the new one has loaded its models and hears again. A reply is lost
when one of its sentences was never played to its end, said twice when one was played twice.
The heartbeat timeout is tightened as the README suggests for a fast machine (below; with
--shipped-timeouts it is the default 3 s); the job deadlines are the defaults (a synthesis's scaled
to its sentence once the voice's pace is known); the restart limit is lifted, since a fault every
few seconds is far above any real rate.

Idle CPU. ``hearth run`` live with the default settings (one wake model) on a private PulseAudio
server: the microphone is the monitor of a null sink carrying quiet room noise, the speaker another
null sink. CPU time (utime + stime in /proc) of the supervisor and every process it started, over
--idle-seconds after it reported ready, as a share of one core.

Targets (2 shared cores): listening again within 5 s of a hang; no reply lost; idle under 10% of
one core.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tests.hearth_run import NotifySocket, RunningHearth
from tests.ollama_server import OllamaServer, Reply
from tests.speech import room_noise, silence, speech, timeline

RECOVERY_TARGET_SECONDS = 5.0
IDLE_TARGET_PERCENT = 10.0
QUESTIONS = [
    "Hey Jarvis, what is the capital of Kenya?",
    "Hey Jarvis, how far away is the moon?",
    "Hey Jarvis, what should I cook tonight?",
    "Hey Jarvis, when does the bakery open?",
    "Hey Jarvis, how tall is a giraffe?",
]
QUICK_RECOVERY = {"heartbeat_seconds": 0.25, "heartbeat_timeout_seconds": 1.5}
"""The README's suggestion for a fast machine (unless --shipped-timeouts)."""
FAULT_RATE = {
    "max_restarts": 1000,
    "restart_window_seconds": 60,
    "backoff_initial_seconds": 0.1,
    "backoff_max_seconds": 1,
}
"""A fault every few seconds is far above any real rate: no crash-loop limit, short backoff."""
OTHER_SETTINGS = """listener:
  follow_up_seconds: 0.5       # every question wakes Hearth afresh
  hint_interval_seconds: 0
conversation:
  learn_facts: false
  compaction: false
"""
STANDBY = "Standby"
RESTARTING = "Restarting voice process"


def answer(number: int) -> str:
    return f"Answer {number} starts here. Answer {number} ends here."


# -- recovery -------------------------------------------------------------------------------------


@dataclass
class Fault:
    number: int
    """The reply it hit."""
    hung_at: float
    seen: int
    """Events written before the hang."""
    restarting_at: float | None = None
    standby_at: float | None = None

    @property
    def listening_again(self) -> float | None:
        return None if self.standby_at is None else self.standby_at - self.hung_at


def recording(questions: int) -> np.ndarray:
    """The questions one after another (the service adds quiet room noise under them)."""
    said = {text: speech(text) for text in QUESTIONS}
    parts = [silence(1.0)]
    for index in range(questions):
        # Room for the two-sentence reply and its echo before the next question.
        parts += [said[QUESTIONS[index % len(QUESTIONS)]], silence(5.5)]
    return timeline(*parts, silence(3.0))


def recovery(faults: int, folder: Path, watchdog: dict[str, float]) -> None:
    replies = 0

    def respond(request: dict[str, Any]) -> Reply:
        nonlocal replies
        replies += 1
        return Reply(text=answer(replies), delay_between=0.1)

    server = OllamaServer(responder=respond).start()
    limits = "".join(f"  {name}: {value}\n" for name, value in watchdog.items())
    settings = f"ollama:\n  url: {server.url}\nvoice_process:\n{limits}{OTHER_SETTINGS}"
    started = time.monotonic()
    status = NotifySocket(folder / "notify.socket")
    service = RunningHearth(folder, recording(faults), settings, env=status.environment)
    injected: list[Fault] = []
    heard = 0
    armed = False  # a new question was heard: freeze at the first sentence of its reply
    try:
        while service.process.poll() is None:
            time.sleep(0.01)
            fault = injected[-1] if injected else None
            if fault is not None and fault.standby_at is None:
                if fault.restarting_at is None:
                    fault.restarting_at = status.status_after(fault.hung_at, RESTARTING)
                if fault.restarting_at is not None:
                    fault.standby_at = status.status_after(fault.restarting_at, STANDBY)
            for event in service.events.new():
                if event["event"] == "utterance":
                    heard += 1
                    armed = len(injected) < faults
                elif event["event"] == "speak_start" and event["job"] >= 0 and armed:
                    voice = service.voice_process()
                    if voice is not None:
                        os.kill(voice, signal.SIGSTOP)
                        injected.append(Fault(heard, time.monotonic(), len(service.events.seen)))
                        armed = False
        returncode = service.stop()
        events = service.events.all()
    finally:
        service.end()
        status.close()
        server.stop()
    took = time.monotonic() - started
    report_recovery(faults, injected, events, heard, replies, returncode, took)
    print("  watchdog: " + ", ".join(f"{name} {value}" for name, value in watchdog.items()))


def report_recovery(
    planned: int,
    faults: list[Fault],
    events: list[dict[str, Any]],
    heard: int,
    replies: int,
    returncode: int,
    took: float,
) -> None:
    texts = {e["job"]: e["text"] for e in events if e["event"] == "speak_start"}
    ended = Counter(texts[e["job"]] for e in events if e["event"] == "speak_end" and e["job"] >= 0)
    lost = twice = 0
    for number in range(1, replies + 1):
        counts = [ended[sentence] for sentence in split_sentences(answer(number))]
        lost += min(counts) == 0
        twice += max(counts) > 1
    at_risk = 0
    for fault in faults:
        before = events[: fault.seen]
        done = {texts[e["job"]] for e in before if e["event"] == "speak_end" and e["job"] >= 0}
        at_risk += not set(split_sentences(answer(fault.number))) <= done
    restarts = [e for e in events if e["event"] == "worker_restart"]
    reasons = Counter(kind_of(r["reason"]) for r in restarts)
    times = [f.listening_again for f in faults if f.listening_again is not None] or [float("nan")]
    detect = [f.restarting_at - f.hung_at for f in faults if f.restarting_at is not None]
    reload = [f.standby_at - f.restarting_at for f in faults if f.standby_at and f.restarting_at]
    detect, reload = detect or [float("nan")], reload or [float("nan")]

    print(f"Recovery: {len(faults)} hangs injected (of {planned} planned), one file-mode run of "
          f"{took / 60:.1f} min, exit code {returncode}")  # fmt: skip
    print(f"  questions asked {planned}, heard {heard}, replies {replies}")
    print(f"  restarts {len(restarts)}: " + ", ".join(f"{n} {r}" for r, n in reasons.items()))
    print("  hang -> listening again (s)")
    print(f"    mean {statistics.mean(times):.2f}  median {statistics.median(times):.2f}  "
          f"max {max(times):.2f}  ({max(times) / RECOVERY_TARGET_SECONDS:.2f} of the "
          f"{RECOVERY_TARGET_SECONDS:.0f} s target at worst)")  # fmt: skip
    print(f"    of which hang -> killed: mean {statistics.mean(detect):.2f}, "
          f"killed -> models loaded, hearing: mean {statistics.mean(reload):.2f}")  # fmt: skip
    print(f"  replies at risk (not yet said in full when the hang came) {at_risk} of "
          f"{len(faults)}; lost {lost} of {replies} ({lost / max(replies, 1):.2%}); "
          f"said twice {twice}")  # fmt: skip


def kind_of(reason: str) -> str:
    """A restart's reason without its measured seconds."""
    if reason.startswith("no heartbeat"):
        return "no heartbeat"
    if "deadline" in reason:
        return reason.split(" ran past")[0] + " deadline"
    return reason


def split_sentences(text: str) -> list[str]:
    return [part.strip() + "." for part in text.split(".") if part.strip()]


# -- idle CPU -------------------------------------------------------------------------------------


def clock_ticks(pid: int) -> int:
    """utime + stime of a process (all its threads), in clock ticks."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def measure_idle(
    folder: Path, server: OllamaServer, pulse: Any, seconds: float
) -> tuple[float, dict[int, int], list[int], int | None, list[dict[str, Any]]] | None:
    """Run the service live and count its CPU ticks over ``seconds`` once it is in standby."""
    status = NotifySocket(folder / "notify.socket")
    settings = f"ollama:\n  url: {server.url}\n"
    service = RunningHearth(folder, None, settings, env={**pulse.env, **status.environment})
    try:
        deadline = time.monotonic() + 120
        while status.status_after(0.0, STANDBY) is None:
            if service.process.poll() is not None or time.monotonic() > deadline:
                print(f"Idle CPU: the service did not get ready\n{service.log()[-2000:]}")
                return None
            time.sleep(0.1)
        time.sleep(5.0)  # past the first moments after loading
        pids = service.processes()
        before = {pid: clock_ticks(pid) for pid in pids}
        began = time.monotonic()
        time.sleep(seconds)
        wall = time.monotonic() - began
        used = {pid: clock_ticks(pid) - before[pid] for pid in pids}
        restarts = service.of("worker_restart")
        return wall, used, pids, service.voice_process(), restarts
    finally:
        service.stop()
        service.end()
        status.close()


def idle(seconds: float, folder: Path) -> None:
    from tests.audio.pulse import ROOM, running_pulse, stop_process

    for program in ("pulseaudio", "pactl", "pacat", "parec"):
        if shutil.which(program) is None:
            print(f"Idle CPU: skipped, {program} is not installed")
            return
    server = OllamaServer().start()
    try:
        with running_pulse(folder / "pulse") as pulse:
            player = play_noise(pulse, ROOM, seconds + 60.0)
            try:
                measured = measure_idle(folder, server, pulse, seconds)
            finally:
                stop_process(player)
    finally:
        server.stop()
    if measured is None:
        return
    wall, used, pids, voice, restarts = measured
    hz = os.sysconf("SC_CLK_TCK")
    share = {pid: ticks / hz / wall * 100 for pid, ticks in used.items()}
    total = sum(share.values())
    supervisor = share.get(pids[0], 0.0)
    voice_share = share.get(voice, 0.0) if voice is not None else 0.0
    print(f"\nIdle CPU: {wall:.0f} s live on a PulseAudio null sink, default settings "
          f"(one wake model), room noise playing")  # fmt: skip
    print(f"  {total:.1f}% of one core ({total / IDLE_TARGET_PERCENT:.2f} of the "
          f"{IDLE_TARGET_PERCENT:.0f}% target): supervisor {supervisor:.1f}%, voice process "
          f"{voice_share:.1f}%, others {total - supervisor - voice_share:.1f}%; "
          f"restarts meanwhile {len(restarts)}")  # fmt: skip


def play_noise(pulse: Any, sink: str, seconds: float) -> subprocess.Popen[bytes]:
    """Quiet room noise played into ``sink`` in the background."""
    player = subprocess.Popen(
        ["pacat", "--playback", f"--device={sink}", "--raw", "--format=s16le", "--rate=16000",
         "--channels=1"],
        env=pulse.env, stdin=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    noise = room_noise(seconds).astype("<i2").tobytes()

    def feed() -> None:
        assert player.stdin is not None
        with contextlib.suppress(OSError):  # stopped before the end
            player.stdin.write(noise)
            player.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    return player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--faults", type=int, default=100, help="hangs to inject (0: none)")
    parser.add_argument("--idle-seconds", type=float, default=60.0, help="idle seconds (0: none)")
    parser.add_argument(
        "--shipped-timeouts",
        action="store_true",
        help="recover with the shipped heartbeat timeout instead of the README's quick one",
    )
    args = parser.parse_args()
    os.environ.pop("HEARTH_FAILPOINTS", None)  # the faults are the bench's own
    print(f"Hearth recovery and idle cost; {os.cpu_count()} shared cores\n")
    if args.faults > 0:
        with tempfile.TemporaryDirectory(prefix="hearth-recovery-") as folder:
            quick = {} if args.shipped_timeouts else QUICK_RECOVERY
            recovery(args.faults, Path(folder), {**quick, **FAULT_RATE})
    if args.idle_seconds > 0:
        with tempfile.TemporaryDirectory(prefix="hearth-idle-") as folder:
            idle(args.idle_seconds, Path(folder))


if __name__ == "__main__":
    main()
