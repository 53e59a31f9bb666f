#!/usr/bin/env bash
# The test suite's own benchmark (docs/benchmarks.md, "Test suite"): ./mvnw -B verify on a fresh clone of this
# repository's HEAD, as a new contributor runs it, timed with the load average before and after, then the time of
# every test class (surefire's and failsafe's reports) and the Quarkus starts, longest first.
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
start=$(date +%s)
status=0
./mvnw -B verify "$@" > suite.log 2>&1 || status=$?
end=$(date +%s)
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
