package dev.cardcatalog.bench;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.CardWarp;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.PhotoSimulator;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.IntStream;

/**
 * A study of a query-side distance that leaves out unreliable bits (docs/benchmarks.md, issue 24): a bit whose two
 * cells' means differ by less than {@code t} (0-255 units) in the capture may flip with the capture's noise, so the
 * distance counts only the bits at least {@code t} apart, scaled to 1,024 bits ({@code d * 1024 / kept}).
 *
 * <p>Each photo is matched as the endpoint does ({@link PhotoMatch}); its first card is warped again from the
 * outline the match answered, upright, and fingerprinted at the six offsets with the cells' differences kept; then
 * every artwork of the benchmark's index is scored at each threshold. One line per photo and threshold is written to
 * a TSV: the row, the photo's number, the match's own answer for its first card (status, nearest and next distance,
 * whether the nearest is the photo's artwork), then the threshold, the masked nearest artwork's score, whether it is
 * the photo's, the nearest other's score, and the photo's own artwork's score (-1 when not in the index); then the
 * rule table is printed ({@link #rules}). Photos in which the match finds no card are left out. Usage:
 * {@code ReliableBits OUT [photos] [rows...]} (rows: {@code indexed-harsh}, {@code indexed-realistic},
 * {@code missing-harsh}, {@code missing-realistic}, {@code never-harsh}, {@code never-realistic}), or
 * {@code ReliableBits --table OUT} for the table of a TSV written before.
 */
final class ReliableBits {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final double[] THRESHOLDS = {0, 1, 2, 3, 4, 6, 8, 12};
    private static final int ARTWORKS = 50_000;

    /** A row: its photos show artworks {@code artBase + k}, drawn with photo seeds {@code seedBase + k}. */
    private record Row(String name, CaptureSimulator.Severity severity, long artBase, long seedBase) {
    }

