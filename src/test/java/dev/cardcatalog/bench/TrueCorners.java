package dev.cardcatalog.bench;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.CaptureQueries;
import dev.cardcatalog.scan.CardWarp;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.MatchStatus;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.PhotoSimulator;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;

/**
 * What the benchmark's whole photos would give if the card's outline were known exactly (docs/benchmarks.md,
 * "Where harsh whole photos are lost"): each photo of indexed art ({@link PhotoSimulator#wholePhoto}, the
 * benchmark's seeds) is matched as the endpoint does, and its card's <em>true</em> corners, upright (so one turn),
 * are warped from each of the photo's decodes (the search decode, the finer one, the whole photo) at 146 and 292
 * pixels wide and fingerprinted at the six offsets; each of those six is searched over the 50,000 artworks alone. The
 * plain rule ({@link MatchStatus#of(List)}: within 300 bits and 100 nearer than any other) then says what a perfect
 * finder would answer: the most the photo side can give with this fingerprint, since nothing it does can see more
 * of the card than its true outline, at its true turn, shows.
 *
 * <p>Whether the card is in a sleeve (which the photo's seed draws, 4 photos of 10, with its glare) is found by
 * drawing the photo again with the sleeve left out: the same bytes mean it had none. One line per photo to a TSV,
 * then a table by sleeve. Usage: {@code TrueCorners OUT [photos=1000] [HARSH|REALISTIC]}. Asserts nothing.
 */
final class TrueCorners {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final int[] WIDTHS = {CardWarp.CARD_WIDTH, 2 * CardWarp.CARD_WIDTH};
    private static final String[] SOURCES = {"search", "finer", "full"};

    /** One photo: whether its card was in a sleeve, the match's answer, and per source and width the true corners'. */
    private record Seen(int photo, boolean sleeve, String line, boolean matchRight, boolean[] trueRight) {
    }

    private TrueCorners() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int photos = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        CaptureSimulator.Severity severity = CaptureSimulator.Severity.valueOf(args.length > 2 ? args[2] : "HARSH");
        List<ArtIndexFile.Entry> entries = ArtBench.buildIndex(50_000, 1_000);
        ArtMatcher matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
        PhotoMatch match = new PhotoMatch();
        long t0 = System.nanoTime();
        List<Seen> seen = IntStream.range(0, photos).parallel()
                .mapToObj(k -> see(k, severity, match, matcher)).toList();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            StringBuilder head = new StringBuilder("photo\tsurface\tshare\tsleeve\tstatus\tright\tnearest\tother"
                    + "\tcorner_error");
            for (String source : SOURCES) {
                for (int width : WIDTHS) {
                    head.append('\t').append(source).append(width);
                }
            }
            w.println(head);
            seen.forEach(s -> w.println(s.line()));
        }
        System.out.printf(Locale.ROOT, "%d %s whole photos of indexed art in %.0f s (%s)%n", photos,
                severity.name().toLowerCase(Locale.ROOT), (System.nanoTime() - t0) / 1e9, out);
        System.out.println("confident and right: the match, then its true corners warped from each decode");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %-8s %6s %6s", "", "photos", "match"));
        for (String source : SOURCES) {
            for (int width : WIDTHS) {
                head.append(String.format(Locale.ROOT, " %10s", source + " " + width));
            }
        }
        System.out.println(head);
        Map<String, List<Seen>> groups = new TreeMap<>();
        groups.put("bare", seen.stream().filter(s -> !s.sleeve()).toList());
        groups.put("sleeved", seen.stream().filter(Seen::sleeve).toList());
        groups.put("all", seen);
        groups.forEach((name, group) -> {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %-8s %6d %6d", name, group.size(),
                    group.stream().filter(Seen::matchRight).count()));
            for (int c = 0; c < SOURCES.length * WIDTHS.length; c++) {
                int column = c;
                row.append(String.format(Locale.ROOT, " %10d",
                        group.stream().filter(s -> s.trueRight()[column]).count()));
            }
            System.out.println(row);
        });
    }

    private static Seen see(int k, CaptureSimulator.Severity severity, PhotoMatch match, ArtMatcher matcher) {
        PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(k, 24_000 + k, severity);
        boolean sleeve = !Arrays.equals(photo.jpeg(), PhotoSimulator.wholePhoto(k, 24_000 + k, severity, null, 0, 0,
                Double.NaN, Double.NaN, null, Boolean.FALSE).jpeg());
        try {
            UprightPhoto up = UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none());
            List<PhotoMatch.Found> cards = match.match(up, matcher, UploadDeadline.none());
            UUID own = artworkId(k);
            double[][] c = photo.cards().get(0).corners();
            Quad truth = Quad.of(c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]);
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%d\t%s\t%.3f\t%s", k, photo.surface(),
                    Math.abs(truth.area()) / ((double) photo.width() * photo.height()), sleeve));
            boolean matchRight = false;
            if (cards.isEmpty()) {
                line.append("\tnone\t-\t-\t-\t-");
            } else {
                PhotoMatch.Found first = cards.get(0);
                double error = Double.MAX_VALUE;
                for (int s = 0; s < 4; s++) {
                    error = Math.min(error, first.corners().startingAt(s).cornerDistance(truth));
                }
                boolean right = first.nearest().get(0).artworkId().equals(own);
                matchRight = right && first.status() == MatchStatus.CONFIDENT;
                line.append(String.format(Locale.ROOT, "\t%s\t%s\t%d\t%d\t%.4f", first.status().wire(), right,
                        first.nearest().get(0).distance(),
                        first.nearest().size() > 1 ? first.nearest().get(1).distance() : Integer.MAX_VALUE,
                        error / photo.width()));
            }
            BufferedImage whole = ImageIO.read(new ByteArrayInputStream(photo.jpeg()));
            RgbImage full = new RgbImage(whole.getWidth(), whole.getHeight(),
                    whole.getRGB(0, 0, whole.getWidth(), whole.getHeight(), null, 0, whole.getWidth()));
            RgbImage[] sources = {up.image(), up.finer() != null ? up.finer() : up.image(), full};
            boolean[] trueRight = new boolean[SOURCES.length * WIDTHS.length];
            int column = 0;
            for (RgbImage source : sources) {
                double scale = (double) source.width() / photo.width();
                for (int width : WIDTHS) {
                    RgbImage card = CardWarp.warp(source, truth.scaled(scale, scale), width,
                            width * CardWarp.CARD_HEIGHT / CardWarp.CARD_WIDTH);
                    List<ArtMatcher.Match> m = matcher.nearest(CaptureQueries.of(card, List.of(0)).fingerprints(), 2);
                    boolean right = m.get(0).artworkId().equals(own);
                    trueRight[column++] = right && MatchStatus.of(m) == MatchStatus.CONFIDENT;
                    // the nearest artwork's distance, negative when it is not the photo's own; then the next one's
                    line.append('\t').append(right ? m.get(0).distance() : -m.get(0).distance()).append('/')
                            .append(m.get(1).distance());
                }
            }
            return new Seen(k, sleeve, line.toString(), matchRight, trueRight);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("photo " + k, e);
        }
    }
}
