#!/usr/bin/env bash
# The delay relay benchmark (docs/benchmarks.md): delayed commands with random due times across the partitions;
# lateness (forward time minus not-before) p50, p99, max, and how many were forwarded early (must be 0).
#
#   bench/relay-bench.sh [commands=1000] [longest delay in seconds=60]
set -euo pipefail
cd "$(dirname "$0")/.."
COMMANDS=${1:-1000}
MAX_DELAY=${2:-60}
mkdir -p target/bench
source bench/common.sh
java -cp "$CP" dev.cardcatalog.bench.RelayBench "$COMMANDS" "$MAX_DELAY"
