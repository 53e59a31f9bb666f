#!/usr/bin/env bash
# The admin page's render benchmark (docs/benchmarks.md): GET /admin as an operator against the packaged service
# with 1,000 finished, 100 failed and 100 waiting jobs in the ledger; p50, p95, p99 and max per view.
#
#   bench/admin-bench.sh [warm-up requests=300] [measured requests=1000]
set -euo pipefail
cd "$(dirname "$0")/.."
WARM_UP=${1:-300}
MEASURED=${2:-1000}
mkdir -p target/bench
# The page asks for a role: build with the embedded users realm on (a build-time switch), the users come below.
BENCH_BUILD_ARGS=-Dquarkus.security.users.embedded.enabled=true
source bench/common.sh
java -cp "$CP" dev.cardcatalog.bench.AdminPageBench "$WARM_UP" "$MEASURED"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
