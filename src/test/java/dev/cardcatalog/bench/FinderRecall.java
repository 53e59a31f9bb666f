package dev.cardcatalog.bench;

import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.CardOutlines;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.finder.FoundCard;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.PhotoSimulator;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import javax.imageio.ImageIO;

/**
 * The finder's own evaluation loop (issue 24; docs/benchmarks.md, "The finder's recall"): {@link CardFinder} over simulated
 * photos, without the service, the index or Maven, so that a change to the finder is measured in seconds. For each
 * kind of photo (a whole photo per surface × border × sleeve, and binder pages of nine) it prints:
 * <ul>
 *   <li><b>recall</b>: the cards for which some outline the match tries ({@link PhotoMatch#outlinesTried}: an
 *       outline found, as found, as a sleeve's or as the inside of a border, within the match's cap) has its four
 *       corners within 2 % of the photo's width of the true ones, at either end up (the match tries both); with the
 *       worst of those cards' corner errors;</li>
 *   <li><b>false finds</b>: cards found whose outline's centre lies on no card of the photo;</li>
 *   <li>the finder's thread CPU time per photo (the small decode, as the endpoint searches first), and the
 *       outlines per card.</li>
 * </ul>
 * Photos are drawn once ({@link PhotoSimulator}) and kept under the cache directory with their true corners, so
 * later runs only decode and find.
 *
 * <pre>
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) dev.cardcatalog.bench.FinderRecall \
 *     [--photos 10] [--pages 20] [--severity realistic|harsh] [--cache /tmp/finder-photos] [--debug DIR]
 *     [--kinds light,dark,patterned,binder] [--threads 2] [--finer]
 * </pre>
 * {@code --debug DIR} writes a PNG of every photo with a card missed (or a false find): the small decode with the
 * true outline in blue, the outlines found in red and the one that met the truth in green. {@code --finer} also
 * searches the finer decode (as the endpoint does for a page, or when nothing is recognised) and counts a card
 * found by either.
 */
public final class FinderRecall {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final CardFinder FINDER = new CardFinder();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private FinderRecall() {
    }

    /** One photo drawn and its truth. */
    record Sample(String kind, int index, byte[] jpeg, int width, int height, List<double[][]> truths) {
    }

    /** What the finder did with one photo. */
    record Result(Sample sample, int found, int cards, int falseFinds, double worstError, long cpuNanos,
            int outlines, boolean[] foundEach) {
    }

