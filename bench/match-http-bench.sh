#!/usr/bin/env bash
# Whole matches over HTTP (docs/benchmarks.md, "Whole matches over HTTP"): the packaged service started as the local
# run starts it (embedded PostgreSQL and Kafka, the Scryfall stand-in), a refresh and the art build it starts (the
# sample's artworks indexed), then `ab` with C concurrent clients for S seconds per photo: the stand-in's 146x204
# picture of Dusk Legion Zealot, the same art at 1,024x1,433 and at 3,024x4,032 (guide crops), a 12-megapixel
# whole photo of it lying on a patterned surface in perspective, and a 12-megapixel binder page of nine of the
# sample's cards (bench/MatchPhotos.java). Prints requests/s, p50, p99 and failures per photo, and checks the first
# match of each single-card photo is the card's artwork, confident, and that the binder page names its nine, all
# confident. For each photo also the CPU time a request costs: the service's process, ab's, and the whole machine's.
# Each request's own times are kept in target/match-http-bench/ab-<photo>.tsv (ab's -g: the second it started,
# its total ms in the 5th column; ab-<photo>-2.tsv for the photo's second run in --photos, and so on), to see where
# in the run the slow ones were (beside a collector's log, say).
#
#   bench/match-http-bench.sh [--seconds 60] [--concurrency 8] [--port 18642] [--scaled true|false]
#                             [--jvm-options "-Xmx256m -XX:+UseSerialGC -XX:SurvivorRatio=4 -XX:TargetSurvivorRatio=90"]
#                             [--photos "small 1024 12mp 12mp-card 12mp-binder"]
#
# --scaled false sets card-catalog.art.upload-scaled-decoding=false: every upload decoded by ImageIO, as before the
# scaled decoder (for a before/after on the same machine). The service runs with the Deployment's heap and
# collector unless --jvm-options says otherwise. Needs `ab`, curl, `ss` and /usr/bin/time (Debian: apt-get install -y
# apache2-utils curl iproute2 time).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_PHOTO=60
CONCURRENCY=8
PORT=18642
SCALED=true
JVM_OPTIONS="-Xmx256m -XX:+UseSerialGC -XX:SurvivorRatio=4 -XX:TargetSurvivorRatio=90"
PHOTOS="small 1024 12mp 12mp-card 12mp-binder"
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER_PHOTO=$2; shift 2 ;;
    --concurrency) CONCURRENCY=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --scaled) SCALED=$2; shift 2 ;;
    --jvm-options) JVM_OPTIONS=$2; shift 2 ;;
    --photos) PHOTOS=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
for tool in ab curl ss /usr/bin/time; do
  command -v "$tool" >/dev/null \
    || { echo "$tool is missing (Debian: apt-get install -y apache2-utils curl iproute2 time)" >&2; exit 1; }
done
CARD=98a9ef61-1c6d-49d1-b185-2b022482b442   # Dusk Legion Zealot, in the bundled sample
ARTWORK=1f0a4bfa-a829-4578-8564-54ade1dda937  # its illustration_id
DIR=$(pwd)/target/match-http-bench
rm -rf "$DIR/local"
mkdir -p "$DIR"

source bench/common.sh
source bench/local-run.sh

java -cp "$CP" dev.cardcatalog.bench.MatchPhotos "$DIR/photos" "$CARD"

