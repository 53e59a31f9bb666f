package dev.cardcatalog.bench;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtPictures;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.MatchStatus;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.SecondLook;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.Overlap;
import dev.cardcatalog.testing.PhotoSimulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.IntStream;

/**
 * The photo part of the art benchmark (docs/benchmarks.md, "Whole photos and binder pages"): whole matches as the endpoint makes them
 * ({@link UprightPhoto#decode} with the uploads' decoder, then {@link PhotoMatch}) against the benchmark's index.
 * Rows, each {@code photos} captures (or {@code pages} binder pages of nine):
 * <ul>
 *   <li>guide crops ({@link CaptureSimulator}, 300–600 px) of indexed art, realistic and harsh;</li>
 *   <li>whole photos ({@link PhotoSimulator#wholePhoto}, 1,600 × 1,200 either way) of indexed art, realistic and
 *       harsh;</li>
 *   <li>binder pages of nine indexed artworks (1,200 × 1,600), realistic: a page counts when all nine are found,
 *       right and confident;</li>
 *   <li>collections of twelve indexed artworks in rows, one row for each {@link PhotoSimulator.Clutter} (a mat
 *       printed with art, sleeves, dice, fingers, shadows, slabs), realistic, with the cards outlined right;</li>
 *   <li>guide crops and whole photos of art <b>not</b> in the index, realistic and harsh: any confident answer is
 *       wrong.</li>
 * </ul>
 * For each row the whole confusion: the first card's status (confident, ambiguous, unknown) × whether its nearest
 * artwork is the photo's (right, wrong), and photos with no card at all. After each row, the rule table over every
 * card seen so far: for each candidate {@link MatchStatus} rule (nearest within {@code near} bits, the nearest other
 * artwork at least {@code margin} bits farther), how many cards of indexed art it makes confident and right, and how
 * many cards it makes confident and wrong; then the distances of every card the current rule made confident-wrong. Every card is also written to a file ({@link #CARDS}). Accuracy does not depend on load.
 */
final class PhotoRows {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    /** The match, with the second look reading the benchmark's pictures ({@link #run}). */
    private static PhotoMatch match = new PhotoMatch();
    /** The second look's verdicts during the current photo's match, on this thread. */
    private static final ThreadLocal<List<SecondLook.Verdict>> VERDICTS = ThreadLocal.withInitial(ArrayList::new);
    private static final double[] SIMILARS = {0.6, 0.7, 0.75, 0.8, 0.85, 0.9};
    private static final double[] LOOK_MARGINS = {0.05, 0.1, 0.15, 0.2, 0.25, 0.3};
    private static final int[] NEARS = {200, 225, 250, 275, 300};
    private static final int[] MARGINS = {40, 60, 80, 100, 120, 150};

