#!/usr/bin/env bash
# The lookup benchmark (docs/benchmarks.md): the packaged service over ~110,000 cards answers GET /api/cards?name=,
# GET /api/cards/{id} and GET /api/sets/{code}/cards/{number} at a fixed open-loop rate; latency percentiles from an
# HdrHistogram. The service's heap is capped at 256 MB.
#
#   bench/lookup-bench.sh [cards=110000] [rate=200] [seconds per kind=30] [heap=256m] [name search rate=rate]
set -euo pipefail
cd "$(dirname "$0")/.."
CARDS=${1:-110000}
RATE=${2:-200}
SECONDS_PER_KIND=${3:-30}
HEAP=${4:-256m}
NAME_RATE=${5:-$RATE}
FILE=target/bench/default-cards-${CARDS}.jsonl.gz

source bench/common.sh

if [ ! -f "$FILE" ]; then
  java -cp "$CP" dev.cardcatalog.bench.BulkFileGenerator "$CARDS" "$FILE"
fi
java -cp "$CP" dev.cardcatalog.bench.LookupBench "$FILE" "$RATE" "$SECONDS_PER_KIND" "$HEAP" "$NAME_RATE"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
