package dev.cardcatalog.bench;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.platform.ProblemException;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.CardOutlines;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.MatchStatus;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.finder.FoundCard;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.Overlap;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;

/**
 * The real-photo benchmark (docs/benchmarks.md, "Real photos"): photos people took of real cards, each matched as the
 * endpoint matches an upload ({@link UprightPhoto#decode} with the uploads' decoder and deadline, then
 * {@link PhotoMatch}) against an index of generated artworks, and each answered outline scored against the photo's
 * true outlines by intersection over union.
 *
 * <p>Input: a folder with the photos and a {@code truth.json} that maps each photo's file name to its cards' outlines,
 * four {@code [x, y]} corners each in the photo's pixels as displayed. Per photo it prints the cards in it, the cards
 * outlined right (an answered outline at IoU ≥ {@value #RIGHT} with the true one, each answer counted for at most one
 * card), the answered outlines that are no card (IoU &lt; {@value #NO_CARD} with every true one), the answers that
 * are {@code confident}, the cards that some outline of the finder's reached at IoU ≥ {@value #RIGHT} (whether or not
 * the match answered it) and the milliseconds the match took (a photo past the upload's deadline, {@code --deadline-ms},
 * 2,000 by default, is answered 422 by the endpoint and counts no card); then the totals. With {@code --overlays DIR}
 * it writes
 * each photo as a PNG with the true outlines in green and the answered ones in red (confident ones in blue).
 *
 * <p>Nothing in the test suite depends on such a folder; the photos are read where they are, never copied.
 */
public final class RealPhotoBench {

    static final double RIGHT = Overlap.RIGHT;
    static final double NO_CARD = Overlap.NO_CARD;

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static Duration deadlineBudget = Duration.ofSeconds(2);

    private RealPhotoBench() {
    }

