package dev.cardcatalog.bench;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.SecondLook;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.finder.SideContrast;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.Overlap;
import dev.cardcatalog.testing.PhotoSimulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * The test that tells a piece of a patterned surface from a card (docs/benchmarks.md, "Pieces of a pattern";
 * {@link SideContrast#oneSign}): for every card no artwork is confident of, the one-sign contrast of each outline
 * the match tested, scored against the true card by IoU: a <b>piece</b> overlaps no card (&lt; 0.5), a
 * <b>partial</b> outline overlaps one (0.5–0.85), a <b>right</b> one outlines it (≥ 0.85). Rows: whole photos of
 * indexed art and of art not in the index, realistic and harsh, on the seeds of {@code PhotoRows}; with
 * {@code --real DIR}, the real photos of {@link RealPhotoBench} too. Per row and class: the outlines tested, kept
 * (the first of its card's to pass) and dropped, the least contrast kept, and how many cards' edges (the first outline
 * tested) fall under each of a grid of cuts. Every card no artwork is confident of is tested, also one that is then
 * not answered because it lies inside, or around, another card ({@code PhotoMatch}'s nesting rule).
 *
 * <pre>
 * java -Xmx3g -cp "target/test-classes:target/classes:$(cat target/art-bench.classpath)" \
 *     dev.cardcatalog.bench.PatternPieces [--photos 1000] [--real ../shared/data/real-photos]
 * </pre>
 * (the class path as {@code bench/art-bench.sh} writes it; the 50,000-artwork index it keeps in target/art-bench).
 */
public final class PatternPieces {

    private static final double[] CUTS = {1, 1.5, 2, 3, 4, 6};
    private static final String[] CLASSES = {"piece", "partial", "right"};

    private PatternPieces() {
    }

    /** One outline tested: its class (0 piece, 1 partial, 2 right), its contrast, whether it answered its card. */
    private record Tested(int kind, double oneSign, boolean kept, boolean first) {
    }

    public static void main(String[] args) throws Exception {
        int photos = 1_000;
        Path real = null;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--photos" -> photos = Integer.parseInt(args[i + 1]);
                case "--real" -> real = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        ArtMatcher matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), ArtBench.buildIndex(50_000, 1_000));
        ThreadLocal<List<PhotoMatch.EdgeVerdict>> verdicts = ThreadLocal.withInitial(ArrayList::new);
        PhotoMatch match = new PhotoMatch(new SecondLook(ArtBench.pictures(matcher.size(), 1_000)),
                verdict -> verdicts.get().add(verdict));
        UploadDecoder decoder = MatchResource.uploadDecoder();
        System.out.printf(Locale.ROOT, "one-sign contrast at least %.1f; cuts %s%n", SideContrast.MIN_ONE_SIGN,
                java.util.Arrays.toString(CUTS));
        int n = matcher.size();
        for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
            for (boolean indexed : new boolean[] {true, false}) {
                Queue<Tested> row = new ConcurrentLinkedQueue<>();
                IntStream.range(0, photos).parallel().forEach(k -> {
                    PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(indexed ? k : n + k, 24_000 + k, severity);
                    double[][] truth = photo.cards().get(0).corners();
                    test(photo.jpeg(), decoder, matcher, match, verdicts, q -> Overlap.of(corners(q), truth), row);
                });
                print("whole photos, " + (indexed ? "indexed art" : "art NOT in the index") + ", "
                        + severity.name().toLowerCase(Locale.ROOT) + ", " + photos, row);
            }
        }
        if (real != null) {
            Queue<Tested> row = new ConcurrentLinkedQueue<>();
            for (Map.Entry<String, List<Quad>> photo : RealPhotoBench.truth(real.resolve("truth.json")).entrySet()) {
                test(Files.readAllBytes(real.resolve(photo.getKey())), decoder, matcher, match, verdicts,
                        q -> photo.getValue().stream().mapToDouble(t -> RealPhotoBench.iou(q, t)).max().orElse(0),
                        row);
            }
            print("real photos, " + real, row);
        }
    }

    private static void test(byte[] body, UploadDecoder decoder, ArtMatcher matcher, PhotoMatch match,
            ThreadLocal<List<PhotoMatch.EdgeVerdict>> verdicts, ToDoubleFunction<Quad> iou, Queue<Tested> row) {
        try {
            verdicts.get().clear();
            match.match(UprightPhoto.decode(body, decoder, UploadDeadline.none()), matcher, UploadDeadline.none());
            for (PhotoMatch.EdgeVerdict v : verdicts.get()) {
                double overlap = iou.applyAsDouble(v.outline());
                row.add(new Tested(overlap < 0.5 ? 0 : overlap < 0.85 ? 1 : 2, v.oneSign(), v.kept(), v.place() == 0));
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void print(String what, Queue<Tested> row) {
        System.out.printf(Locale.ROOT, "%n## %s%n  %-8s %7s %6s %8s %10s   cards whose edge is under each cut%n", what,
                "class", "tested", "kept", "dropped", "least kept");
        for (int kind = 0; kind < 3; kind++) {
            int k = kind;
            List<Tested> of = row.stream().filter(t -> t.kind == k).toList();
            long kept = of.stream().filter(Tested::kept).count();
            double leastKept = of.stream().filter(Tested::kept).mapToDouble(Tested::oneSign).min().orElse(Double.NaN);
            StringBuilder cuts = new StringBuilder();
            for (double cut : CUTS) {
                cuts.append(String.format(Locale.ROOT, " %5d",
                        of.stream().filter(t -> t.first && t.oneSign < cut).count()));
            }
            System.out.printf(Locale.ROOT, "  %-8s %7d %6d %8d %10.1f  %s%n", CLASSES[kind], of.size(), kept,
                    of.size() - kept, leastKept, cuts);
        }
    }

    private static double[][] corners(Quad q) {
        double[][] corners = new double[4][];
        for (int k = 0; k < 4; k++) {
            corners[k] = new double[] {q.x(k), q.y(k)};
        }
        return corners;
    }
}
