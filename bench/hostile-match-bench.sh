#!/usr/bin/env bash
# Hostile uploads (docs/benchmarks.md, "Hostile uploads (issue 23)"): the packaged service as the Deployment runs it
# (-Xmx256m -XX:+UseSerialGC -XX:SurvivorRatio=4 -XX:TargetSurvivorRatio=90), embedded PostgreSQL and Kafka, the
# Scryfall stand-in serving the bundled sample, and over HTTP: (1) the issue's scan flood alone on the idle
# service; (2) HOSTILE clients sending the hostile corpus back to back beside NORMAL clients matching guide crops
# back to back, for SECONDS, default configuration: the normal matches' p50/p99 and the hostile answers' times;
# (3) the heaviest upload the limits admit from HOSTILE clients beside NORMAL guide crops while a refresh of CARDS
# generated cards and the art build it starts run, with the uploads' memory budget the bound
# (expensive-match-concurrency=2): the service's peak RSS. Phase 2b is issue 23's
# item 5 as a benchmark: HOSTILE clients sending the corpus beside one normal client matching once a second.
#
#   bench/hostile-match-bench.sh [--seconds 60] [--hostile 8] [--normal 8] [--cards 110000] [--phases 1,2,2b,3]
#
# BENCH_JAVA_OPTS go to the driver, e.g. "-Dbench.service-options=-XX:NativeMemoryTracking=summary" (the service's
# memory as the JVM counts it, printed after each phase) or "-Dbench.service-env=MALLOC_ARENA_MAX=16" (the service runs
# with 2, as the Deployment runs it).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_RUN=60
HOSTILE=8
NORMAL=8
CARDS=110000
PHASES=1,2,2b,3
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_RUN=$2; shift 2 ;;
    --hostile) HOSTILE=$2; shift 2 ;;
    --normal) NORMAL=$2; shift 2 ;;
    --cards) CARDS=$2; shift 2 ;;
    --phases) PHASES=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

source bench/common.sh

echo "command: bench/hostile-match-bench.sh --seconds $SECONDS_RUN --hostile $HOSTILE --normal $NORMAL --cards $CARDS --phases $PHASES"
java -Xmx2g ${BENCH_JAVA_OPTS:-} -cp "$CP" dev.cardcatalog.bench.HostileMixBench "$SECONDS_RUN" "$HOSTILE" "$NORMAL" "$CARDS" \
  "$PHASES"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
