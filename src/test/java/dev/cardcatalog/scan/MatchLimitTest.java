package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cardcatalog.platform.BusyException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The turns and the queue of {@link MatchLimit}, with a latch holding the only turn. */
class MatchLimitTest {

    @Test
    void aMatchWaitingLongerThanTheQueueWaitIsRefusedAndTheTurnServesAgainOnceFree() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        MatchLimit limit = new MatchLimit(1, 1, Duration.ofMillis(50), Duration.ofMillis(1500), metrics);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> limit.run(() -> {
            started.countDown();
            await(release);
            return "held";
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> limit.run(() -> "waited"))
                .isInstanceOfSatisfying(BusyException.class, busy -> {
                    assertThat(busy.retryAfterSeconds()).isEqualTo(2); // 1.5 s rounded up
                    assertThat(busy.problem().status()).isEqualTo(503);
                });
        assertThat(metrics.get("art.matches.refused").counter().count()).isEqualTo(1);
        assertThat(metrics.get("art.matches.running").gauge().value()).isEqualTo(1);

        release.countDown();
        assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("held");
        assertThat(limit.run(() -> "next")).isEqualTo("next");
        assertThat(metrics.get("art.matches.running").gauge().value()).isZero();
    }

    @Test
    void aFullQueueIsRefusedWithoutWaiting() throws Exception {
        MatchLimit limit = new MatchLimit(1, 0, Duration.ofHours(1), Duration.ofSeconds(2), new SimpleMeterRegistry());
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> limit.run(() -> {
            started.countDown();
            await(release);
            return "held";
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        // with no queue and an hour's queue wait, a refusal that came at all came at once
        assertThatThrownBy(() -> limit.run(() -> "refused")).isInstanceOf(BusyException.class);
        release.countDown();
        assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("held");
    }

    @Test
    void aMatchThatArrivesWhileAnotherWaitsGetsItsTurnAfterIt() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        MatchLimit limit = new MatchLimit(1, 2, Duration.ofSeconds(30), Duration.ofSeconds(2), metrics);
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // the holder, once its turn is over, asks for another at once: the one the waiting match was woken for (its
        // match made and the turns' code run hot beforehand, so that nothing but the asking lies between the two turns)
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            Supplier<Boolean> arrivedLater = () -> order.add("arrived later");
            for (int i = 0; i < 20_000; i++) {
                limit.run(() -> true);
            }
            limit.run(() -> {
                started.countDown();
                await(release);
                return order.add("first");
            });
            limit.run(arrivedLater);
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        Thread waiter = new Thread(() -> limit.run(() -> order.add("waited")));
        waiter.start();
        // parked for its turn: counted as waiting, and blocked in the semaphore's queue (its only timed wait)
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
                .until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
        assertThat(metrics.get("art.matches.waiting").gauge().value()).isEqualTo(1);

        release.countDown();
        holder.get(10, TimeUnit.SECONDS);
        waiter.join(10_000);
        assertThat(order).containsExactly("first", "waited", "arrived later");
    }

    @Test
    void byDefaultAsManyRunAsThereAreProcessorsAndAsManyMorePlusFourWait() throws Exception {
        // the defaults of ScanConfig (its optional settings absent): the processors at once, the processors plus 4
        // waiting, so a replica still admits twice its processors plus 4; one more is refused at once
        ScanConfig defaults = (ScanConfig) java.lang.reflect.Proxy.newProxyInstance(ScanConfig.class.getClassLoader(),
                new Class<?>[] {ScanConfig.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "matchConcurrency", "matchQueue", "expensiveMatchConcurrency" -> java.util.OptionalInt.empty();
                    case "expensiveMatchQueue" -> 2;
                    case "matchQueueWait" -> Duration.ofSeconds(60);
                    case "matchRetryAfter" -> Duration.ofSeconds(2);
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        MatchLimit limit = new MatchLimit(defaults, metrics);
        int processors = Runtime.getRuntime().availableProcessors();
        assertThat(limit.concurrency()).isEqualTo(processors);
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<String>> held = new java.util.ArrayList<>();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newCachedThreadPool();
        try {
            for (int k = 0; k < 2 * processors + 4; k++) {
                held.add(CompletableFuture.supplyAsync(() -> limit.run(() -> {
                    await(release);
                    return "held";
                }), threads));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                    metrics.get("art.matches.running").gauge().value() == processors
                            && metrics.get("art.matches.waiting").gauge().value() == processors + 4);
            assertThatThrownBy(() -> limit.run(() -> "one more")).isInstanceOf(BusyException.class);
        } finally {
            release.countDown();
            threads.shutdown();
        }
        for (CompletableFuture<String> match : held) {
            assertThat(match.get(30, TimeUnit.SECONDS)).isEqualTo("held");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void expensiveMatchesHaveTheirOwnSmallerPoolAndLeaveTheCheapTurnsFree() throws Exception {
        SimpleMeterRegistry metrics = new SimpleMeterRegistry();
        // 2 cheap turns, 1 expensive turn and no expensive queue
        MatchLimit limit = new MatchLimit(2, 0, 1, 0, Duration.ofHours(1), Duration.ofSeconds(2), metrics);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> expensive = CompletableFuture.supplyAsync(() -> limit.run(true, () -> {
            started.countDown();
            await(release);
            return "expensive";
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(metrics.get("art.matches.expensive.running").gauge().value()).isEqualTo(1);
        assertThat(metrics.get("art.matches.running").gauge().value()).isEqualTo(1);

        // a second expensive one is refused at once; cheap ones still run, inside it and beside it
        assertThatThrownBy(() -> limit.run(true, () -> "second")).isInstanceOf(BusyException.class);
        assertThat(limit.run(false, () -> limit.run(false, () -> "two cheap at once"))).isEqualTo("two cheap at once");
        assertThat(limit.run(() -> "cheap")).isEqualTo("cheap");
        assertThat(metrics.get("art.matches.refused").counter().count()).isEqualTo(1);

        release.countDown();
        assertThat(expensive.get(10, TimeUnit.SECONDS)).isEqualTo("expensive");
        assertThat(limit.run(true, () -> "next")).isEqualTo("next");
        assertThat(metrics.get("art.matches.expensive.running").gauge().value()).isZero();
        assertThat(limit.expensiveConcurrency()).isEqualTo(1);
    }
}