    public static void main(String[] args) throws Exception {
        int photos = 10;
        int pages = 20;
        CaptureSimulator.Severity severity = CaptureSimulator.Severity.REALISTIC;
        Path cache = Path.of("/tmp/finder-photos");
        Path debug = null;
        List<String> kinds = List.of("light", "dark", "patterned", "binder");
        int threads = 2;
        boolean finer = false;
        for (int k = 0; k < args.length; k++) {
            switch (args[k]) {
                case "--photos" -> photos = Integer.parseInt(args[++k]);
                case "--pages" -> pages = Integer.parseInt(args[++k]);
                case "--severity" -> severity = CaptureSimulator.Severity.valueOf(args[++k].toUpperCase(Locale.ROOT));
                case "--cache" -> cache = Path.of(args[++k]);
                case "--debug" -> debug = Path.of(args[++k]);
                case "--kinds" -> kinds = Arrays.asList(args[++k].split(","));
                case "--threads" -> threads = Integer.parseInt(args[++k]);
                case "--finer" -> finer = true;
                default -> throw new IllegalArgumentException("unknown argument: " + args[k]);
            }
        }
        System.setProperty("java.util.concurrent.ForkJoinPool.common.parallelism", String.valueOf(threads));
        if (debug != null) {
            Files.createDirectories(debug);
        }
        System.out.printf(Locale.ROOT, "finder recall, %s, load average %s%n", severity.name().toLowerCase(Locale.ROOT),
                Files.readString(Path.of("/proc/loadavg")).trim());

        List<String> rows = new ArrayList<>();
        for (PhotoSimulator.Surface surface : PhotoSimulator.Surface.values()) {
            if (kinds.contains(surface.name().toLowerCase(Locale.ROOT))) {
                for (PhotoSimulator.Border border : PhotoSimulator.Border.values()) {
                    for (boolean sleeve : new boolean[] {false, true}) {
                        rows.add(surface + "/" + border + "/" + (sleeve ? "sleeve" : "bare"));
                    }
                }
            }
        }
        if (kinds.contains("binder")) {
            rows.add("BINDER");
        }
        System.out.printf(Locale.ROOT, "%-28s %7s %9s %6s %9s %8s %8s%n", "kind", "photos", "recall", "false",
                "worst px", "ms/photo", "outl/card");
        int allFound = 0;
        int allCards = 0;
        int allFalse = 0;
        long allCpu = 0;
        int allPhotos = 0;
        for (String row : rows) {
            boolean binder = row.equals("BINDER");
            int n = binder ? pages : photos;
            final CaptureSimulator.Severity sev = severity;
            final Path c = cache;
            final Path d = debug;
            final boolean f = finer;
            AtomicInteger done = new AtomicInteger();
            List<Result> results = IntStream.range(0, n).parallel().mapToObj(k -> {
                Sample sample = sample(row, k, sev, c);
                Result result = find(sample, f);
                if (d != null && (result.found < result.cards || result.falseFinds > 0)) {
                    debugPng(sample, d, f);
                }
                done.incrementAndGet();
                return result;
            }).toList();
            int found = results.stream().mapToInt(Result::found).sum();
            int cards = results.stream().mapToInt(Result::cards).sum();
            int falseFinds = results.stream().mapToInt(Result::falseFinds).sum();
            long cpu = results.stream().mapToLong(Result::cpuNanos).sum();
            double worst = results.stream().mapToDouble(Result::worstError).max().orElse(0);
            double outlines = results.stream().mapToInt(Result::outlines).sum()
                    / (double) Math.max(1, results.stream().mapToInt(r -> r.found + r.falseFinds).sum());
            String recall = binder
                    ? String.format(Locale.ROOT, "%d/%d p%d", found, cards,
                            results.stream().filter(r -> r.found == r.cards).count())
                    : found + "/" + cards;
            System.out.printf(Locale.ROOT, "%-28s %7d %9s %6d %9.1f %8.1f %8.1f%n", row, n, recall, falseFinds, worst,
                    cpu / 1e6 / n, outlines);
            allFound += found;
            allCards += cards;
            allFalse += falseFinds;
            allCpu += cpu;
            allPhotos += n;
            List<String> missed = results.stream().filter(r -> r.found < r.cards).map(r -> r.sample.index + "")
                    .toList();
            if (!missed.isEmpty()) {
                System.out.println("    missed: " + String.join(" ", missed));
            }
        }
        System.out.printf(Locale.ROOT, "%-28s %7d %9s %6d %9s %8.1f%n", "all", allPhotos, allFound + "/" + allCards,
                allFalse, "", allCpu / 1e6 / allPhotos);
        System.out.printf(Locale.ROOT, "load average at the end %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
    }

    /** The photo of {@code kind} number {@code k}, drawn or read from the cache. */
    static Sample sample(String kind, int k, CaptureSimulator.Severity severity, Path cache) {
        Path file = cache.resolve(severity.name().toLowerCase(Locale.ROOT)).resolve(kind.replace('/', '-') + "-" + k
                + ".bin");
        try {
            if (Files.exists(file)) {
                try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
                    int w = in.readInt();
                    int h = in.readInt();
                    int n = in.readInt();
                    List<double[][]> truths = new ArrayList<>();
                    for (int c = 0; c < n; c++) {
                        double[][] corners = new double[4][2];
                        for (double[] corner : corners) {
                            corner[0] = in.readDouble();
                            corner[1] = in.readDouble();
                        }
                        truths.add(corners);
                    }
                    byte[] jpeg = in.readAllBytes();
                    return new Sample(kind, k, jpeg, w, h, truths);
                }
            }
            PhotoSimulator.Photo photo;
            if (kind.equals("BINDER")) {
                long[] seeds = new long[9];
                for (int c = 0; c < 9; c++) {
                    seeds[c] = 5_000 + k * 9L + c;
                }
                photo = PhotoSimulator.binderPage(seeds, 30_000 + k, severity, 0, 0);
            } else {
                String[] parts = kind.split("/");
                PhotoSimulator.Surface surface = PhotoSimulator.Surface.valueOf(parts[0]);
                PhotoSimulator.Border border = PhotoSimulator.Border.valueOf(parts[1]);
                boolean sleeve = parts[2].equals("sleeve");
                long salt = surface.ordinal() * 1_000 + border.ordinal() * 100 + (sleeve ? 50 : 0);
                photo = PhotoSimulator.wholePhoto(5_000 + k, 60_000 + salt * 1_000 + k, severity, surface, 0, 0,
                        Double.NaN, Double.NaN, border, sleeve);
            }
            List<double[][]> truths = photo.cards().stream().map(PhotoSimulator.Placed::corners).toList();
            Files.createDirectories(file.getParent());
            Path part = file.resolveSibling(file.getFileName() + ".part");
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(part))) {
                out.writeInt(photo.width());
                out.writeInt(photo.height());
                out.writeInt(truths.size());
                for (double[][] corners : truths) {
                    for (double[] corner : corners) {
                        out.writeDouble(corner[0]);
                        out.writeDouble(corner[1]);
                    }
                }
                out.write(photo.jpeg());
            }
            Files.move(part, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return new Sample(kind, k, photo.jpeg(), photo.width(), photo.height(), truths);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static UprightPhoto decode(Sample sample) {
        try {
            return UprightPhoto.decode(sample.jpeg(), DECODER, UploadDeadline.none());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The finder on the sample's small decode (and, with {@code finer}, its finer decode too). */
    static Result find(Sample sample, boolean finer) {
        UprightPhoto photo = decode(sample);
        long t0 = THREADS.getCurrentThreadCpuTime();
        List<FoundCard> found = new ArrayList<>();
        double scale = (double) sample.width() / photo.image().width();
        for (FoundCard card : FINDER.find(photo.image(), UploadDeadline.none())) {
            found.add(scaled(card, scale));
        }
        if (finer && photo.finer() != null) {
            RgbImage fine = photo.finer();
            double fineScale = (double) sample.width() / fine.width();
            for (FoundCard card : FINDER.find(fine, 2 * CardFinder.SEARCH_SIDE, UploadDeadline.none())) {
                found.add(scaled(card, fineScale));
            }
        }
        long cpu = THREADS.getCurrentThreadCpuTime() - t0;
        double tolerance = 0.02 * sample.width();
        int hits = 0;
        double worst = 0;
        boolean[] each = new boolean[sample.truths().size()];
        for (int c = 0; c < sample.truths().size(); c++) {
            double best = bestError(found, sample.truths().get(c));
            if (best <= tolerance) {
                hits++;
                each[c] = true;
                worst = Math.max(worst, best);
            }
        }
        int falseFinds = 0;
        int outlines = 0;
        for (FoundCard card : found) {
            outlines += card.outlines().size();
            boolean onACard = false;
            for (double[][] truth : sample.truths()) {
                Quad t = quad(truth).grown(0.05, 0.05);
                onACard |= t.contains(card.outer().centreX(), card.outer().centreY());
            }
            if (!onACard) {
                falseFinds++;
            }
        }
        return new Result(sample, hits, sample.truths().size(), falseFinds, worst, cpu, outlines, each);
    }

    private static FoundCard scaled(FoundCard card, double scale) {
        return new FoundCard(card.outlines().stream().map(q -> q.scaled(scale, scale)).toList());
    }

    /** The smallest corner error of any outline the match tries for any card found, against {@code truth}. */
    static double bestError(List<FoundCard> found, double[][] truth) {
        Quad t = quad(truth);
        double best = Double.MAX_VALUE;
        for (FoundCard card : found) {
            for (Quad tried : CardOutlines.outlinesTried(card)) {
                for (int turn = 0; turn < 4; turn++) {
                    best = Math.min(best, tried.startingAt(turn).cornerDistance(t));
                }
            }
        }
        return best;
    }

    static Quad quad(double[][] c) {
        return Quad.of(c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1]);
    }

    /** The small decode with the truth (blue), the outlines found (red) and those that met the truth (green). */
    static void debugPng(Sample sample, Path dir, boolean finer) {
        UprightPhoto photo = decode(sample);
        RgbImage small = photo.image();
        int zoom = 2;
        BufferedImage image = new BufferedImage(small.width() * zoom, small.height() * zoom,
                BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                image.setRGB(x, y, small.rgb(x / zoom, y / zoom));
            }
        }
        double toSmall = zoom * (double) small.width() / sample.width();
        Graphics2D g = image.createGraphics();
        g.setStroke(new BasicStroke(1.5f));
        for (double[][] truth : sample.truths()) {
            draw(g, quad(truth).scaled(toSmall, toSmall), Color.BLUE);
        }
        List<FoundCard> found = FINDER.find(small, UploadDeadline.none());
        double tolerance = 0.02 * sample.width();
        for (FoundCard card : found) {
            for (Quad outline : card.outlines()) {
                Quad inPhoto = outline.scaled(sample.width() / (double) small.width(),
                        sample.width() / (double) small.width());
                boolean hit = false;
                for (double[][] truth : sample.truths()) {
                    hit |= bestError(List.of(new FoundCard(List.of(inPhoto))), truth) <= tolerance;
                }
                draw(g, outline.scaled(zoom, zoom), hit ? Color.GREEN : Color.RED);
            }
        }
        g.dispose();
        try {
            ImageIO.write(image, "png", dir.resolve(sample.kind().replace('/', '-') + "-" + sample.index() + ".png")
                    .toFile());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void draw(Graphics2D g, Quad q, Color colour) {
        Path2D.Double path = new Path2D.Double();
        path.moveTo(q.x(0), q.y(0));
        for (int k = 1; k < 4; k++) {
            path.lineTo(q.x(k), q.y(k));
        }
        path.closePath();
        g.setColor(colour);
        g.draw(path);
        g.fillOval((int) q.x(0) - 2, (int) q.y(0) - 2, 5, 5);
    }
}
