# Sourced by the benchmark scripts: builds the service (extra Maven arguments: $BENCH_BUILD_ARGS), writes the test class path to
# target/bench/classpath.txt, sets CP to it, and prints the machine, the JDK and the load average at the start.
./mvnw -B -q package -DskipTests ${BENCH_BUILD_ARGS:-}
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench/classpath.txt
CP="target/test-classes:target/classes:$(cat target/bench/classpath.txt)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB"
java -version 2>&1 | head -1
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
