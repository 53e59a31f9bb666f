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
