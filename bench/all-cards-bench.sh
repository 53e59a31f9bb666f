#!/usr/bin/env bash
# The all_cards benchmark (docs/benchmarks.md): a generated all_cards file of 550,000 records in ten languages
# (~2.4 GB decoded) refreshed into an empty catalog by the packaged service with ten languages configured and its heap
# capped at 256 MB; then the same file under a new version with its download cut at 2.2 GB decoded, which must fail
# and leave the catalog as it was.
#
#   bench/all-cards-bench.sh [cards=550000] [heap=256m]
set -euo pipefail
cd "$(dirname "$0")/.."
CARDS=${1:-550000}
HEAP=${2:-256m}
LANGUAGES=en,es,fr,de,it,pt,ja,ko,ru,zhs
FILE=target/bench/all-cards-${CARDS}.jsonl.gz

source bench/common.sh

if [ ! -f "$FILE" ]; then
  java -cp "$CP" dev.cardcatalog.bench.BulkFileGenerator "$CARDS" "$FILE" 20261130 "$LANGUAGES"
fi
# the benchmark's own JVM holds the file to serve it (about 350 MB)
java -Xmx2g -cp "$CP" dev.cardcatalog.bench.AllCardsBench "$FILE" "$HEAP" "$LANGUAGES"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
