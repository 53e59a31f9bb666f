package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.art.ArtMatcher;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The finer look's turns ({@link PhotoMatch#FINER_LOOKS}): a photo in which the first look recognises nothing is
 * searched again, finer, one photo at a time on an instance, and a photo whose turn does not come before its
 * upload's deadline is answered from its first look.
 */
class FinerLooksTest {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final ArtMatcher MATCHER = MatchWarmUp.index();
    /** A 2,048 × 1,536 JPEG of a table with no card: decoded at a quarter, and at a half for the finer look. */
    private static final byte[] BARE_TABLE = MatchWarmUp.encode(MatchWarmUp.bareTable(), "jpg");

    /** The turns, counting those taken and the most held at once. */
    private static final class CountedTurns extends Semaphore {
        final AtomicInteger taken = new AtomicInteger();
        final AtomicInteger held = new AtomicInteger();
        final AtomicInteger mostHeld = new AtomicInteger();

        CountedTurns(int permits) {
            super(permits, true);
        }

        @Override
        public boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException {
            boolean got = super.tryAcquire(timeout, unit);
            if (got) {
                taken.incrementAndGet();
                mostHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
            }
            return got;
        }

        @Override
        public void release() {
            held.decrementAndGet();
            super.release();
        }
    }

    @Test
    void photosInWhichNothingIsRecognisedTakeTheFinerLookOneAtATime() throws Exception {
        assertThat(PhotoMatch.FINER_LOOKS).isEqualTo(1);
        CountedTurns turns = new CountedTurns(PhotoMatch.FINER_LOOKS);
        PhotoMatch match = new PhotoMatch(turns);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<PhotoMatch.Found>>> answers = new ArrayList<>();
            for (int k = 0; k < 8; k++) {
                answers.add(threads.submit(() -> match.match(UprightPhoto.decode(BARE_TABLE, DECODER,
                        UploadDeadline.none()), MATCHER, UploadDeadline.none())));
            }
            for (Future<List<PhotoMatch.Found>> answer : answers) {
                assertThat(answer.get()).isEmpty();
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(turns.taken).as("every photo looked at finer").hasValue(8);
        assertThat(turns.mostHeld).as("finer looks at once").hasValue(1);
        assertThat(turns.availablePermits()).isEqualTo(1);
    }

    @Test
    void aPhotoWhoseFinerTurnComesAfterItsDeadlineIsAnsweredFromItsFirstLook() throws Exception {
        Semaphore turns = new Semaphore(1, true);
        turns.acquire(); // another photo's finer look, held throughout
        // the deadline's own clock stands still: the first look never passes it, however slow the machine; the turn
        // is waited for the deadline's 300 ms in real time, then given up
        UploadDeadline deadline = UploadDeadline.after(Duration.ofMillis(300), () -> 0L);
        List<PhotoMatch.Found> answer = new PhotoMatch(turns).match(UprightPhoto.decode(BARE_TABLE, DECODER,
                deadline), MATCHER, deadline);
        assertThat(answer).isEmpty();
        assertThat(turns.availablePermits()).as("the held turn is not released by the photo that gave up").isZero();
        turns.release();
        assertThat(new PhotoMatch(turns).match(UprightPhoto.decode(BARE_TABLE, DECODER, deadline), MATCHER,
                deadline)).isEmpty();
        assertThat(turns.availablePermits()).as("a turn taken is given back").isEqualTo(1);
    }
}
