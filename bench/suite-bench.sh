#!/usr/bin/env bash
# The test suite's own benchmark (docs/benchmarks.md, "Test suite"): ./mvnw -B verify on a fresh clone of this
# repository's HEAD, as a new contributor runs it, timed with the load average before and after, then the time of
# every test class (surefire's and failsafe's reports) and the Quarkus starts, longest first, and how busy the
# machine's cores were: every 10 s, the share of all cores' time spent running (/proc/stat), to <clone>/cpu.tsv,
# and the average of the test phases.
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
status=0
./mvnw -B verify "$@" > suite.log 2>&1 || status=$?
end=$(date +%s)
after=$(busy)
kill $sampler
echo "$before $after" | awk -v cores="$(nproc)" '{printf "cores busy: %.0f%% of %d cores over the run (%s/cpu.tsv every 10 s)\n", 100 * ($3 - $1) / ($4 - $2), cores, ENVIRON["PWD"]}'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "./mvnw -B verify: exit $status, $(( (end - start) / 60 )) min $(( (end - start) % 60 )) s (log: $CLONE/suite.log)"
grep -E "Tests run: [0-9]+, Failures" suite.log | grep -v " -- in " || true
echo "Quarkus starts (one per test profile used): $(grep -c 'started in .*Listening on' suite.log || true)"
python3 - <<'EOF'
import glob, xml.etree.ElementTree as ET
rows = []
for phase, pattern in (("unit", "target/surefire-reports/TEST-*.xml"), ("integration", "target/failsafe-reports/TEST-*.xml")):
    for path in glob.glob(pattern):
        suite = ET.parse(path).getroot()
        rows.append((float(suite.get("time")), phase, suite.get("name").rsplit(".", 1)[-1], int(suite.get("tests"))))
rows.sort(reverse=True)
for seconds, phase, name, tests in rows:
    print(f"{seconds:8.1f} s  {phase:11}  {name} ({tests})")
for phase in ("unit", "integration"):
    print(f"sum of {phase} classes: {sum(r[0] for r in rows if r[1] == phase):.0f} s")
EOF
exit $status
