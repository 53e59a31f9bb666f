#!/usr/bin/env bash
# The real-photo benchmark (docs/benchmarks.md, "Real photos"): the match, as the endpoint runs it, over a folder of
# photos with a truth.json of their cards' outlines; prints per photo the cards outlined right (IoU >= 0.85), the
# outlines that are no card, the confident answers and the time, then the totals. Asserts nothing.
# Usage: bench/real-photo-bench.sh FOLDER [--artworks 852] [--rounds 3] [--deadline-ms 2000] [--overlays DIR]
# e.g.   bench/real-photo-bench.sh ../shared/data/real-photos --overlays target/real-photos
set -euo pipefail
cd "$(dirname "$0")/.."
folder="$(cd "$1" && pwd)"
shift
./mvnw -B -q test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/art-bench.classpath -Dmdep.includeScope=test
exec java -Xms512m -Xmx1g -cp "target/test-classes:target/classes:$(cat target/art-bench.classpath)" \
  dev.cardcatalog.bench.RealPhotoBench "$folder" "$@"
