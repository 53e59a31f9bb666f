package dev.cardcatalog.scan;

import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import dev.cardcatalog.scan.finder.Deadline;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The time one upload's decoding, card finding and matching may take together (SERVICE.md §7): the work checks it
 * between its steps and inside its loops ({@link #check}), so that no upload holds a decoding turn past it,
 * whatever its bytes. Past it, the upload is answered 422 problem+json {@code upload-too-costly} naming the step.
 *
 * <p>Time is read from a monotonic nanosecond source ({@link System#nanoTime} by default, a test's own otherwise).
 * One instance belongs to one upload; it is safe to read from any thread.
 */
public final class UploadDeadline implements Deadline {

    private static final UploadDeadline NONE = new UploadDeadline(Long.MAX_VALUE, () -> 0L, null);
    private static final Duration MAX_BUDGET = Duration.ofNanos(Long.MAX_VALUE / 2);

    private final long endNanos;
    private final LongSupplier nanoTime;
    private final Duration budget;

    private UploadDeadline(long endNanos, LongSupplier nanoTime, Duration budget) {
        this.endNanos = endNanos;
        this.nanoTime = nanoTime;
        this.budget = budget;
    }

    /** A deadline {@code budget} from now, on {@link System#nanoTime}. */
    public static UploadDeadline after(Duration budget) {
        return after(budget, System::nanoTime);
    }

    /**
     * A deadline {@code budget} from now on {@code nanoTime}.
     *
     * @param budget   the time allowed, positive
     * @param nanoTime a monotonic clock in nanoseconds
     */
    public static UploadDeadline after(Duration budget, LongSupplier nanoTime) {
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("an upload's deadline must be positive, not " + budget);
        }
        // nanoTime values may wrap around: only differences count (System.nanoTime's contract), so the end is
        // allowed to wrap too, and a budget is capped at 146 years to keep the difference meaningful
        long nanos = budget.compareTo(MAX_BUDGET) > 0 ? MAX_BUDGET.toNanos() : budget.toNanos();
        return new UploadDeadline(nanoTime.getAsLong() + nanos, nanoTime, budget);
    }

    /** A deadline that never passes: for benchmarks and offline tools, never for an upload. */
    public static UploadDeadline none() {
        return NONE;
    }

    /** Whether the deadline has passed. */
    public boolean passed() {
        return this != NONE && nanoTime.getAsLong() - endNanos >= 0;
    }

    /** Nanoseconds left, 0 once passed; {@link Long#MAX_VALUE} for {@link #none()}. */
    public long remainingNanos() {
        if (this == NONE) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, endNanos - nanoTime.getAsLong());
    }

    /** The time this deadline allows; null for {@link #none()}. */
    public Duration budget() {
        return budget;
    }

    /**
     * Ends the upload's work when its deadline has passed.
     *
     * @param step what the upload was doing, for the answer ("decoding the photo", "finding the cards")
     * @throws ProblemException 422 {@code upload-too-costly} naming {@code step} and the budget
     */
    @Override
    public void check(String step) {
        if (this != NONE && passed()) {
            throw exceeded(step);
        }
    }

    /** The refusal {@link #check} throws, for work that finds its deadline passed by other means. */
    public ProblemException exceeded(String step) {
        long millis = budget == null ? 0 : budget.toMillis();
        return new ProblemException(Problem.of("upload-too-costly", "Upload too costly", 422, "The photo took longer"
                + " than the " + millis + " ms an upload may take to decode, find its cards and match (while "
                + step + "); send a smaller or simpler photo (a JPEG from a camera, or a PNG).").with("field", "body"));
    }
}
