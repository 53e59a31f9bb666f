package dev.cardcatalog.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00.600Z");

    @Test
    void showsUtcWithSecondsAndTheZone() {
        assertThat(Times.utc(Instant.parse("2026-11-30T12:04:05.999Z"))).isEqualTo("2026-11-30 12:04:05 UTC");
        assertThat(Times.utc(null)).isEmpty();
    }

    @Test
    void saysHowFarAheadOrBehindInWholeUnitsRoundedDown() {
        assertThat(Times.relative(NOW.plusSeconds(40), NOW)).isEqualTo("in 40 s");
        assertThat(Times.relative(NOW.plusSeconds(4 * 60 + 59), NOW)).isEqualTo("in 4 min");
        assertThat(Times.relative(NOW.minusSeconds(12), NOW)).isEqualTo("12 s ago");
        assertThat(Times.relative(NOW.minusSeconds(3 * 3600), NOW)).isEqualTo("3 h ago");
        assertThat(Times.relative(NOW.minusSeconds(3 * 86400), NOW)).isEqualTo("3 d ago");
        assertThat(Times.relative(NOW.plusMillis(300), NOW)).isEqualTo("now");
        assertThat(Times.both(NOW.plusSeconds(240), NOW)).isEqualTo("2026-11-30 12:04:00 UTC (in 4 min)");
    }
}
