package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cardcatalog.platform.BusyException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The replica's memory budget for decoding uploads ({@link DecodeMemory}). */
class DecodeMemoryTest {

    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    @Test
    void reservationsFillTheBudgetAndOneMoreIsRefusedAtOnceWithRetryAfter() {
        DecodeMemory memory = new DecodeMemory(100, 60, Duration.ofMillis(1500), metrics);
        DecodeMemory.Reservation a = memory.reserve(60);
        DecodeMemory.Reservation b = memory.reserve(40);
        assertThat(memory.reserved()).isEqualTo(100);
        assertThat(metrics.get("art.decode.memory.reserved").gauge().value()).isEqualTo(100);
        assertThatThrownBy(() -> memory.reserve(1)).isInstanceOfSatisfying(BusyException.class, busy -> {
            assertThat(busy.retryAfterSeconds()).isEqualTo(2);
            assertThat(busy.problem().status()).isEqualTo(503);
            assertThat(busy.problem().type()).endsWith("/service-busy");
        });
        assertThat(metrics.get("art.decode.memory.refused").counter().count()).isEqualTo(1);
        // a refusal reserved nothing; closing gives back, once however often it is closed
        a.close();
        a.close();
        assertThat(memory.reserved()).isEqualTo(40);
        memory.reserve(60).close();
        b.close();
        assertThat(memory.reserved()).isZero();
    }

    @Test
    void theBudgetMustHoldOneUploadOfTheLargestAccepted() {
        assertThatThrownBy(() -> new DecodeMemory(50, 60, Duration.ofSeconds(2), metrics))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("card-catalog.art.upload-decode-memory");
        assertThat(new DecodeMemory(60, 60, Duration.ofSeconds(2), metrics).budget()).isEqualTo(60);
    }
}