    private ReliableBits() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--table")) {
            rules(Files.readAllLines(Path.of(args[1])).stream().skip(1).toList());
            return;
        }
        Path out = Path.of(args[0]);
        int photos = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        List<Row> rows = new ArrayList<>();
        for (int k = 2; k < args.length; k++) {
            rows.add(switch (args[k]) {
                case "indexed-harsh" -> new Row(args[k], CaptureSimulator.Severity.HARSH, 0, 24_000);
                case "indexed-realistic" -> new Row(args[k], CaptureSimulator.Severity.REALISTIC, 0, 24_000);
                case "missing-harsh" -> new Row(args[k], CaptureSimulator.Severity.HARSH, ARTWORKS, 24_000);
                case "missing-realistic" -> new Row(args[k], CaptureSimulator.Severity.REALISTIC, ARTWORKS,
                        24_000);
                case "never-harsh" -> new Row(args[k], CaptureSimulator.Severity.HARSH, 60_000, 90_000);
                case "never-realistic" -> new Row(args[k], CaptureSimulator.Severity.REALISTIC, 60_000,
                        90_000);
                default -> throw new IllegalArgumentException(args[k]);
            });
        }
        List<ArtIndexFile.Entry> entries = ArtBench.buildIndex(ARTWORKS, 1_000);
        ArtMatcher matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
        int n = entries.size();
        long[] index = new long[n * 16];
        UUID[] ids = new UUID[n];
        for (int a = 0; a < n; a++) {
            long[] words = ArtFingerprint.toLongs(entries.get(a).fingerprint());
            System.arraycopy(words, 0, index, a * 16, 16);
            ids[a] = entries.get(a).artworkId();
        }
        PhotoMatch match = new PhotoMatch();
        List<String> all = new ArrayList<>();
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out))) {
            w.println("row\tphoto\tplain_status\tplain_nearest\tplain_other\tplain_right\tt\tnearest\tright\tother"
                    + "\town");
            for (Row row : rows) {
                ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
                long t0 = System.nanoTime();
                IntStream.range(0, photos).parallel().forEach(k -> {
                    long art = row.artBase + k;
                    PhotoSimulator.Photo photo = PhotoSimulator.wholePhoto(art, row.seedBase + k, row.severity);
                    UprightPhoto up;
                    List<PhotoMatch.Found> cards;
                    try {
                        up = UprightPhoto.decode(photo.jpeg(), DECODER, UploadDeadline.none());
                        cards = match.match(up, matcher, UploadDeadline.none());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    if (cards.isEmpty()) {
                        return;
                    }
                    PhotoMatch.Found first = cards.get(0);
                    UUID own = artworkId(art);
                    String plain = row.name + "\t" + k + "\t" + first.status().wire() + "\t"
                            + first.nearest().get(0).distance() + "\t"
                            + (first.nearest().size() > 1 ? first.nearest().get(1).distance() : 9999) + "\t"
                            + first.nearest().get(0).artworkId().equals(own);
                    RgbImage source = up.image();
                    double s = (double) source.width() / up.width();
                    Quad corners = first.corners().scaled(s, s);
                    if (Math.min(corners.side(0), corners.side(1)) < CardWarp.CARD_WIDTH && up.finer() != null) {
                        source = up.finer();
                        s = (double) source.width() / up.width();
                        corners = first.corners().scaled(s, s);
                    }
                    RgbImage card = CardWarp.warp(source, corners, CardWarp.CARD_WIDTH, CardWarp.CARD_HEIGHT);
                    List<FingerprintSettings.Offset> offsets = FingerprintSettings.FROZEN.offsets();
                    long[][] bits = new long[offsets.size()][];
                    double[][] diffs = new double[offsets.size()][];
                    for (int q = 0; q < offsets.size(); q++) {
                        diffs[q] = differences(card, offsets.get(q));
                        bits[q] = ArtFingerprint.toLongs(ArtFingerprint.compute(card, offsets.get(q)));
                        for (int b = 0; b < 1024; b++) {
                            if (diffs[q][b] > 0 != ((bits[q][b >> 6] >>> (63 - (b & 63)) & 1) == 1)) {
                                throw new IllegalStateException("the differences disagree with the fingerprint at "
                                        + "bit " + b + " of photo " + k);
                            }
                        }
                    }
                    for (double t : THRESHOLDS) {
                        long[][] masks = new long[offsets.size()][16];
                        int[] kept = new int[offsets.size()];
                        for (int q = 0; q < offsets.size(); q++) {
                            for (int b = 0; b < 1024; b++) {
                                if (Math.abs(diffs[q][b]) >= t) {
                                    masks[q][b >> 6] |= 1L << (63 - (b & 63));
                                    kept[q]++;
                                }
                            }
                        }
                        int best = Integer.MAX_VALUE;
                        int bestAt = -1;
                        int second = Integer.MAX_VALUE;
                        int ownScore = -1;
                        for (int a = 0; a < n; a++) {
                            int score = Integer.MAX_VALUE;
                            for (int q = 0; q < bits.length; q++) {
                                int d = 0;
                                for (int x = 0; x < 16; x++) {
                                    d += Long.bitCount((index[a * 16 + x] ^ bits[q][x]) & masks[q][x]);
                                }
                                score = Math.min(score, (int) Math.round(d * 1024.0 / Math.max(1, kept[q])));
                            }
                            if (score < best) {
                                second = best;
                                best = score;
                                bestAt = a;
                            } else if (score < second) {
                                second = score;
                            }
                            if (ids[a].equals(own)) {
                                ownScore = score;
                            }
                        }
                        lines.add(plain + "\t" + t + "\t" + best + "\t" + ids[bestAt].equals(own) + "\t" + second
                                + "\t" + ownScore);
                    }
                });
                lines.forEach(w::println);
                w.flush();
                all.addAll(lines);
                System.out.printf(Locale.ROOT, "%s: %d photos in %.0f s%n", row.name, photos,
                        (System.nanoTime() - t0) / 1e9);
            }
        }
        rules(all);
    }

    /**
     * The rule table: for each threshold, bound and margin, a card the plain rule left {@code ambiguous} made
     * {@code confident} when its masked nearest artwork is within {@code near} and {@code margin} nearer than every
     * other, and its unmasked margin through the same outline is at least {@code plain}. Lifted: such cards of indexed
     * art, right. Wrong: cards of the {@code missing-*} rows and wrong cards of indexed art (the rows a rule would be
     * chosen on), and of the {@code never-*} rows (art never indexed, photo seeds of their own: the check).
     */
    private static void rules(List<String> lines) {
        record Card(String row, String photo, boolean ambiguousRight, boolean wrongCard, double t, int nearest,
                boolean right, int margin) {
        }
        List<Card> cards = new ArrayList<>();
        java.util.Map<String, Integer> plainMargin = new java.util.HashMap<>();
        for (String line : lines) {
            String[] f = line.split("\t");
            boolean indexed = f[0].startsWith("indexed");
            Card card = new Card(f[0], f[1], indexed && f[2].equals("ambiguous") && f[5].equals("true"),
                    !indexed || !f[5].equals("true"), Double.parseDouble(f[6]), Integer.parseInt(f[7]),
                    f[8].equals("true"), Integer.parseInt(f[9]) - Integer.parseInt(f[7]));
            cards.add(card);
            if (card.t == 0) {
                plainMargin.put(card.row + "/" + card.photo, card.margin);
            }
        }
        System.out.printf(Locale.ROOT, "%n## Lifted from ambiguous / confident-wrong (rows to choose on, never-indexed)"
                + "%n  t    near margin plain-margin  lifted  wrong(choose)  wrong(never)%n");
        for (double t : THRESHOLDS) {
            for (int near : new int[] {200, 300}) {
                for (int margin : new int[] {80, 90, 100, 110, 120, 130}) {
                    for (int plain : new int[] {0, 80}) {
                        int lifted = 0;
                        int wrongChoose = 0;
                        int wrongNever = 0;
                        for (Card c : cards) {
                            if (c.t != t || c.nearest > near || c.margin < margin
                                    || plainMargin.get(c.row + "/" + c.photo) < plain) {
                                continue;
                            }
                            if (c.ambiguousRight && c.right) {
                                lifted++;
                            } else if (c.wrongCard && c.row.startsWith("never")) {
                                wrongNever++;
                            } else if (c.wrongCard) {
                                wrongChoose++;
                            }
                        }
                        System.out.printf(Locale.ROOT, "  %-4s %4d %6d %12d %7d %14d %13d%n", t, near, margin, plain,
                                lifted, wrongChoose, wrongNever);
                    }
                }
            }
        }
    }

    /**
     * The 1,024 differences behind the fingerprint's bits at {@code offset}, in bit order (FINGERPRINT.md §4-§6):
     * for each plane (grey, blue, green, red), row and neighbour pair, cell {@code i+1}'s mean minus cell {@code i}'s,
     * computed as {@link ArtFingerprint#compute} computes the means (each photo checks that a bit is set exactly where
     * its difference is above 0).
     */
    static double[] differences(RgbImage image, FingerprintSettings.Offset offset) {
        FingerprintSettings settings = FingerprintSettings.FROZEN;
        int w = image.width();
        int h = image.height();
        int cols = settings.cols();
        int rows = settings.rows();
        FingerprintSettings.Box box = settings.box();
        double bw = box.x1() - box.x0();
        double bh = box.y1() - box.y0();
        double left = ((box.x0() + offset.dx()) + offset.inset() * bw) * w;
        double top = ((box.y0() + offset.dy()) + offset.inset() * bh) * h;
        double right = ((box.x1() + offset.dx()) - offset.inset() * bw) * w;
        double bottom = ((box.y1() + offset.dy()) - offset.inset() * bh) * h;
        double cellW = (right - left) / cols;
        double cellH = (bottom - top) / rows;
        double[][] planes = new double[4][cols * rows];
        for (int j = 0; j < rows; j++) {
            double cy0 = top + j * cellH;
            double cy1 = top + (j + 1) * cellH;
            for (int i = 0; i < cols; i++) {
                double cx0 = left + i * cellW;
                double cx1 = left + (i + 1) * cellW;
                double sR = 0;
                double sG = 0;
                double sB = 0;
                double weight = 0;
                for (int py = clamp((int) Math.floor(cy0), h - 1); py <= clamp((int) Math.ceil(cy1) - 1, h - 1); py++) {
                    double wy = Math.min(cy1, py + 1) - Math.max(cy0, py);
                    if (wy <= 0) {
                        continue;
                    }
                    for (int px = clamp((int) Math.floor(cx0), w - 1); px <= clamp((int) Math.ceil(cx1) - 1, w - 1);
                            px++) {
                        double wx = Math.min(cx1, px + 1) - Math.max(cx0, px);
                        if (wx <= 0) {
                            continue;
                        }
                        double pw = wx * wy; // in ArtFingerprint's order, so that ties fall the same way
                        int p = image.pixels()[py * w + px];
                        sR += ((p >> 16) & 0xFF) * pw;
                        sG += ((p >> 8) & 0xFF) * pw;
                        sB += (p & 0xFF) * pw;
                        weight += pw;
                    }
                }
                int c = j * cols + i;
                double r = sR / weight;
                double g = sG / weight;
                double b = sB / weight;
                planes[0][c] = 0.299 * r + 0.587 * g + 0.114 * b;
                planes[1][c] = b;
                planes[2][c] = g;
                planes[3][c] = r;
            }
        }
        double[] out = new double[1024];
        int pairs = cols - 1;
        for (int p = 0; p < 4; p++) {
            for (int j = 0; j < rows; j++) {
                for (int i = 0; i < pairs; i++) {
                    out[p * 256 + j * pairs + i] = planes[p][j * cols + i + 1] - planes[p][j * cols + i];
                }
            }
        }
        return out;
    }

    private static int clamp(int v, int max) {
        return v < 0 ? 0 : Math.min(v, max);
    }
}
