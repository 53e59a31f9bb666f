#!/usr/bin/env bash
# Two revisions of the service, A and B, compared over HTTP in pairs (docs/benchmarks.md, "Pairs"): on a machine
# whose speed drifts by more than the difference sought, one run of each in turn compares the machine's moments as
# much as the code. Both services run at once, each as the local run starts it (bench/local-run.sh: embedded
# PostgreSQL and Kafka, the Scryfall stand-in, a refresh and the art build it starts), and `ab` alternates between
# them: a warm-up of each, then ROUNDS rounds of S seconds each, A first in odd rounds and B first in even ones. The
# service that is not being measured is idle. Prints each round's requests/s, p50, p99 and the service's CPU time a
# request, then B's requests/s over A's per round (median, mean, least and most) and the means.
#
#   bench/match-http-pairs.sh A B [--photo 1024] [--seconds 20] [--rounds 8] [--concurrency 8] [--warm-up 20]
#                                 [--jvm-options-a "..."] [--jvm-options-b "..."]
#
# A and B are revisions of this repository (a commit, a tag, HEAD): each is checked out into
# target/match-http-pairs/<a|b>/ (a git worktree, kept for the next run) and packaged there, and its service runs
# that package (bench/local-run.sh names the runner jar and checks the process runs it). Both get the same
# photos (bench/MatchPhotos.java of the working tree: small, 1024, 12mp, 12mp-card, 12mp-binder) and the Deployment's
# JVM options unless told otherwise. Ports 18651 (A) and 18652 (B). Needs git, `ab`, curl, `ss`
# (Debian: apt-get install -y apache2-utils curl iproute2).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
# as commits of this repository: "HEAD" inside a worktree would be the worktree's own
REV_A=$(git rev-parse --verify "$1^{commit}")
REV_B=$(git rev-parse --verify "$2^{commit}")
shift 2
PHOTO=1024
SECONDS_PER_ROUND=20
ROUNDS=8
CONCURRENCY=8
WARM_UP=20
# the Deployment's options, as match-http-bench.sh's default (which ManifestsTest holds to the Deployment)
DEPLOYED=$(sed -n 's/^JVM_OPTIONS="\(.*\)"$/\1/p' bench/match-http-bench.sh)
[ -n "$DEPLOYED" ] || { echo "no JVM_OPTIONS default in bench/match-http-bench.sh" >&2; exit 1; }
JVM_A=$DEPLOYED
JVM_B=$DEPLOYED
while [ $# -gt 0 ]; do
  case "$1" in
    --photo) PHOTO=$2; shift 2 ;;
    --seconds) SECONDS_PER_ROUND=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --concurrency) CONCURRENCY=$2; shift 2 ;;
    --warm-up) WARM_UP=$2; shift 2 ;;
    --jvm-options-a) JVM_A=$2; shift 2 ;;
    --jvm-options-b) JVM_B=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
for tool in git ab curl ss; do
  command -v "$tool" >/dev/null \
    || { echo "$tool is missing (Debian: apt-get install -y apache2-utils curl iproute2)" >&2; exit 1; }
done
CARD=98a9ef61-1c6d-49d1-b185-2b022482b442   # Dusk Legion Zealot, in the bundled sample (as match-http-bench.sh)
DIR=$(pwd)/target/match-http-pairs
mkdir -p "$DIR"

source bench/common.sh
source bench/local-run.sh
java -cp "$CP" dev.cardcatalog.bench.MatchPhotos "$DIR/photos" "$CARD" >/dev/null
FILE=$DIR/photos/$PHOTO.jpg
[ -f "$FILE" ] || { echo "no photo $PHOTO (small, 1024, 12mp, 12mp-card, 12mp-binder)" >&2; exit 2; }