echo "starting the local run on port $PORT (service JVM options: $JVM_OPTIONS; scaled decoding: $SCALED), then a"
echo "refresh and the art build it starts ..."
LOCAL_PID=
trap '[ -z "$LOCAL_PID" ] || { kill $LOCAL_PID 2>/dev/null; wait $LOCAL_PID 2>/dev/null || true; }' EXIT
start_local_run "$CP" "$PORT" "$DIR" "$JVM_OPTIONS -Dcard-catalog.art.upload-scaled-decoding=$SCALED"
BASE=http://localhost:$PORT
curl -fsS "$BASE/api/art-index"
echo
echo
echo "which decoder serves uploads: $(grep -o 'Uploaded JPEGs are decoded[^(]*' "$DIR/local.log" | head -1)"
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
# The service's own process: its CPU time per request, beside ab's and the whole machine's, says where a request's
# cost goes (the service's JVM; ab sending the photo; PostgreSQL and the rest).
SERVICE_PID=$(service_pid "$PORT")
TICK=$(getconf CLK_TCK)
printf '%-22s %10s %12s %8s %8s %9s %s\n' photo bytes requests/s p50_ms p99_ms failures "first match"
declare -A RUNS=()
for photo in $PHOTOS; do
  FILE="$DIR/photos/$photo.jpg"
  # a photo's first run keeps its files as ab-<photo>.*, a second one of it (a warm minute) as ab-<photo>-2.*
  RUNS[$photo]=$(( ${RUNS[$photo]:-0} + 1 ))
  RUN=ab-$photo
  [ "${RUNS[$photo]}" = 1 ] || RUN=ab-$photo-${RUNS[$photo]}
  ANSWER=$(curl -fsS -X POST -H 'Content-Type: image/jpeg' --data-binary @"$FILE" "$BASE/api/art-index/matches")
  if [ "$photo" = 12mp-binder ]; then
    FIRST=$(printf '%s' "$ANSWER" | python3 -c '
import json,sys
a=json.load(sys.stdin); want=set(open(sys.argv[1]).read().split())
got={c["matches"][0]["illustration_id"] for c in a["cards"] if c["status"]=="confident"}
print("cards", len(a["cards"]), "confident-and-on-the-page", len(got & want))' "$DIR/photos/binder-artworks.txt")
    set -- $FIRST
    if [ "$2" != 9 ] || [ "$4" != 9 ]; then
      echo "$photo: $FIRST, not the nine cards of the page, all confident" >&2
      exit 1
    fi
    SAYS="nine cards, all confident"
  else
    FIRST=$(printf '%s' "$ANSWER" \
      | python3 -c 'import json,sys; m=json.load(sys.stdin)["matches"][0]; print(m["illustration_id"], m["distance"], m["confident"], m["rotation"])')
    set -- $FIRST
    if [ "$1" != "$ARTWORK" ] || [ "$3" != "True" ]; then
      echo "$photo: the first match is $FIRST, not artwork $ARTWORK confident" >&2
      exit 1
    fi
    SAYS="distance $2, confident, rotation $4"
  fi
  SERVICE_BEFORE=$(cpu_ticks "$SERVICE_PID")
  MACHINE_BEFORE=$(machine_ticks)
  /usr/bin/time -f '%U %S' -o "$DIR/$RUN.cpu" \
    ab -q -c "$CONCURRENCY" -t "$SECONDS_PER_PHOTO" -n 1000000 -g "$DIR/$RUN.tsv" -T image/jpeg -p "$FILE" \
    "$BASE/api/art-index/matches" > "$DIR/$RUN.txt" 2>&1
  SERVICE_CPU=$(( $(cpu_ticks "$SERVICE_PID") - SERVICE_BEFORE ))
  MACHINE_CPU=$(( $(machine_ticks) - MACHINE_BEFORE ))
  RPS=$(awk '/^Requests per second:/{print $4}' "$DIR/$RUN.txt")
  P50=$(awk '$1=="50%"{print $2}' "$DIR/$RUN.txt")
  P99=$(awk '$1=="99%"{print $2}' "$DIR/$RUN.txt")
  FAILED=$(awk '/^Failed requests:/{print $3}' "$DIR/$RUN.txt")
  NON2XX=$(awk '/^Non-2xx responses:/{print $3}' "$DIR/$RUN.txt")
  DIM=$(python3 -c "
import struct,sys
b=open('$FILE','rb').read(); i=2
while i<len(b):
  m=b[i+1]; n=struct.unpack('>H',b[i+2:i+4])[0]
  if 0xC0<=m<=0xCF and m not in (0xC4,0xC8,0xCC): h,w=struct.unpack('>HH',b[i+5:i+9]); print(f'{w}x{h}'); break
  i+=2+n")
  printf '%-22s %10s %12s %8s %8s %9s %s\n' "$DIM" "$(stat -c %s "$FILE")" "$RPS" "$P50" "$P99" \
    "${FAILED:-0}+${NON2XX:-0}" "$SAYS"
  DONE=$(awk '/^Complete requests:/{print $3}' "$DIR/$RUN.txt")
  python3 -c "
done=max(1, int('$DONE')); tick=1000.0/$TICK
ab=sum(float(x) for x in open('$DIR/$RUN.cpu').read().split()[-2:])*1000
print(f'  CPU per request: the service {$SERVICE_CPU*tick/done:.1f} ms, ab {ab/done:.1f} ms, the machine {$MACHINE_CPU*tick/done:.1f} ms (of {done} requests)')"
  echo "  (load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "(failures: failed requests + non-2xx answers, as ab counts them; ab's own report per photo in $DIR/ab-*.txt)"
