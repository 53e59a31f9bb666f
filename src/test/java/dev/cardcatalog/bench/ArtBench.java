package dev.cardcatalog.bench;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtSettings;
import dev.cardcatalog.art.ImageDecodeException;
import dev.cardcatalog.art.ImageDecoder;
import dev.cardcatalog.art.RgbImage;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.TestImageFiles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * The art benchmark of docs/benchmarks.md ("Art fingerprint, matching and accuracy"). Run it with
 * {@code bench/art-bench.sh}; it is not a test and asserts nothing.
 *
 * <ol>
 *   <li>Throughput: decode + zero-offset fingerprint of distinct 146×204 baseline JPEGs, on 1 and 2 threads, in
 *       timed rounds after a warm-up (the art build's per-image work).</li>
 *   <li>Match latency over an index of 50,000 artworks: {@link ArtMatcher#nearest} with the six query
 *       fingerprints of simulated captures, limit 10, one call at a time; and the whole server-side work of a
 *       match request excluding the upload (decode the capture JPEG, six fingerprints, nearest).</li>
 *   <li>Accuracy: top-1 over 1,000 simulated captures of artworks in that index.</li>
 * </ol>
 *
 * <p>Arguments (all optional): {@code --artworks N} (default 50000), {@code --captures N} (default 1000),
 * {@code --rounds N} (default 5), {@code --seconds S} per round (default 3), {@code --parts} a comma-separated
 * choice of {@code throughput,latency,accuracy} (default all three).
 */
public final class ArtBench {

    private static final ImageDecoder DECODER = new ImageDecoder();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Part of the cached index's name: change it whenever CardArtGenerator draws differently. */
    private static final String GENERATOR_VERSION = "bench-g1";

    public static void main(String[] args) throws Exception {
        int artworks = 50_000;
        int captures = 1_000;
        int rounds = 5;
        double seconds = 3;
        String parts = "throughput,latency,accuracy";
        for (int k = 0; k + 1 < args.length; k += 2) {
            switch (args[k]) {
                case "--artworks" -> artworks = Integer.parseInt(args[k + 1]);
                case "--captures" -> captures = Integer.parseInt(args[k + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[k + 1]);
                case "--seconds" -> seconds = Double.parseDouble(args[k + 1]);
                case "--parts" -> parts = args[k + 1];
                default -> throw new IllegalArgumentException("unknown argument " + args[k]);
            }
        }
        if (captures > artworks) {
            throw new IllegalArgumentException("captures must not exceed artworks");
        }
        System.out.printf(Locale.ROOT, "java %s (%s), %d processors, max heap %d MiB%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);

        List<String> chosen = List.of(parts.split(","));
        loadAverage("start");
        if (chosen.contains("throughput")) {
            throughput(rounds, seconds);
        }
        if (chosen.contains("latency") || chosen.contains("accuracy")) {
            ArtMatcher matcher = buildIndex(artworks, captures);
            List<byte[]> captureJpegs = captures(captures, CaptureSimulator.Severity.REALISTIC);
            if (chosen.contains("latency")) {
                latency(matcher, captureJpegs);
            }
            loadAverage("after the timed parts");
            if (chosen.contains("accuracy")) {
                accuracy(matcher, captureJpegs, "realistic");
                accuracy(matcher, captures(captures, CaptureSimulator.Severity.HARSH), "harsh (for information)");
            }
        }
    }

    /** Other processes on the machine skew the figures: print the load average so a reader can judge. */
    private static void loadAverage(String when) throws java.io.IOException {
        Path loadavg = Path.of("/proc/loadavg");
        if (Files.isReadable(loadavg)) {
            System.out.printf(Locale.ROOT, "(load average at %s: %s)%n", when, Files.readString(loadavg).trim());
        }
    }

    // 1. Decode + fingerprint throughput.

    private static void throughput(int rounds, double seconds) throws Exception {
        int distinct = 2_000;
        byte[][] jpegs = IntStream.range(0, distinct).parallel()
                .mapToObj(seed -> CardArtGenerator.smallJpeg(1_000_000L + seed)).toArray(byte[][]::new);
        System.out.printf(Locale.ROOT, "%n## Throughput: decode + zero-offset fingerprint, %d distinct 146x204 "
                + "baseline JPEGs (quality %.2f, mean %d bytes)%n", distinct, CardArtGenerator.SMALL_JPEG_QUALITY,
                Arrays.stream(jpegs).mapToInt(b -> b.length).sum() / distinct);
        runRounds(jpegs, 1, 5.0, true); // warm-up
        runRounds(jpegs, 2, 3.0, true);
        for (int threads = 1; threads <= 2; threads++) {
            double[] perSecond = new double[rounds];
            double[] perCpuSecond = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                AtomicLong cpu = new AtomicLong();
                perSecond[r] = runRounds(jpegs, threads, seconds, true, cpu);
                perCpuSecond[r] = perSecond[r] * seconds / (cpu.get() / 1e9);
            }
            Arrays.sort(perSecond);
            Arrays.sort(perCpuSecond);
            System.out.printf(Locale.ROOT, "threads %d: median %.0f /s (min %.0f, max %.0f) over %d rounds of %.1f s;"
                    + " per CPU-second of the workers: median %.0f%n", threads, perSecond[rounds / 2], perSecond[0],
                    perSecond[rounds - 1], rounds, seconds, perCpuSecond[rounds / 2]);
        }
        double[] decodeOnly = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            decodeOnly[r] = runRounds(jpegs, 1, seconds, false);
        }
        Arrays.sort(decodeOnly);
        RgbImage image = decode(jpegs[0]);
        long t0 = System.nanoTime();
        int n = 0;
        while (System.nanoTime() - t0 < seconds * 1e9) {
            ArtFingerprint.compute(image, ArtSettings.FROZEN.zeroOffset());
            n++;
        }
        double fingerprintOnly = n / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(Locale.ROOT, "parts, 1 thread: decode alone median %.0f /s; one fingerprint alone "
                + "%.0f /s (%.1f us)%n", decodeOnly[rounds / 2], fingerprintOnly, 1e6 / fingerprintOnly);
    }

    private static double runRounds(byte[][] jpegs, int threads, double seconds, boolean fingerprint)
            throws InterruptedException {
        return runRounds(jpegs, threads, seconds, fingerprint, new AtomicLong());
    }

    /** Images a second of wall-clock time; {@code cpuNanos} receives the CPU time the workers used. */
    private static double runRounds(byte[][] jpegs, int threads, double seconds, boolean fingerprint,
            AtomicLong cpuNanos) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        long start = System.nanoTime();
        for (int t = 0; t < threads; t++) {
            int first = t * 997;
            Thread worker = new Thread(() -> {
                long cpu0 = THREADS.getCurrentThreadCpuTime();
                long count = 0;
                int k = first;
                while (System.nanoTime() < deadline) {
                    RgbImage image = decode(jpegs[k++ % jpegs.length]);
                    if (fingerprint) {
                        ArtFingerprint.compute(image, ArtSettings.FROZEN.zeroOffset());
                    }
                    count++;
                }
                done.addAndGet(count);
                cpuNanos.addAndGet(THREADS.getCurrentThreadCpuTime() - cpu0);
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        return done.get() / ((System.nanoTime() - start) / 1e9);
    }

    // 2. The index and match latency.

    /**
     * Artworks 0 .. captures-1 are fingerprinted exactly as in the tests ({@code smallJpeg}); the others are
     * distractors drawn with one sample a pixel (cheaper to draw, the same kind of art), JPEG-compressed alike.
     * The index is kept as an index file under {@code target/art-bench/} and reused by later runs after checking
     * three of its fingerprints against fresh ones (bump {@link #GENERATOR_VERSION} when the generator changes).
     */
    private static ArtMatcher buildIndex(int artworks, int captures) throws Exception {
        String digest = ArtSettings.FROZEN.digest();
        // one directory per generated index: the file's name carries its content digest, not known beforehand
        Path dir = Path.of("target", "art-bench", GENERATOR_VERSION + "-c" + captures + "-" + artworks);
        Path cached = ArtIndexFile.list(dir).stream().findFirst().orElse(dir.resolve("none"));
        if (Files.exists(cached)) {
            ArtIndexFile.Contents contents = ArtIndexFile.read(cached, digest);
            Map<UUID, byte[]> byId = new HashMap<>();
            contents.entries().forEach(e -> byId.put(e.artworkId(), e.fingerprint()));
            boolean fresh = IntStream.of(0, captures - 1, artworks - 1)
                    .allMatch(seed -> Arrays.equals(byId.get(artworkId(seed)), indexFingerprint(seed, captures)));
            if (fresh) {
                System.out.printf(Locale.ROOT, "%n(index of %d generated artworks loaded from %s)%n",
                        contents.entries().size(), cached);
                return ArtMatcher.of(digest, contents.entries());
            }
            Files.delete(cached);
        }
        long t0 = System.nanoTime();
        List<ArtIndexFile.Entry> entries = IntStream.range(0, artworks).parallel()
                .mapToObj(seed -> new ArtIndexFile.Entry(artworkId(seed), indexFingerprint(seed, captures)))
                .toList();
        cached = ArtIndexFile.write(dir, GENERATOR_VERSION + "-c" + captures, digest, entries).file();
        System.out.printf(Locale.ROOT, "%n(index of %d generated artworks built in %.0f s, kept in %s)%n",
                entries.size(), (System.nanoTime() - t0) / 1e9, cached);
        return ArtMatcher.of(digest, entries);
    }

    private static byte[] indexFingerprint(int seed, int captures) {
        byte[] jpeg = seed < captures ? CardArtGenerator.smallJpeg(seed)
                : TestImageFiles.jpeg(CardArtGenerator.card(seed).render(146, 204, 1),
                        CardArtGenerator.SMALL_JPEG_QUALITY);
        return ArtFingerprint.compute(decode(jpeg), ArtSettings.FROZEN.zeroOffset());
    }

    private static List<byte[]> captures(int captures, CaptureSimulator.Severity severity) {
        return IntStream.range(0, captures).parallel()
                .mapToObj(seed -> CaptureSimulator.captureJpeg(seed, 7_000 + seed, severity)).toList();
    }

    private static void latency(ArtMatcher matcher, List<byte[]> captureJpegs) {
        List<byte[][]> queries = captureJpegs.parallelStream().map(j -> ArtFingerprint.queries(decode(j))).toList();
        Random random = new Random(1);
        List<byte[][]> randomQueries = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            byte[][] q = new byte[6][128];
            for (byte[] fp : q) {
                random.nextBytes(fp);
            }
            randomQueries.add(q);
        }
        int calls = Math.max(5_000, queries.size() * 5);
        for (int k = 0; k < 3_000; k++) { // warm-up
            matcher.nearest(queries.get(k % queries.size()), 10);
            matcher.nearest(randomQueries.get(k % randomQueries.size()), 10);
        }
        System.out.printf(Locale.ROOT, "%n## Match latency, index of %d artworks, limit 10, one call at a time%n",
                matcher.size());
        report("nearest, six fingerprints of a capture", time(calls, k -> matcher.nearest(
                queries.get(k % queries.size()), 10)));
        report("nearest, six random fingerprints (no close artwork)", time(calls, k -> matcher.nearest(
                randomQueries.get(k % randomQueries.size()), 10)));
        for (int k = 0; k < 300; k++) {
            matcher.nearest(ArtFingerprint.queries(decode(captureJpegs.get(k % captureJpegs.size()))), 10);
        }
        report("decode capture JPEG + six fingerprints + nearest (captures 300-600 px wide)",
                time(Math.min(calls, 2_000), k -> matcher.nearest(
                        ArtFingerprint.queries(decode(captureJpegs.get(k % captureJpegs.size()))), 10)));
    }

    /** Wall-clock and thread CPU nanoseconds of each call, each array sorted. */
    private static long[][] time(int calls, java.util.function.IntConsumer call) {
        long[] wall = new long[calls];
        long[] cpu = new long[calls];
        for (int k = 0; k < calls; k++) {
            long c0 = THREADS.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            call.accept(k);
            wall[k] = System.nanoTime() - t0;
            cpu[k] = THREADS.getCurrentThreadCpuTime() - c0;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new long[][] {wall, cpu};
    }

    private static void report(String what, long[][] wallAndCpu) {
        int n = wallAndCpu[0].length;
        System.out.printf(Locale.ROOT, "%s (%d calls):%n", what, n);
        String[] names = {"wall-clock", "thread CPU"};
        for (int k = 0; k < 2; k++) {
            long[] sorted = wallAndCpu[k];
            System.out.printf(Locale.ROOT, "  %s p50 %.3f ms, p99 %.3f ms, max %.3f ms%n", names[k],
                    sorted[n / 2] / 1e6, sorted[(int) Math.ceil(n * 0.99) - 1] / 1e6, sorted[n - 1] / 1e6);
        }
    }

    // 3. Accuracy.

    private static void accuracy(ArtMatcher matcher, List<byte[]> captureJpegs, String severity) {
        int n = captureJpegs.size();
        int[] own = new int[n];
        boolean[] top1 = new boolean[n];
        boolean[] confident = new boolean[n];
        IntStream.range(0, n).parallel().forEach(seed -> {
            List<ArtMatcher.Match> matches = matcher.nearest(
                    ArtFingerprint.queries(decode(captureJpegs.get(seed))), 10);
            ArtMatcher.Match best = matches.get(0);
            top1[seed] = best.artworkId().equals(artworkId(seed));
            confident[seed] = top1[seed] && best.confident();
            own[seed] = matches.stream().filter(m -> m.artworkId().equals(artworkId(seed)))
                    .mapToInt(ArtMatcher.Match::distance).findFirst().orElse(-1);
        });
        int hits = 0;
        int sure = 0;
        for (int k = 0; k < n; k++) {
            hits += top1[k] ? 1 : 0;
            sure += confident[k] ? 1 : 0;
        }
        int[] found = Arrays.stream(own).filter(d -> d >= 0).sorted().toArray();
        System.out.printf(Locale.ROOT, "%n## Accuracy, %s captures: top-1 %d / %d (%.1f %%), top-1 and confident "
                + "(<= 300 bits) %d; own artwork's distance when in the top 10: median %d, p95 %d, max %d%n",
                severity, hits, n, 100.0 * hits / n, sure,
                found.length == 0 ? -1 : found[found.length / 2],
                found.length == 0 ? -1 : found[(int) Math.ceil(found.length * 0.95) - 1],
                found.length == 0 ? -1 : found[found.length - 1]);
    }

    private static UUID artworkId(int seed) {
        return UUID.nameUUIDFromBytes(("artwork-" + seed).getBytes(StandardCharsets.UTF_8));
    }

    private static RgbImage decode(byte[] jpeg) {
        try {
            return DECODER.decode(jpeg);
        } catch (ImageDecodeException e) {
            throw new IllegalStateException(e);
        }
    }

    private ArtBench() {
    }
}
