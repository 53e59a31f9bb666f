package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The outage rules of SERVICE.md §6.6 that need no server: which database failures are outages, and the back-off. */
class OutageRulesTest {

    @Test
    void failuresOfTheDatabaseItselfAreOutages() {
        // connection exceptions (08), resources (53), operator intervention such as a shutdown (57), rollbacks by
        // deadlock or serialization (40), system errors (58), and the pool's own failures, which have no SQLSTATE
        for (String state : new String[] {"08001", "08006", "08003", "53300", "53100", "57P01", "57P03", "40P01",
                "40001", "58030", "XX000", null}) {
            assertThat(DatabaseUnavailableException.valuesRefused(new SQLException("failed", state)))
                    .as("SQLSTATE %s", state).isFalse();
        }
    }

    @Test
    void valuesTheDatabaseRefusesAreNotOutages() {
        // data exceptions (22: untranslatable character, invalid JSON text, value too long) and integrity
        // constraint violations (23: check, unique, not null, foreign key) fail again whatever the wait
        for (String state : new String[] {"22P05", "22021", "22P02", "22001", "23514", "23505", "23502", "23503"}) {
            assertThat(DatabaseUnavailableException.valuesRefused(new SQLException("refused", state)))
                    .as("SQLSTATE %s", state).isTrue();
        }
    }

    @Test
    void theBackOffDoublesUpToItsCap() {
        OutageConfig config = config(Duration.ofMillis(500), Duration.ofSeconds(30));
        List<Duration> waits = new ArrayList<>();
        Duration wait = config.firstBackOff();
        for (int i = 0; i < 10; i++) {
            waits.add(wait);
            wait = config.nextBackOff(wait);
        }
        assertThat(waits).extracting(Duration::toMillis)
                .containsExactly(500L, 1_000L, 2_000L, 4_000L, 8_000L, 16_000L, 30_000L, 30_000L, 30_000L, 30_000L);
    }

    @Test
    void theBackOffNeverReachesZero() {
        OutageConfig config = config(Duration.ZERO, Duration.ZERO);
        assertThat(config.nextBackOff(config.firstBackOff())).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void retryAfterIsTheCapInWholeSecondsRoundedUpAndAtLeastOne() {
        assertThat(config(Duration.ofMillis(500), Duration.ofSeconds(30)).retryAfterSeconds()).isEqualTo(30);
        assertThat(config(Duration.ofMillis(500), Duration.ofMillis(1_500)).retryAfterSeconds()).isEqualTo(2);
        assertThat(config(Duration.ofMillis(10), Duration.ofMillis(200)).retryAfterSeconds()).isEqualTo(1);
        assertThat(config(Duration.ZERO, Duration.ZERO).retryAfterSeconds()).isEqualTo(1);
    }

    private static OutageConfig config(Duration first, Duration max) {
        return new OutageConfig() {
            @Override
            public Duration firstBackOff() {
                return first;
            }

            @Override
            public Duration maxBackOff() {
                return max;
            }
        };
    }
}