    /**
     * One card seen: the distance of its nearest artwork and of the nearest other one (bits; MAX_VALUE when there is
     * none), whether the nearest is the card's own artwork, and whether that artwork is in the index.
     */
    private record Seen(int nearest, int other, boolean right, boolean indexed, SecondLook.Verdict look,
            boolean lookOwn) {

        static Seen of(String row, int photo, PhotoMatch.Found card, UUID own, boolean indexed) {
            List<PhotoMatch.Item> items = card.nearest();
            SecondLook.Verdict look = verdictOf(card);
            // the fingerprint's own view: a card the second look made confident was ambiguous, its nearest first
            List<PhotoMatch.Item> byDistance = items.stream()
                    .sorted(java.util.Comparator.comparingInt(PhotoMatch.Item::distance)).toList();
            boolean right = byDistance.get(0).artworkId().equals(own);
            boolean lookOwn = look != null && look.candidates().get(look.best()).artworkId().equals(own);
            Seen seen = new Seen(byDistance.get(0).distance(),
                    items.size() > 1 ? byDistance.get(1).distance() : Integer.MAX_VALUE, right, indexed, look,
                    lookOwn);
            CARDS.add(String.join("\t", row, Integer.toString(photo), indexed ? "indexed" : "missing",
                    right ? "right" : "wrong", card.status().wire(), Integer.toString(seen.nearest),
                    Integer.toString(seen.other),
                    look == null ? "-" : String.format(Locale.ROOT, "%.3f\t%.3f\t%s\t%d\t%s",
                            look.similarity()[look.best()], look.nextTo(look.best()), lookOwn, look.readable(),
                            look.chosen() >= 0 ? "chosen" : "not-chosen")));
            return seen;
        }

        /** The verdict of the second look on {@code card}: the last one among the card's nearest artworks. */
        private static SecondLook.Verdict verdictOf(PhotoMatch.Found card) {
            java.util.Set<UUID> ids = new java.util.HashSet<>();
            card.nearest().forEach(item -> ids.add(item.artworkId()));
            SecondLook.Verdict found = null;
            for (SecondLook.Verdict v : VERDICTS.get()) {
                if (v.candidates().stream().allMatch(m -> ids.contains(m.artworkId()))) {
                    found = v;
                }
            }
            return found;
        }

        /** The card's status by the fingerprint alone: ambiguous when the second look made it confident. */
        MatchStatus fingerprintStatus(PhotoMatch.Found card) {
            return look != null && look.chosen() >= 0 ? MatchStatus.AMBIGUOUS : card.status();
        }

        /** Whether the second look would make this card confident at these bounds, and of which: own or not. */
        boolean lookConfident(double similar, double margin) {
            if (look == null) {
                return false;
            }
            int best = look.best();
            return look.similarity()[best] >= similar && look.similarity()[best] - look.nextTo(best) >= margin;
        }

        /** Whether the card is confident by the plain rule at these bounds. */
        boolean confident(int near, int margin) {
            return MatchStatus.of(nearest, other, near, margin) == MatchStatus.CONFIDENT;
        }

    }

    private static final java.util.Queue<Seen> SEEN = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /**
     * Every card seen, a tab-separated line each (row, the photo's number in its row, indexed or missing art, right
     * or wrong, status as answered, nearest and nearest other distance), written after each row to
     * {@code target/art-bench/photo-cards.tsv} (system property {@code photo-rows.cards}): candidate rules on other
     * evidence are judged from it without matching again.
     */
    private static final java.util.Queue<String> CARDS = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private PhotoRows() {
    }

