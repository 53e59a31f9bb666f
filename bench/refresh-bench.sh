#!/usr/bin/env bash
# The refresh benchmark (docs/benchmarks.md): (a) a refresh of ~110,000 cards into an empty database, (b) a no-op
# re-run of the same file, (c) only reading the file (gunzip + parse). The service's heap is capped at 256 MB.
#
#   bench/refresh-bench.sh [cards=110000] [rounds=3] [heap=256m]
set -euo pipefail
cd "$(dirname "$0")/.."
CARDS=${1:-110000}
ROUNDS=${2:-3}
HEAP=${3:-256m}
FILE=target/bench/default-cards-${CARDS}.jsonl.gz

source bench/common.sh

if [ ! -f "$FILE" ]; then
  java -cp "$CP" dev.cardcatalog.bench.BulkFileGenerator "$CARDS" "$FILE"
fi

echo
echo "== (c) reading the file only: gunzip + parse every token, -Xmx$HEAP =="
for i in $(seq 1 "$ROUNDS"); do
  /usr/bin/time -f "round $i: wall %e s, peak RSS %M KB" java -Xmx"$HEAP" -cp "$CP" dev.cardcatalog.bench.ReadFloor "$FILE"
done

echo
echo "== (a) and (b): the packaged service, -Xmx$HEAP =="
java -cp "$CP" dev.cardcatalog.bench.RefreshBench "$FILE" "$ROUNDS" "$HEAP"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
