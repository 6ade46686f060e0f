#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Wall and CPU time of the studio's slow cases, from start to the written screenshot.

Each case runs `sosrep-studio FILE ... --screenshot` (offscreen) REPEATS times in turn, one at a
time, so the cases are measured side by side in one run; a screenshot is written only once
everything the case waits for has finished (the fit, and the Scores view's stage or the pair
plot's 45 panels). The studio prints when each view was ready ("pair plot's first panel ready
6.60 s after start"); those times are tabled too. CPU seconds are the process's user + system time (os.wait4), so a case
that keeps both cores busy shows about twice its wall time. Prints a markdown table of
medians (and min-max) with the CPU model.

  python3 scripts/bench_app.py [--repeats 3] [--studio build/app/sosrep-studio]
Run it on an idle machine: the numbers in docs/app.md come from it.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "datasets", "adbench"))

CASES = [
    ("mammography (11 183 x 6): fit, density view", "23_mammography.npz", []),
    ("mammography: fit and the Scores view's stage", "23_mammography.npz", ["--tab", "3"]),
    ("shuttle (49 097 x 9): fit, density view", "32_shuttle.npz", []),
    ("shuttle: fit and the pair plot (45 panels)", "32_shuttle.npz", ["--pairplot"]),
]


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def run_once(studio, path, extra, out):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", OMP_WAIT_POLICY="passive")
    args = [studio, path, *extra, "--size", "1600x1000", "--screenshot", out]
    start = time.monotonic()
    with tempfile.TemporaryFile() as log, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(args, env=env, stdout=log, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        err.seek(0)
        stdout = log.read().decode(errors="replace")
        if proc.returncode != 0 or not os.path.exists(out):
            raise SystemExit(f"{' '.join(args)} failed:\n{err.read().decode(errors='replace')}")
    stages = {m.group(1): float(m.group(2))
              for m in re.finditer(r"^(.*) ready ([0-9.]+) s after start$", stdout, re.M)}
    return wall, usage.ru_utime + usage.ru_stime, stages


def cell(values):
    return f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--studio", default=os.path.join(HERE, "..", "build", "app",
                                                         "sosrep-studio"))
    parser.add_argument("--data", default=DATA)
    a = parser.parse_args()
    times = {name: ([], []) for name, _, _ in CASES}
    stages = {name: {} for name, _, _ in CASES}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.repeats):
            for i, (name, file, extra) in enumerate(CASES):
                out = os.path.join(tmp, f"case{i}_{r}.png")
                wall, cpu, ready = run_once(a.studio, os.path.join(a.data, file), extra, out)
                times[name][0].append(wall)
                times[name][1].append(cpu)
                for stage, seconds in ready.items():
                    stages[name].setdefault(stage, []).append(seconds)
    print(f"sosrep-studio, start to screenshot, median (min-max) of {a.repeats} runs; "
          f"{cpu_model()}, {os.cpu_count()} cores\n")
    print("| case | wall s | CPU s |")
    print("|---|---|---|")
    for name, _, _ in CASES:
        wall, cpu = times[name]
        print(f"| {name} | {cell(wall)} | {cell(cpu)} |")
    print("\nwhen each view was ready (the studio's own report), s after start\n")
    print("| case | view | s |")
    print("|---|---|---|")
    for name, _, _ in CASES:
        for stage, seconds in sorted(stages[name].items(), key=lambda kv: min(kv[1])):
            print(f"| {name} | {stage} | {cell(seconds)} |")


if __name__ == "__main__":
    main()
