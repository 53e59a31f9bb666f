# Sourced by the HTTP benchmarks (match-http-bench.sh, match-http-pairs.sh).
#
# start_local_run CLASSPATH PORT DIR JVM_OPTIONS [RUNNER]
#   starts the packaged service RUNNER (a quarkus-run.jar; target/quarkus-app/quarkus-run.jar when absent) with the
#   local run of CLASSPATH as it starts it (dev.cardcatalog.testing.LocalRun: embedded
#   PostgreSQL and Kafka, the Scryfall stand-in) on PORT in the background, its files and log (DIR/local.log) under
#   DIR, the service's JVM with JVM_OPTIONS; waits for it, starts a refresh, and waits for the art build the refresh
#   starts (at most 20 minutes). Sets LOCAL_PID (the local run's process) and PASSWORD (the operator's). The caller
#   stops LOCAL_PID (a trap) when it is done.
# service_pid PORT     the process listening on PORT (the service's JVM, not the local run's)
# cpu_ticks PID        the user and system CPU time PID has used, in clock ticks (getconf CLK_TCK a second)
# machine_ticks        the whole machine's busy CPU time, in clock ticks

start_local_run() {
  local cp=$1 port=$2 dir=$3 options=$4 runner=${5:-target/quarkus-app/quarkus-run.jar}
  [ -f "$runner" ] || { echo "no packaged service at $runner (./mvnw package)" >&2; return 1; }
  runner=$(cd "$(dirname "$runner")" && pwd)/$(basename "$runner")
  rm -rf "$dir/local"
  mkdir -p "$dir"
  : > "$dir/local.log"
  # the runner named, never the working directory's: a revision's local run would start this tree's package
  java -cp "$cp" -Dapp.runner="$runner" -Dlocal.port="$port" -Dlocal.dir="$dir/local" \
    -Dlocal.jvm-options="$options -Dorg.bytedeco.javacpp.cachedir=$dir/javacpp" \
    dev.cardcatalog.testing.LocalRun > "$dir/local.log" 2>&1 &
  LOCAL_PID=$!
  for _ in $(seq 1 360); do
    grep -q '^Its password:' "$dir/local.log" && break
    kill -0 "$LOCAL_PID" 2>/dev/null || { cat "$dir/local.log"; echo "the local run ended" >&2; return 1; }
    sleep 1
  done
  PASSWORD=$(awk '/^Its password:/{print $3}' "$dir/local.log")
  [ -n "$PASSWORD" ] || { cat "$dir/local.log"; echo "the local run did not start" >&2; return 1; }
  local base=http://localhost:$port pid
  pid=$(service_pid "$port")
  if [ -n "$pid" ] && ! tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$runner"; then
    echo "the service on port $port does not run $runner" >&2
    return 1
  fi
  curl -fsS -u "operator:$PASSWORD" -X POST "$base/api/refreshes" >/dev/null
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "$base/api/art-index" 2>/dev/null && return 0
    sleep 2
  done
  echo "no art index on port $port after 20 minutes" >&2
  return 1
}

service_pid() {
  ss -ltnpH "sport = :$1" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2
}

cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat"
}

machine_ticks() {
  awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat
}
