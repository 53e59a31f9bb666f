#!/usr/bin/env bash
# The test suite's own benchmark (docs/benchmarks.md, "Test suite"): ./mvnw -B verify on a fresh clone of this
# repository's HEAD, as a new contributor runs it, timed with the load average before and after, then the time of
# every test class (the log's "Tests run" lines) and the Quarkus starts, longest first, and how busy the
# machine's cores were: every 10 s, the share of all cores' time spent running (/proc/stat), to <clone>/cpu.tsv,
# and the average of the test phases; and the CPU seconds spent by each kind of process (bench/process-cpu.py, to
# <clone>/process-cpu.tsv).
#
#   bench/suite-bench.sh [clone directory=/tmp/card-catalog-suite] [extra ./mvnw arguments...]
set -euo pipefail
SOURCE=$(cd "$(dirname "$0")/.." && pwd)
CLONE=${1:-/tmp/card-catalog-suite}
shift || true
rm -rf "$CLONE"
git clone -q "$SOURCE" "$CLONE"
cd "$CLONE"
echo "commit: $(git log --oneline -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8, $2+$3+$4+$5+$6+$7+$8}' /proc/stat; }
sample_cpu() {
    local last now
    last=$(busy)
    while sleep 10; do
        now=$(busy)
        echo "$(date +%H:%M:%S) $last $now" | awk '{printf "%s\t%.0f%%\n", $1, 100 * ($4 - $2) / ($5 - $3)}'
        last=$now
    done
}
start=$(date +%s)
before=$(busy)
sample_cpu > cpu.tsv &
sampler=$!
python3 "$SOURCE/bench/process-cpu.py" process-cpu.tsv > process-cpu.txt &
processes=$!
status=0
./mvnw -B verify "$@" > suite.log 2>&1 || status=$?
end=$(date +%s)
after=$(busy)
kill $sampler
kill -TERM $processes
wait $processes || true
echo "$before $after" | awk -v cores="$(nproc)" '{printf "cores busy: %.0f%% of %d cores over the run (%s/cpu.tsv every 10 s)\n", 100 * ($3 - $1) / ($4 - $2), cores, ENVIRON["PWD"]}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "./mvnw -B verify: exit $status, $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s (log: $CLONE/suite.log)"
grep -E "Tests run: [0-9]+, Failures" suite.log | grep -v " -- in " || true
cat process-cpu.txt
echo "Quarkus starts (one per test profile used): $(grep -c 'started in .*Listening on' suite.log || true)"
python3 - <<'EOF'
import re
# every class's line in the log ("Tests run: ..., Time elapsed: X s -- in <class>"): surefire runs the unit tests as
# two suites (dev.cardcatalog.suites), whose reports hold the classes' test cases but not each class's whole time
rows = []
suites = []
for line in open("suite.log", encoding="utf-8", errors="replace"):
    m = re.search(r"Tests run: (\d+), .*Time elapsed: ([\d.,]+) s.* -- in dev\.cardcatalog\.(\S+)", line)
    if not m:
        continue
    seconds, name = float(m.group(2).replace(",", "")), m.group(3).rsplit(".", 1)[-1]
    if name.endswith("Suite"):
        suites.append(f"{name}: {seconds:.0f} s")
    else:
        rows.append((seconds, "integration" if name.endswith("IT") else "unit", name, int(m.group(1))))
rows.sort(reverse=True)
for seconds, phase, name, tests in rows:
    print(f"{seconds:8.1f} s  {phase:11}  {name} ({tests})")
for phase in ("unit", "integration"):
    print(f"sum of {phase} classes: {sum(r[0] for r in rows if r[1] == phase):.0f} s")
print("unit-test suites, one per JVM (from discovery to the end):", ", ".join(suites))
EOF
exit $status