    /** The scores of one photo. */
    record Score(int cards, int right, int noCard, int confident, int finderRight, long millis, boolean deadline) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: real-photo-bench.sh FOLDER [--artworks 852] [--rounds 3] [--deadline-ms 2000] [--overlays DIR]");
            System.exit(2);
        }
        Path folder = Path.of(args[0]);
        int artworks = 852;
        int rounds = 3;
        Path overlays = null;
        for (int k = 1; k + 1 < args.length; k += 2) {
            switch (args[k]) {
                case "--artworks" -> artworks = Integer.parseInt(args[k + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[k + 1]);
                case "--overlays" -> overlays = Path.of(args[k + 1]);
                case "--deadline-ms" -> deadlineBudget = Duration.ofMillis(Long.parseLong(args[k + 1]));
                default -> throw new IllegalArgumentException("unknown option " + args[k]);
            }
        }
        Map<String, List<Quad>> truth = truth(folder.resolve("truth.json"));
        ArtMatcher matcher = index(artworks);
        // the match as the endpoint makes it, the second look reading the pictures the art build would store
        PhotoMatch match = new PhotoMatch(ArtBench.pictures(artworks, artworks));
        CardFinder finder = new CardFinder();
        System.out.printf(Locale.ROOT, "%s: %d photos, index of %d generated artworks, deadline %d ms, %d rounds "
                + "(time: the median)%n%n", folder, truth.size(), artworks, deadlineBudget.toMillis(), rounds);
        System.out.printf(Locale.ROOT, "%-30s %6s %6s %8s %10s %7s %8s%n", "photo", "cards", "right", "no card",
                "confident", "finder", "ms");
        int[] total = new int[5];
        long totalMillis = 0;
        for (Map.Entry<String, List<Quad>> e : truth.entrySet()) {
            byte[] body = Files.readAllBytes(folder.resolve(e.getKey()));
            Score score = score(body, e.getValue(), matcher, match, finder, rounds,
                    overlays == null ? null : overlays.resolve(e.getKey().replaceAll("\\.[^.]*$", "") + ".png"));
            System.out.printf(Locale.ROOT, "%-30s %6d %6d %8d %10d %7d %8d%s%n", e.getKey(), score.cards, score.right,
                    score.noCard, score.confident, score.finderRight, score.millis,
                    score.deadline ? "  deadline passed (422)" : "");
            total[0] += score.cards;
            total[1] += score.right;
            total[2] += score.noCard;
            total[3] += score.confident;
            total[4] += score.finderRight;
            totalMillis += score.millis;
        }
        System.out.printf(Locale.ROOT, "%-30s %6d %6d %8d %10d %7d %8d%n", "all", total[0], total[1], total[2],
                total[3], total[4], totalMillis);
        System.out.printf(Locale.ROOT, "%nright: %d of %d cards (%.0f %%); no card: %d; confident: %d%n", total[1],
                total[0], 100.0 * total[1] / total[0], total[2], total[3]);
    }

    static Score score(byte[] body, List<Quad> truth, ArtMatcher matcher, PhotoMatch match, CardFinder finder,
            int rounds, Path overlay) throws ImageDecodeException, IOException {
        List<PhotoMatch.Found> found = null;
        boolean passed = false;
        long[] millis = new long[rounds];
        UprightPhoto photo = null;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            UploadDeadline deadline = UploadDeadline.after(deadlineBudget);
            photo = UprightPhoto.decode(body, DECODER, deadline);
            try {
                found = match.match(photo, matcher, deadline);
            } catch (ProblemException e) {
                found = List.of(); // the endpoint answers 422 upload-too-costly: no card found
                passed = true;
            }
            millis[r] = (System.nanoTime() - t0) / 1_000_000;
        }
        java.util.Arrays.sort(millis);
        List<Quad> answered = found.stream().map(PhotoMatch.Found::corners).toList();
        int right = matched(truth, answered);
        int noCard = 0;
        for (Quad a : answered) {
            if (truth.stream().allMatch(t -> iou(a, t) < NO_CARD)) {
                noCard++;
            }
        }
        int confident = (int) found.stream().filter(f -> f.status() == MatchStatus.CONFIDENT).count();
        List<Quad> outlines = new ArrayList<>();
        for (RgbImage searched : photo.hasFiner() ? List.of(photo.image(), photo.finer()) : List.of(photo.image())) {
            double sx = (double) photo.width() / searched.width();
            double sy = (double) photo.height() / searched.height();
            int side = searched == photo.image() ? CardFinder.SEARCH_SIDE : 2 * CardFinder.SEARCH_SIDE;
            for (FoundCard card : finder.find(searched, side, UploadDeadline.none())) {
                for (Quad q : CardOutlines.outlinesTried(card)) {
                    outlines.add(q.scaled(sx, sy));
                }
            }
        }
        int finderRight = (int) truth.stream().filter(t -> outlines.stream().anyMatch(o -> iou(o, t) >= RIGHT))
                .count();
        if (overlay != null) {
            overlay(body, truth, found, overlay);
        }
        return new Score(truth.size(), right, noCard, confident, finderRight, millis[rounds / 2], passed);
    }

    /** The true outlines that an answered one covers at IoU ≥ {@value #RIGHT}, each answer counted once. */
    static int matched(List<Quad> truth, List<Quad> answered) {
        List<Quad> left = new ArrayList<>(answered);
        int right = 0;
        for (Quad t : truth) {
            Quad best = null;
            double bestIou = RIGHT;
            for (Quad a : left) {
                double iou = iou(a, t);
                if (iou >= bestIou) {
                    best = a;
                    bestIou = iou;
                }
            }
            if (best != null) {
                left.remove(best);
                right++;
            }
        }
        return right;
    }

    /** Intersection over union of two quadrilaterals' areas, 0–1 ({@link Overlap}). */
    static double iou(Quad a, Quad b) {
        return Overlap.of(corners(a), corners(b));
    }

    private static double[][] corners(Quad q) {
        return new double[][] {{q.x(0), q.y(0)}, {q.x(1), q.y(1)}, {q.x(2), q.y(2)}, {q.x(3), q.y(3)}};
    }

    private static Path2D path(Quad q) {
        Path2D.Double p = new Path2D.Double();
        p.moveTo(q.x(0), q.y(0));
        for (int k = 1; k < 4; k++) {
            p.lineTo(q.x(k), q.y(k));
        }
        p.closePath();
        return p;
    }

    static Map<String, List<Quad>> truth(Path file) throws IOException {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        Map<String, List<Quad>> truth = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            List<Quad> cards = new ArrayList<>();
            for (JsonNode outline : e.getValue()) {
                double[] xy = new double[8];
                for (int k = 0; k < 4; k++) {
                    xy[2 * k] = outline.get(k).get(0).asDouble();
                    xy[2 * k + 1] = outline.get(k).get(1).asDouble();
                }
                cards.add(new Quad(xy));
            }
            truth.put(e.getKey(), cards);
        }
        return truth;
    }

    private static ArtMatcher index(int artworks) {
        List<ArtIndexFile.Entry> entries = IntStream.range(0, artworks).parallel()
                .mapToObj(seed -> new ArtIndexFile.Entry(artworkId(seed), fingerprint(seed))).toList();
        return ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
    }

    private static byte[] fingerprint(int seed) {
        try {
            return ArtFingerprint.compute(DECODER.decode(CardArtGenerator.smallJpeg(seed)),
                    FingerprintSettings.FROZEN.zeroOffset());
        } catch (ImageDecodeException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void overlay(byte[] body, List<Quad> truth, List<PhotoMatch.Found> found, Path file)
            throws IOException {
        BufferedImage photo = ImageIO.read(new java.io.ByteArrayInputStream(body));
        double scale = Math.min(1.0, 1200.0 / Math.max(photo.getWidth(), photo.getHeight()));
        int w = (int) Math.round(photo.getWidth() * scale);
        int h = (int) Math.round(photo.getHeight() * scale);
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(photo, 0, 0, w, h, null);
        g.scale(scale, scale);
        g.setStroke(new BasicStroke((float) (3 / scale)));
        g.setColor(Color.GREEN);
        truth.forEach(q -> g.draw(path(q)));
        for (PhotoMatch.Found f : found) {
            g.setColor(f.status() == MatchStatus.CONFIDENT ? Color.BLUE : Color.RED);
            g.draw(path(f.corners()));
        }
        g.dispose();
        Files.createDirectories(file.getParent());
        ImageIO.write(out, "png", file.toFile());
    }
}
