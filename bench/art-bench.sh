#!/usr/bin/env bash
# The art fingerprint, matching and accuracy benchmark (docs/benchmarks.md).
# Usage: bench/art-bench.sh [--artworks 50000] [--captures 1000] [--rounds 5] [--seconds 3]
#                           [--sizes 50000,200000] [--calls 5000] [--parts throughput,latency,accuracy,photos[,heldout]]
#                           [--photos 1000] [--pages 200] [--collections 50]
# The first run builds a 50,000-artwork index (about 3-4 minutes on 2 cores) and keeps it in
# target/art-bench/ for later runs. Prints the figures; asserts nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/art-bench.classpath -Dmdep.includeScope=test
exec java -Xms1g -Xmx1g -cp "target/test-classes:target/classes:$(cat target/art-bench.classpath)" \
  dev.cardcatalog.bench.ArtBench "$@"
