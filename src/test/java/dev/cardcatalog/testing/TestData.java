package dev.cardcatalog.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Resetting the shared infrastructure between tests. */
public final class TestData {

    /**
     * The system property that names a test JVM among several run side by side (surefire's forks:
     * {@code unit-${surefire.forkNumber}}, failsafe's: {@code fork-${surefire.forkNumber}}); unset in a JVM started
     * otherwise (an IDE's). Each JVM has its own PostgreSQL, broker
     * and stand-in; the directories it writes under {@code target/} get the name too ({@link #perJvm}).
     */
    public static final String FORK_PROPERTY = "card-catalog.test.fork";

    /** The test profile's {@code card-catalog.data-dir} (in a named JVM, its own: {@link #perJvm}). */
    public static final Path DATA_DIR = perJvm("target/test-data");

    private TestData() {
    }

    /** The topics a test's leftover commands wait on: the service would register them as jobs in the next test. */
    static final String[] COMMAND_TOPICS = {"card-catalog.commands", "card-catalog.commands.delayed"};
    /** How long a run an earlier test left going may stand still before {@link #reset()} gives up on it. */
    static final Duration LEFTOVER_STILL = Duration.ofSeconds(60);

    /**
     * Before a test of the service running in this JVM (a {@code @QuarkusTest}): every test starts from the same
     * stand-in, broker and database, whatever ran before it, in this class or another. In order:
     * <ol>
     *   <li>the stand-in forgets its script and releases its holds (a slow body an earlier test scripted is sent
     *       whole), so that a run that earlier test left going finishes at full speed;</li>
     *   <li>such a run ends before its rows go: a run emptied away under a service still working on it would go on
     *       writing into this test's data and count as one in flight ({@link #awaitRunsEnded});</li>
     *   <li>the commands left on the command topics are discarded, so that none registers a job in this test;</li>
     *   <li>the database, the data directory and the stand-in's recorded requests are emptied.</li>
     * </ol>
     */
    public static void reset() {
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        standIn.reset();
        awaitRunsEnded();
        TestKafka.discardRecords(COMMAND_TOPICS);
        TestDatabase.clear();
        standIn.reset();
        deleteTree(DATA_DIR);
    }

    /**
     * Before a test that starts its own service processes (the integration tests' {@code Instances}): none is
     * running, so the runs a killed process left are rows and nothing more. Empties the database, the data directory
     * and the stand-in's script; the caller discards the topics' records itself.
     */
    public static void resetWithoutService() {
        TestDatabase.clear();
        ScryfallStandIn.shared().reset();
        deleteTree(DATA_DIR);
    }

    /**
     * Waits until no run is going: none {@code running} with a heartbeat in the last minute (the rows of a run whose
     * instance died, as a test writes them, are left alone). A run that moves (its count, stage or progress time) may
     * take as long as it takes; one that stands still for {@link #LEFTOVER_STILL} fails the wait, naming it.
     */
    public static void awaitRunsEnded() {
        String query = "SELECT job_id::text || ' ' || attempt || ' ' || coalesce(stage, '') || ' ' || coalesce(done, -1)"
                + " || ' ' || coalesce(progressed_at::text, '') AS run FROM job_run WHERE status = 'running'"
                + " AND heartbeat_at > now() - interval '1 minute' ORDER BY 1";
        if (TestDatabase.value("SELECT to_regclass('public.job_run')") == null) {
            return; // before the service's first start
        }
        String[] seen = new String[1];
        long[] movedAt = {System.nanoTime()};
        org.awaitility.Awaitility.await().atMost(Jobs.CEILING).pollInterval(Duration.ofMillis(200)).until(() -> {
            List<Map<String, Object>> running = TestDatabase.rows(query);
            if (running.isEmpty()) {
                return true;
            }
            String now = running.toString();
            if (!now.equals(seen[0])) {
                seen[0] = now;
                movedAt[0] = System.nanoTime();
            } else if (System.nanoTime() - movedAt[0] > LEFTOVER_STILL.toNanos()) {
                throw new IllegalStateException("a run an earlier test left going stood still for "
                        + LEFTOVER_STILL.toSeconds() + " s: " + now);
            }
            return false;
        });
    }

    /**
     * {@code path}, or in a JVM named by {@link #FORK_PROPERTY} {@code path-<name>}
     * ({@code target/it-instances-fork-2}): a directory that JVMs run side by side do not share.
     */
    public static Path perJvm(String path) {
        String fork = System.getProperty(FORK_PROPERTY, "");
        return Path.of(fork.isBlank() ? path : path + "-" + fork);
    }

    public static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