# each revision's own tree, package and test class path (LocalRun is a test class)
checkout() {
  local side=$1 rev=$2 tree=$DIR/$1
  if [ ! -d "$tree" ]; then
    git worktree prune # a tree removed with target/ (mvn clean) is still registered
    git worktree add --detach "$tree" "$rev" >/dev/null || return 1
  else
    git -C "$tree" checkout -q --detach "$rev" || return 1
  fi
  echo "$side: $(git -C "$tree" log -1 --format='%h %s' | cut -c1-100)" >&2
  # clean: classes and resources another revision left in the tree's target/ would be packaged with this one
  (cd "$tree" && ./mvnw -B -q clean package -DskipTests \
    && ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench/classpath.txt) >&2 \
    || { echo "$side: $rev did not build" >&2; return 1; }
  echo "$tree/target/test-classes:$tree/target/classes:$(cat "$tree/target/bench/classpath.txt")"
}
CP_A=$(checkout a "$REV_A")
CP_B=$(checkout b "$REV_B")

PIDS=()
# LOCAL_PID too: a start that failed had not yet been added to PIDS
trap 'for p in "${PIDS[@]}" ${LOCAL_PID:-}; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null || true; done' EXIT
echo "starting A on 18651 and B on 18652, each with a refresh and its art build ..."
start_local_run "$CP_A" 18651 "$DIR/run-a" "$JVM_A" "$DIR/a/target/quarkus-app/quarkus-run.jar"
PIDS+=("$LOCAL_PID")
start_local_run "$CP_B" 18652 "$DIR/run-b" "$JVM_B" "$DIR/b/target/quarkus-app/quarkus-run.jar"
PIDS+=("$LOCAL_PID")

TICK=$(getconf CLK_TCK)
# one ab run against PORT for S seconds: "requests/s p50 p99 cpu-ms-a-request failures"
measure() {
  local port=$1 seconds=$2 pid before after out
  pid=$(service_pid "$port")
  before=$(cpu_ticks "$pid")
  out=$(ab -q -c "$CONCURRENCY" -t "$seconds" -n 1000000 -T image/jpeg -p "$FILE" \
    "http://localhost:$port/api/art-index/matches" 2>&1)
  after=$(cpu_ticks "$pid")
  printf '%s\n' "$out" | awk -v cpu=$((after - before)) -v tick="$TICK" '
    /^Complete requests:/ {done = $3}
    /^Failed requests:/ {failed = $3}
    /^Non-2xx responses:/ {non2xx = $3}
    /^Requests per second:/ {rps = $4}
    $1 == "50%" {p50 = $2}
    $1 == "99%" {p99 = $2}
    END {printf "%s %s %s %.2f %d\n", rps, p50, p99, cpu * 1000 / tick / (done > 0 ? done : 1), failed + non2xx}'
}
echo "warm-up: ${WARM_UP} s of $PHOTO each"
measure 18651 "$WARM_UP" >/dev/null
measure 18652 "$WARM_UP" >/dev/null
echo "load average before the rounds: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %-5s %12s %8s %8s %14s %9s\n' round side requests/s p50_ms p99_ms cpu_ms/request failures
: > "$DIR/rounds.txt"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then ORDER="a b"; else ORDER="b a"; fi
  for side in $ORDER; do
    if [ "$side" = a ]; then port=18651; else port=18652; fi
    set -- $(measure "$port" "$SECONDS_PER_ROUND")
    printf '%-6s %-5s %12s %8s %8s %14s %9s\n' "$round" "$side" "$1" "$2" "$3" "$4" "$5"
    echo "$round $side $1 $2 $3 $4 $5" >> "$DIR/rounds.txt"
  done
done
python3 - "$DIR/rounds.txt" <<'EOF'
import statistics, sys
rounds = {}
for line in open(sys.argv[1]):
    r, side, rps, p50, p99, cpu, failed = line.split()
    rounds.setdefault(r, {})[side] = (float(rps), float(p99), float(cpu))
ratios = [v["b"][0] / v["a"][0] for v in rounds.values()]
def mean(side, k):
    return statistics.mean(v[side][k] for v in rounds.values())
print(f"B over A, requests/s, per round: median {statistics.median(ratios):.3f}, mean {statistics.mean(ratios):.3f}, "
      f"least {min(ratios):.3f}, most {max(ratios):.3f} ({len(ratios)} rounds)")
for side in ("a", "b"):
    print(f"{side.upper()}: mean {mean(side, 0):.1f}/s, mean p99 {mean(side, 1):.0f} ms, "
          f"mean CPU {mean(side, 2):.2f} ms a request")
EOF
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
