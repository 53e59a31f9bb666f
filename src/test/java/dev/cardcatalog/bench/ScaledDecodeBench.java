package dev.cardcatalog.bench;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.CaptureQueries;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.TestImageFiles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.IntStream;

/**
 * How the upload decoder's scaled path (libjpeg-turbo's DCT scaling) compares with today's ImageIO subsampling, on
 * large JPEGs of generated artworks: per way of decoding, the decoded size, the single-thread CPU time of the decode
 * and of the query fingerprints ({@link CaptureQueries}: 12 for a card-shaped photo), and the accuracy (own
 * artwork first and confident, the own distance and the margin to the nearest other artwork) against an index of
 * the artworks' 146×204 images.
 * It is what chose the floor of the scaled path ({@code MatchResource.SCALED_FLOOR}). Not a test; asserts nothing.
 *
 * <p>Two kinds of photo per width: the card drawn clean at that size (as the HTTP benchmark's images), and a
 * realistic simulated capture ({@link CaptureSimulator}, framing, light, blur, noise, recompression) at that width.
 *
 * <p>Arguments (optional): {@code --artworks N} in the index (default 500), {@code --photos N} per width and kind
 * (default 40), {@code --widths} (default {@code 1024,3024}), {@code --repeats N} timed decodes per photo (default 5).
 */
public final class ScaledDecodeBench {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ScaledDecodeBench() {
    }

    /** One way of decoding: a decoder and what it is called. */
    private record Way(String name, ImageDecoder decoder) {
    }

    public static void main(String[] args) throws Exception {
        int artworks = 500;
        int photos = 40;
        int repeats = 5;
        int[] widths = {1024, 3024};
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--artworks" -> artworks = Integer.parseInt(args[++i]);
                case "--photos" -> photos = Integer.parseInt(args[++i]);
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--widths" -> widths = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        ImageDecoder plain = new ImageDecoder();
        final int n = artworks;
        List<ArtIndexFile.Entry> entries = IntStream.range(0, n).parallel().mapToObj(seed -> new ArtIndexFile.Entry(
                id(seed), ArtFingerprint.compute(decode(plain, CardArtGenerator.smallJpeg(seed)),
                        FingerprintSettings.FROZEN.zeroOffset()))).toList();
        ArtMatcher matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
        System.out.printf(Locale.ROOT, "index: %d artworks (146x204); load average %s%n", n, load());

        int max = 20 << 20;
        for (int width : widths) {
            int height = (int) Math.round(width * 204.0 / 146.0);
            int longer = height;
            List<Way> ways = new ArrayList<>();
            ways.add(new Way("ImageIO, subsampled to <= 1024 (before)", new ImageDecoder(max, 8192, 8192L * 8192L, 1024)));
            for (int r = 2; r <= 8; r *= 2) {
                int floor = (longer + r - 1) / r;
                if (floor <= 1024) {
                    ways.add(new Way("scaled 1/" + r,
                            new UploadDecoder(max, 8192, 8192L * 8192L, 1024, floor).imageDecoder()));
                }
            }
            for (String kind : List.of("clean", "capture")) {
                final int w = width;
                final int h = height;
                byte[][] jpegs = IntStream.range(0, photos).parallel().mapToObj(seed -> kind.equals("clean")
                        ? TestImageFiles.jpeg(CardArtGenerator.card(seed).render(w, h, 1), 0.85f)
                        : CaptureSimulator.captureJpeg(seed, 7_000 + seed, CaptureSimulator.Severity.REALISTIC, w))
                        .toArray(byte[][]::new);
                long bytes = Arrays.stream(jpegs).mapToLong(b -> b.length).sum() / photos;
                System.out.printf(Locale.ROOT, "%n%s %dx%d, %d photos, mean %d KB; load average %s%n", kind, width,
                        height, photos, bytes / 1024, load());
                System.out.printf(Locale.ROOT, "  %-40s %-10s %10s %10s %6s %6s %8s %8s %8s%n", "decoded by", "size",
                        "decode ms", "24 fp ms", "top-1", "conf.", "own med", "own max", "margin min");
                for (Way way : ways) {
                    report(way, jpegs, matcher, repeats);
                }
            }
        }
    }

    private static void report(Way way, byte[][] jpegs, ArtMatcher matcher, int repeats) {
        double[] decodeMs = new double[jpegs.length];
        double[] fingerprintMs = new double[jpegs.length];
        int[] own = new int[jpegs.length];
        int top1 = 0;
        int confident = 0;
        int minMargin = Integer.MAX_VALUE;
        String size = "";
        for (int k = 0; k < jpegs.length; k++) {
            RgbImage image = decode(way.decoder(), jpegs[k]); // warm-up and the image
            size = image.width() + "x" + image.height();
            long t0 = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < repeats; i++) {
                decode(way.decoder(), jpegs[k]);
            }
            long t1 = THREADS.getCurrentThreadCpuTime();
            byte[][] queries = null;
            for (int i = 0; i < repeats; i++) {
                queries = CaptureQueries.of(image).fingerprints();
            }
            long t2 = THREADS.getCurrentThreadCpuTime();
            decodeMs[k] = (t1 - t0) / 1e6 / repeats;
            fingerprintMs[k] = (t2 - t1) / 1e6 / repeats;
            List<ArtMatcher.Match> nearest = matcher.nearest(queries, 10);
            UUID mine = id(k);
            ArtMatcher.Match first = nearest.get(0);
            if (first.artworkId().equals(mine)) {
                top1++;
                if (first.confident()) {
                    confident++;
                }
            }
            int ownDistance = nearest.stream().filter(m -> m.artworkId().equals(mine)).mapToInt(ArtMatcher.Match::distance)
                    .findFirst().orElse(1024);
            int other = nearest.stream().filter(m -> !m.artworkId().equals(mine)).mapToInt(ArtMatcher.Match::distance)
                    .findFirst().orElse(1024);
            own[k] = ownDistance;
            minMargin = Math.min(minMargin, other - ownDistance);
        }
        Arrays.sort(decodeMs);
        Arrays.sort(fingerprintMs);
        Arrays.sort(own);
        System.out.printf(Locale.ROOT, "  %-40s %-10s %10.2f %10.2f %6d %6d %8d %8d %8d%n", way.name(), size,
                decodeMs[decodeMs.length / 2], fingerprintMs[fingerprintMs.length / 2], top1, confident,
                own[own.length / 2], own[own.length - 1], minMargin);
    }

    private static RgbImage decode(ImageDecoder decoder, byte[] jpeg) {
        try {
            return decoder.decode(jpeg);
        } catch (ImageDecodeException e) {
            throw new IllegalStateException(e);
        }
    }

    private static UUID id(int seed) {
        return UUID.nameUUIDFromBytes(("artwork-" + seed).getBytes(StandardCharsets.UTF_8));
    }

    private static String load() {
        try {
            String[] parts = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg")),
                    StandardCharsets.US_ASCII).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }
}
