package dev.cardcatalog.bench;

import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.finder.FoundCard;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.PhotoSimulator;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Every outline {@link CardFinder} gives for a fixed set of photos, written to a file to the last bit, and the
 * finder's thread CPU a photo (docs/benchmarks.md, "Why the match runs as it does"): a change meant to make the
 * finder faster without changing what it finds is checked by comparing two revisions' files ({@code cmp}).
 * The photos: 272 drawn once into {@code DIR} (whole photos of every surface, border and sleeve, collections of every
 * clutter class and binder pages, at both severities), then any JPEGs named after it (the 12 MP photos of
 * {@code bench/match-http-bench.sh}, the real photos).
 *
 * <pre>
 * java -cp "target/test-classes:target/classes:$(cat target/art-bench.classpath)" dev.cardcatalog.bench.FinderOutlines \
 *     DIR OUT [ROUNDS] [photo.jpg ...]
 * </pre>
 * Each line of {@code OUT}: the photo's file name, then each card found ({@code |}) with its outlines' corners.
 * The CPU is the best of {@code ROUNDS} (default 3) passes over the photos, decoded beforehand.
 */
public final class FinderOutlines {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        draw(dir);
        List<Path> files = new ArrayList<>();
        try (Stream<Path> listed = Files.list(dir)) {
            listed.filter(p -> p.toString().endsWith(".jpg")).sorted().forEach(files::add);
        }
        for (int a = 3; a < args.length; a++) {
            files.add(Path.of(args[a]));
        }
        UploadDecoder decoder = MatchResource.uploadDecoder();
        List<RgbImage> images = new ArrayList<>();
        for (Path f : files) {
            images.add(UprightPhoto.decode(Files.readAllBytes(f), decoder, UploadDeadline.none()).image());
        }
        CardFinder finder = new CardFinder();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            for (int r = 0; r < rounds; r++) {
                long t0 = threads.getCurrentThreadCpuTime();
                for (int i = 0; i < files.size(); i++) {
                    List<FoundCard> cards = finder.find(images.get(i), UploadDeadline.none());
                    if (r == 0) {
                        w.println(line(files.get(i).getFileName().toString(), cards));
                    }
                }
                best = Math.min(best, threads.getCurrentThreadCpuTime() - t0);
            }
        }
        System.out.printf(Locale.ROOT, "%d photos, the finder's CPU %.2f ms a photo (best of %d)%n", files.size(),
                best / 1e6 / files.size(), rounds);
    }

    private static String line(String name, List<FoundCard> cards) {
        StringBuilder line = new StringBuilder(name);
        for (FoundCard card : cards) {
            line.append(" |");
            for (Quad q : card.outlines()) {
                line.append(' ');
                for (int k = 0; k < 4; k++) {
                    line.append(q.x(k)).append(',').append(q.y(k)).append(';');
                }
            }
        }
        return line.toString();
    }

    /** Draws the photos into {@code dir} unless they are there. */
    private static void draw(Path dir) throws Exception {
        Path done = dir.resolve("drawn");
        if (Files.exists(done)) {
            return;
        }
        Files.createDirectories(dir);
        int n = 0;
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
                for (PhotoSimulator.Border border : PhotoSimulator.Border.values()) {
                    for (boolean sleeve : new boolean[] {false, true}) {
                        for (int k = 0; k < 4; k++) {
                            write(dir, "w", n, PhotoSimulator.wholePhoto(7_000 + k, 90_000 + n, severity, surface, 0,
                                    0, Double.NaN, Double.NaN, border, sleeve));
                            n++;
                        }
                    }
                }
            }
            for (PhotoSimulator.Clutter clutter : PhotoSimulator.Clutter.values()) {
                for (int k = 0; k < 6; k++) {
                    write(dir, "c", n, PhotoSimulator.collection(seeds(8_000 + k * 12, 12), 4, 70_000 + n, severity,
                            PhotoSimulator.Surface.values()[k % 3], clutter, 0, 0));
                    n++;
                }
            }
            for (int k = 0; k < 6; k++) {
                write(dir, "b", n, PhotoSimulator.binderPage(seeds(9_000 + k * 9, 9), 40_000 + n, severity, 0, 0));
                n++;
            }
        }
        Files.writeString(done, n + " photos\n");
    }

    private static long[] seeds(long first, int count) {
        long[] seeds = new long[count];
        for (int i = 0; i < count; i++) {
            seeds[i] = first + i;
        }
        return seeds;
    }

    private static void write(Path dir, String kind, int n, PhotoSimulator.Photo photo) throws Exception {
        Files.write(dir.resolve(String.format(Locale.ROOT, "%s-%04d.jpg", kind, n)), photo.jpeg());
    }
}
