package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link UploadDeadline} on a clock the test moves (no sleeping). */
class UploadDeadlineTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void theDeadlinePassesExactlyItsBudgetAfterItWasMade() {
        UploadDeadline deadline = UploadDeadline.after(Duration.ofMillis(2000), now::get);
        assertThat(deadline.passed()).isFalse();
        assertThat(deadline.remainingNanos()).isEqualTo(2_000_000_000L);
        now.addAndGet(1_999_999_999L);
        assertThat(deadline.passed()).isFalse();
        assertThat(deadline.remainingNanos()).isEqualTo(1);
        deadline.check("decoding the photo");
        now.addAndGet(1);
        assertThat(deadline.passed()).isTrue();
        assertThat(deadline.remainingNanos()).isZero();
        now.addAndGet(60_000_000_000L);
        assertThat(deadline.remainingNanos()).isZero();
    }

    @Test
    void aPassedDeadlineIsA422NamingTheStepAndTheBudget() {
        UploadDeadline deadline = UploadDeadline.after(Duration.ofMillis(1500), now::get);
        now.addAndGet(Duration.ofMillis(1500).toNanos());
        assertThatThrownBy(() -> deadline.check("finding the cards"))
                .isInstanceOfSatisfying(ProblemException.class, e -> {
                    Problem problem = e.problem();
                    assertThat(problem.status()).isEqualTo(422);
                    assertThat(problem.type()).isEqualTo(Problem.TYPE_BASE + "upload-too-costly");
                    assertThat(problem.detail()).contains("1500 ms").contains("while finding the cards");
                    assertThat(problem.extensions()).containsEntry("field", "body");
                });
        assertThat(deadline.exceeded("matching").problem().detail()).contains("while matching");
    }

    @Test
    void theClockMayWrapAroundZero() {
        // System.nanoTime may be any long, negative too; only differences count
        now.set(Long.MAX_VALUE - 10);
        UploadDeadline deadline = UploadDeadline.after(Duration.ofNanos(100), now::get);
        now.addAndGet(50); // wraps to a negative value
        assertThat(now.get()).isNegative();
        assertThat(deadline.passed()).isFalse();
        now.addAndGet(50);
        assertThat(deadline.passed()).isTrue();
    }

    @Test
    void noneNeverPassesAndABudgetMustBePositive() {
        UploadDeadline none = UploadDeadline.none();
        none.check("anything");
        assertThat(none.passed()).isFalse();
        assertThat(none.remainingNanos()).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> UploadDeadline.after(Duration.ZERO, now::get))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UploadDeadline.after(Duration.ofSeconds(-1), now::get))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
