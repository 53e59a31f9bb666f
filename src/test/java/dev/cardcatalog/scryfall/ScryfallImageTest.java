package dev.cardcatalog.scryfall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cardcatalog.testing.ArtProfile;
import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.TestData;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.quarkus.runtime.util.ForwardingScheduledExecutorService;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Image requests through the client, spaced by the image lane (2 ms in this profile): every wait, however short, ends
 * (a sub-millisecond timer once never fired and hung the art build). And every wait is bounded by the client's own
 * timers: an attempt with no answer is stopped even when the scheduler the client shares with the framework loses
 * its timer (an art build once waited minutes on one image that way), and a call stalled between its attempts is
 * stopped past the longest it may take.
 */
@QuarkusTest
@TestProfile(ArtProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class ScryfallImageTest {

    @Inject
    ScryfallClient client;

    @Inject
    QuietWindow quietWindow;

    @Inject
    Clock clock;

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void imagesInARowAreEachFetchedWithAnImageAccept() {
        for (int i = 0; i < 50; i++) {
            byte[] image = client.image("https://cards.scryfall.io/small/front/0/0/003367c7-6cb8-4451-8349-76ce5d21e367.jpg?1", 1 << 20)
                    .await().atMost(Duration.ofSeconds(10));
            assertThat(image).isNotEmpty();
        }
        assertThat(ScryfallStandIn.shared().requests("/small/")).hasSize(50)
                .allSatisfy(request -> assertThat(request.header("Accept")).isEqualTo("image/*"));
    }

    /** This test's attempt timeout: a delay no other timer of the application uses, so that only it is lost. */
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(1_357);

    @Test
    void anAttemptWithNoAnswerIsStoppedAtItsTimeoutEvenWhenTheSharedSchedulerLosesTheTimer() {
        ScryfallConfig shortAttempts = with(ATTEMPT_TIMEOUT, Duration.ofSeconds(1));
        ScryfallCalls calls = new ScryfallCalls(shortAttempts, new RequestSpacing(shortAttempts), quietWindow, clock,
                new SimpleMeterRegistry(), OpenTelemetry.noop().getTracer("test"));
        AtomicInteger sent = new AtomicInteger();
        LosingScheduler losing = LosingScheduler.install(ATTEMPT_TIMEOUT);
        try {
            // the fault is real: a timeout on the shared scheduler with this delay never fires
            Throwable lost = catchThrowable(() -> Uni.createFrom().nothing().ifNoItem().after(ATTEMPT_TIMEOUT)
                    .failWith(() -> new IllegalStateException("the timer fired"))
                    .await().atMost(Duration.ofSeconds(4)));
            assertThat(lost).as("the await gave up, the timer never fired")
                    .isInstanceOf(io.smallrye.mutiny.TimeoutException.class);
            assertThat(losing.lost()).isEqualTo(1);

            Throwable failure = catchThrowable(() -> calls.call("http://127.0.0.1:9/small/front/stall.jpg",
                    ScryfallCalls.Lane.IMAGE, wire -> wire.ready().invoke(sent::incrementAndGet)
                            .chain(() -> Uni.createFrom().<byte[]>nothing()))
                    .await().atMost(Duration.ofSeconds(60)));

            assertThat(failure).isInstanceOf(ScryfallUnavailableException.class)
                    .hasMessageContaining("after 3 attempts")
                    .hasMessageContaining("(card-catalog.scryfall.attempt-timeout), "
                            + "its slot taken, waiting for the answer");
            assertThat(sent).hasValue(3);
            assertThat(losing.lost()).as("no timer of the call was on the shared scheduler").isEqualTo(1);
        } finally {
            losing.uninstall();
            calls.stopTimers();
        }
    }

    @Test
    void aCallStalledBetweenItsAttemptsIsStoppedPastItsLongestAndSaysWhereItWaited() {
        ScryfallConfig shortCalls = with(Duration.ofMillis(500), Duration.ofMillis(500));
        // the quiet window's write after a 429 never completes (a database that takes the query and never answers)
        QuietWindow stuck = new QuietWindow(null, clock, new SimpleMeterRegistry(), shortCalls) {
            @Override
            Uni<Void> admit(String scope, String callId, String url) {
                return Uni.createFrom().voidItem();
            }

            @Override
            Uni<Void> openFor(String scope, Duration wait, String callId, String reason) {
                return Uni.createFrom().nothing();
            }
        };
        ScryfallCalls calls = new ScryfallCalls(shortCalls, new RequestSpacing(shortCalls), stuck, clock,
                new SimpleMeterRegistry(), OpenTelemetry.noop().getTracer("test"));
        Duration bound = calls.longestCall().plus(ScryfallCalls.CALL_MARGIN);
        try {
            Throwable failure = catchThrowable(() -> calls.call("http://127.0.0.1:9/bulk-data",
                    ScryfallCalls.Lane.API, wire -> wire.ready().chain(() -> Uni.createFrom().<String>failure(
                            new HttpStatusFailure(429, Map.of("retry-after", List.of("1")), ""))))
                    .await().atMost(bound.plusSeconds(30)));

            assertThat(failure).isInstanceOf(ScryfallUnavailableException.class)
                    .hasMessageContaining("the call was stopped after " + bound.toSeconds() + " s")
                    .hasMessageContaining("attempt 1 of 3, storing the quiet window for");
        } finally {
            calls.stopTimers();
        }
    }

    /** The configuration with these attempt timeout and MAX_BACK_OFF, no spacing and 10 ms fallback waits. */
    private static ScryfallConfig with(Duration attemptTimeout, Duration maxBackOff) {
        return new TestScryfallConfig(Duration.ZERO, Duration.ZERO, Duration.ZERO, maxBackOff,
                List.of(Duration.ofMillis(10)), attemptTimeout);
    }

    /**
     * Mutiny's shared scheduler, losing every timer of one delay: scheduled, never run, never done. Others go
     * through to the scheduler it replaces, so the application's own timers keep running meanwhile.
     */
    private static final class LosingScheduler extends ForwardingScheduledExecutorService {
        private final ScheduledExecutorService replaced;
        private final java.util.concurrent.Executor replacedExecutor;
        private final long lostMillis;
        private final AtomicInteger lost = new AtomicInteger();

        private LosingScheduler(ScheduledExecutorService replaced, Duration lostDelay) {
            this.replaced = replaced;
            this.replacedExecutor = Infrastructure.getDefaultExecutor();
            this.lostMillis = lostDelay.toMillis();
        }

        static LosingScheduler install(Duration lostDelay) {
            LosingScheduler losing = new LosingScheduler(Infrastructure.getDefaultWorkerPool(), lostDelay);
            Infrastructure.setDefaultExecutor(losing, false);
            return losing;
        }

        void uninstall() {
            Infrastructure.setDefaultExecutor(replacedExecutor, false);
            if (Infrastructure.getDefaultWorkerPool() != replaced) {
                throw new IllegalStateException("Mutiny's scheduler was not restored");
            }
        }

        int lost() {
            return lost.get();
        }

        @Override
        protected ScheduledExecutorService delegate() {
            return replaced;
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            if (unit.toMillis(delay) != lostMillis) {
                return replaced.schedule(command, delay, unit);
            }
            lost.incrementAndGet();
            return new NeverDone();
        }
    }

    /** The future of a lost timer. */
    private static final class NeverDone extends CompletableFuture<Object> implements ScheduledFuture<Object> {
        @Override
        public long getDelay(TimeUnit unit) {
            return Long.MAX_VALUE;
        }

        @Override
        public int compareTo(Delayed other) {
            return 0;
        }
    }
}
