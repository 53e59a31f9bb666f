#!/usr/bin/env python3
"""Where a run's CPU goes, by kind of process (docs/benchmarks.md, "Test suite").

    bench/process-cpu.py OUT.tsv &   # samples every process's CPU time until killed (SIGTERM), then writes OUT.tsv

Every second it reads each process's user and system time (/proc/PID/stat, fields 14 and 15) and its command line,
and keeps the last figure seen for each process (less what it had spent when sampling began; a process is its pid
and its start time, field 22, since pids are used again). On SIGTERM it writes one row a process (pid, kind, CPU
seconds, first and last second seen, the command line's first 300 characters) and prints the CPU seconds by kind. A
process that lives less than a second may be missed; its CPU then counts for nothing here, though the machine's
total (/proc/stat) has it. The kinds are rules on the command line, first match wins (KINDS below).
"""
import os
import re
import signal
import sys
import time

KINDS = [
    # surefire's and failsafe's forks both run target/surefire/surefirebooter*.jar; only the unit tests' log their
    # collector (test.jvm.args in pom.xml)
    ("unit-test JVM", re.compile(r"test-jvm-gc.*surefirebooter")),
    ("integration-test JVM", re.compile(r"surefirebooter")),
    ("service process", re.compile(r"quarkus-run\.jar")),
    ("maven", re.compile(r"plexus-classworlds|org\.codehaus\.plexus\.classworlds")),
    ("postgresql", re.compile(r"(^|/)postgres\b|postgres:")),
    ("chromium", re.compile(r"chrom")),
    ("promtool", re.compile(r"promtool")),
]
TICKS = os.sysconf("SC_CLK_TCK")


def kind_of(cmdline):
    for name, rule in KINDS:
        if rule.search(cmdline):
            return name
    return "other"


def sample(seen, now, first_sample):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            cpu = (int(fields[11]) + int(fields[12])) / TICKS
            key = (pid, fields[19])
            row = seen.get(key)
            if row is None:
                # a process already running when sampling began counts only what it spends from then on
                row = seen[key] = {"cmd": "", "first": now, "base": cpu if first_sample else 0.0, "cpu": 0.0}
            # read each time: a process that execs another program (./mvnw execs java) keeps its pid
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                # one line of the table: arguments, and the newlines and tabs of a script passed to sh -c, as spaces
                cmdline = " ".join(f.read().decode(errors="replace").replace("\0", " ").split())
            row["cmd"] = cmdline or row["cmd"]
            row["cpu"] = max(row["cpu"], cpu - row["base"])
            row["last"] = now
        except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
            continue


def main():
    out = sys.argv[1]
    seen = {}
    start = time.monotonic()
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))
    while not stopped:
        sample(seen, round(time.monotonic() - start), not seen)
        time.sleep(1)
    totals = {}
    with open(out, "w") as f:
        f.write("pid\tkind\tcpu_s\tfirst_s\tlast_s\tcommand\n")
        for (pid, _), row in sorted(seen.items(), key=lambda kv: -kv[1]["cpu"]):
            kind = kind_of(row["cmd"])
            totals[kind] = totals.get(kind, 0.0) + row["cpu"]
            f.write(f"{pid}\t{kind}\t{row['cpu']:.1f}\t{row['first']}\t{row['last']}\t{row['cmd'][:300]}\n")
    print("CPU by kind of process (" + out + "):")
    for kind, cpu in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"{cpu:9.0f} s  {kind}")


if __name__ == "__main__":
    main()