    static void run(ArtMatcher matcher, ArtPictures pictures, int photos, int pages, int collections, int indexed) {
        match = new PhotoMatch(new SecondLook(pictures, verdict -> VERDICTS.get().add(verdict)));
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            row("guide crops, indexed art", severity, photos, matcher, true, k -> k,
                    k -> CaptureSimulator.captureJpeg(k, 7_000 + k, severity));
        }
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            row("whole photos, indexed art", severity, photos, matcher, true, k -> k,
                    k -> PhotoSimulator.wholePhoto(k, 24_000 + k, severity).jpeg());
        }
        binder(matcher, pages, indexed, CaptureSimulator.Severity.REALISTIC);
        for (PhotoSimulator.Clutter clutter : PhotoSimulator.Clutter.values()) {
            collections(matcher, collections, indexed, clutter, CaptureSimulator.Severity.REALISTIC);
        }
        int n = matcher.size();
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            row("guide crops, art NOT in the index", severity, photos, matcher, false, k -> n + k,
                    k -> CaptureSimulator.captureJpeg(n + k, 7_000 + k, severity));
            row("whole photos, art NOT in the index", severity, photos, matcher, false, k -> n + k,
                    k -> PhotoSimulator.wholePhoto(n + k, 24_000 + k, severity).jpeg());
        }
    }

    /**
     * Rows of art never indexed on art and photo seeds {@link #run} does not use (art from {@code n + 100,000}, photos
     * from 90,000): guide crops and whole photos, realistic and harsh, {@code photos} each. Rules chosen on
     * {@link #run}'s rows are checked here on photos that did not choose them; any confident answer is wrong.
     */
    static void heldOut(ArtMatcher matcher, ArtPictures pictures, int photos) {
        match = new PhotoMatch(new SecondLook(pictures, verdict -> VERDICTS.get().add(verdict)));
        int n = matcher.size() + 100_000;
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            row("held-out guide crops, art NOT in the index", severity, photos, matcher, false, k -> n + k,
                    k -> CaptureSimulator.captureJpeg(n + k, 90_000 + k, severity));
            row("held-out whole photos, art NOT in the index", severity, photos, matcher, false, k -> n + k,
                    k -> PhotoSimulator.wholePhoto(n + k, 90_000 + k, severity).jpeg());
        }
    }

    /** Cells: 0-2 confident/ambiguous/unknown right, 3-5 the same wrong, 6 no card. */
    private static void row(String what, CaptureSimulator.Severity severity, int photos, ArtMatcher matcher,
            boolean indexed, java.util.function.IntUnaryOperator art, java.util.function.IntFunction<byte[]> photo) {
        AtomicIntegerArray cells = new AtomicIntegerArray(7);
        AtomicIntegerArray before = new AtomicIntegerArray(7);
        long t0 = System.nanoTime();
        IntStream.range(0, photos).parallel().forEach(k -> {
            List<PhotoMatch.Found> cards = match(photo.apply(k), matcher);
            if (cards.isEmpty()) {
                cells.incrementAndGet(6);
                before.incrementAndGet(6);
                return;
            }
            PhotoMatch.Found first = cards.get(0);
            UUID own = artworkId(art.applyAsInt(k));
            boolean right = first.nearest().get(0).artworkId().equals(own);
            cells.incrementAndGet(first.status().ordinal() + (right ? 0 : 3));
            Seen seen = Seen.of(what + ", " + severity.name().toLowerCase(Locale.ROOT), k, first, own, indexed);
            SEEN.add(seen);
            before.incrementAndGet(seen.fingerprintStatus(first).ordinal() + (seen.right() ? 0 : 3));
        });
        print(what + ", " + severity.name().toLowerCase(Locale.ROOT) + " (fingerprint alone)", photos, before, t0);
        print(what + ", " + severity.name().toLowerCase(Locale.ROOT), photos, cells, t0);
        rules();
    }

    /** The rule table over every card seen so far (see the class comment), and the cards written out. */
    private static void rules() {
        java.nio.file.Path cards = java.nio.file.Path.of(
                System.getProperty("photo-rows.cards", "target/art-bench/photo-cards.tsv"));
        try {
            java.nio.file.Files.createDirectories(cards.toAbsolutePath().getParent());
            java.nio.file.Files.write(cards, List.copyOf(CARDS));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<Seen> seen = List.copyOf(SEEN);
        System.out.printf(Locale.ROOT, "%n## Rules, over the %d cards seen so far (%d of indexed art)%n", seen.size(),
                seen.stream().filter(Seen::indexed).count());
        System.out.println("  near margin  confident-right  confident-wrong");
        for (int near : NEARS) {
            for (int margin : MARGINS) {
                long right = seen.stream().filter(s -> s.indexed() && s.right() && s.confident(near, margin)).count();
                long wrong = seen.stream().filter(s -> !s.right() && s.confident(near, margin)).count();
                System.out.printf(Locale.ROOT, "  %4d %6d  %15d  %15d%n", near, margin, right, wrong);
            }
        }
        seen.stream().filter(s -> !s.right() && s.confident(MatchStatus.NEAR, MatchStatus.MARGIN))
                .forEach(s -> System.out.printf(Locale.ROOT,
                        "  confident-wrong today: nearest %d, other %d (%s)%n",
                        s.nearest(), s.other(), s.indexed() ? "indexed art" : "art not in the index"));
        List<Seen> looked = seen.stream().filter(s -> s.look() != null).toList();
        System.out.printf(Locale.ROOT, "%n  second look (SecondLook), over the %d cards it looked at (%d of indexed art,"
                + " the most alike their own in %d): cards it makes confident and right / wrong%n", looked.size(),
                looked.stream().filter(Seen::indexed).count(),
                looked.stream().filter(s -> s.indexed() && s.lookOwn()).count());
        StringBuilder head = new StringBuilder("  similar \\ margin");
        for (double margin : LOOK_MARGINS) {
            head.append(String.format(Locale.ROOT, " %9.2f", margin));
        }
        System.out.println(head);
        for (double similar : SIMILARS) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %16.2f", similar));
            for (double margin : LOOK_MARGINS) {
                long right = looked.stream().filter(s -> s.indexed() && s.lookOwn()
                        && s.lookConfident(similar, margin)).count();
                long wrong = looked.stream().filter(s -> !(s.indexed() && s.lookOwn())
                        && s.lookConfident(similar, margin)).count();
                line.append(String.format(Locale.ROOT, " %4d/%-4d", right, wrong));
            }
            System.out.println(line);
        }
        looked.stream().filter(s -> !(s.indexed() && s.lookOwn())).mapToDouble(s -> s.look().similarity()[s.look()
                .best()]).max().ifPresent(max -> System.out.printf(Locale.ROOT,
                        "  the most alike wrong artwork: %.3f%n", max));
    }

    private static void binder(ArtMatcher matcher, int pages, int indexed, CaptureSimulator.Severity severity) {
        AtomicIntegerArray cells = new AtomicIntegerArray(7);
        AtomicIntegerArray before = new AtomicIntegerArray(7);
        int[] whole = new int[1];
        long t0 = System.nanoTime();
        IntStream.range(0, pages).parallel().forEach(p -> {
            long[] seeds = new long[9];
            for (int c = 0; c < 9; c++) {
                seeds[c] = (p * 9L + c) % indexed;
            }
            PhotoSimulator.Photo photo = PhotoSimulator.binderPage(seeds, 30_000 + p, severity, 0, 0);
            List<PhotoMatch.Found> cards = match(photo.jpeg(), matcher);
            int good = 0;
            for (PhotoSimulator.Placed placed : photo.cards()) {
                PhotoMatch.Found found = nearest(cards, placed, photo.width());
                if (found == null) {
                    cells.incrementAndGet(6);
                    before.incrementAndGet(6);
                    continue;
                }
                boolean right = found.nearest().get(0).artworkId().equals(artworkId((int) placed.artSeed()));
                cells.incrementAndGet(found.status().ordinal() + (right ? 0 : 3));
                Seen seen = Seen.of("binder pages, " + severity.name().toLowerCase(Locale.ROOT), p, found,
                        artworkId((int) placed.artSeed()), true);
                SEEN.add(seen);
                before.incrementAndGet(seen.fingerprintStatus(found).ordinal() + (seen.right() ? 0 : 3));
                if (right && found.status() == MatchStatus.CONFIDENT) {
                    good++;
                }
            }
            if (good == 9 && cards.size() == 9) {
                synchronized (whole) {
                    whole[0]++;
                }
            }
        });
        print("binder pages of nine (cards), " + severity.name().toLowerCase(Locale.ROOT) + " (fingerprint alone)",
                pages * 9, before, t0);
        print("binder pages of nine (cards), " + severity.name().toLowerCase(Locale.ROOT), pages * 9, cells, t0);
        System.out.printf(Locale.ROOT, "  pages with all nine found, right and confident (and nothing else): %d / %d%n",
                whole[0], pages);
        rules();
    }

    /**
     * Photos of a collection of twelve indexed cards in rows of four ({@link PhotoSimulator#collection}) with
     * {@code clutter}, on each surface in turn: each card's status and whether its nearest artwork is its own, as
     * the other rows, for the answer whose outline overlaps it most; and how many cards are outlined right (IoU ≥
     * {@value Overlap#RIGHT}), the measure of the real-photo benchmark, so that the two can be compared.
     */
    private static void collections(ArtMatcher matcher, int photos, int indexed, PhotoSimulator.Clutter clutter,
            CaptureSimulator.Severity severity) {
        AtomicIntegerArray cells = new AtomicIntegerArray(7);
        AtomicIntegerArray before = new AtomicIntegerArray(7);
        java.util.concurrent.atomic.AtomicInteger outlined = new java.util.concurrent.atomic.AtomicInteger();
        long t0 = System.nanoTime();
        String what = "collections of twelve, " + clutter.name().toLowerCase(Locale.ROOT) + ", "
                + severity.name().toLowerCase(Locale.ROOT);
        IntStream.range(0, photos).parallel().forEach(p -> {
            long[] seeds = new long[12];
            for (int c = 0; c < seeds.length; c++) {
                seeds[c] = (p * 12L + c + 3_001L * clutter.ordinal()) % indexed;
            }
            PhotoSimulator.Surface surface = PhotoSimulator.Surface.values()[p % 3];
            PhotoSimulator.Photo photo = PhotoSimulator.collection(seeds, 4, 50_000 + p, severity, surface, clutter,
                    0, 0);
            List<PhotoMatch.Found> cards = match(photo.jpeg(), matcher);
            for (PhotoSimulator.Placed placed : photo.cards()) {
                PhotoMatch.Found found = null;
                double best = 0;
                for (PhotoMatch.Found card : cards) {
                    double overlap = Overlap.of(corners(card), placed.corners());
                    if (overlap > best) {
                        best = overlap;
                        found = card;
                    }
                }
                if (found == null || best < Overlap.NO_CARD) {
                    cells.incrementAndGet(6);
                    before.incrementAndGet(6);
                    continue;
                }
                if (best >= Overlap.RIGHT) {
                    outlined.incrementAndGet();
                }
                boolean right = found.nearest().get(0).artworkId().equals(artworkId((int) placed.artSeed()));
                cells.incrementAndGet(found.status().ordinal() + (right ? 0 : 3));
                Seen seen = Seen.of(what, p, found, artworkId((int) placed.artSeed()), true);
                SEEN.add(seen);
                before.incrementAndGet(seen.fingerprintStatus(found).ordinal() + (seen.right() ? 0 : 3));
            }
        });
        print(what + " (cards, fingerprint alone)", photos * 12, before, t0);
        print(what + " (cards)", photos * 12, cells, t0);
        System.out.printf(Locale.ROOT, "  cards outlined right (IoU >= %.2f): %d / %d%n", Overlap.RIGHT,
                outlined.get(), photos * 12);
        rules();
    }

    private static double[][] corners(PhotoMatch.Found card) {
        double[][] out = new double[4][];
        for (int k = 0; k < 4; k++) {
            out[k] = new double[] {card.corners().x(k), card.corners().y(k)};
        }
        return out;
    }

    /** The card found whose centre is nearest the placed card's, within 5 % of the photo's width; null if none. */
    private static PhotoMatch.Found nearest(List<PhotoMatch.Found> cards, PhotoSimulator.Placed placed, int width) {
        double cx = 0;
        double cy = 0;
        for (double[] c : placed.corners()) {
            cx += c[0] / 4;
            cy += c[1] / 4;
        }
        PhotoMatch.Found best = null;
        double bestDistance = 0.05 * width;
        for (PhotoMatch.Found card : cards) {
            double d = Math.hypot(card.corners().centreX() - cx, card.corners().centreY() - cy);
            if (d <= bestDistance) {
                bestDistance = d;
                best = card;
            }
        }
        return best;
    }

    private static List<PhotoMatch.Found> match(byte[] jpeg, ArtMatcher matcher) {
        VERDICTS.get().clear();
        try {
            return match.match(UprightPhoto.decode(jpeg, DECODER, UploadDeadline.none()), matcher,
                    UploadDeadline.none());
        } catch (ImageDecodeException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void print(String what, int n, AtomicIntegerArray c, long t0) {
        System.out.printf(Locale.ROOT, "%n## Photos: %s, %d%n", what, n);
        System.out.printf(Locale.ROOT, "  %-10s %9s %9s %9s%n", "", "confident", "ambiguous", "unknown");
        System.out.printf(Locale.ROOT, "  %-10s %9d %9d %9d%n", "right", c.get(0), c.get(1), c.get(2));
        System.out.printf(Locale.ROOT, "  %-10s %9d %9d %9d%n", "wrong", c.get(3), c.get(4), c.get(5));
        System.out.printf(Locale.ROOT, "  no card found: %d; confident-wrong: %d (%.0f s)%n", c.get(6), c.get(3),
                (System.nanoTime() - t0) / 1e9);
    }

}
