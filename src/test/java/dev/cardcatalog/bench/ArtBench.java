package dev.cardcatalog.bench;

import static dev.cardcatalog.testing.CardArtGenerator.artworkId;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtPicture;
import dev.cardcatalog.art.ArtPictures;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.ImageDecoder;
import dev.cardcatalog.image.ImageOrientation;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.CaptureQueries;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.testing.CaptureSimulator;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.ExifImages;
import dev.cardcatalog.testing.TestImageFiles;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
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
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * The art benchmark of docs/benchmarks.md ("Art fingerprint, matching and accuracy"). Run it with
 * {@code bench/art-bench.sh}; it is not a test and asserts nothing.
 *
 * <ol>
 *   <li>Throughput: decode + zero-offset fingerprint of distinct 146×204 baseline JPEGs, on 1 and 2 threads, in
 *       timed rounds after a warm-up (the art build's per-image work).</li>
 *   <li>Match latency over indexes of 50,000 and 200,000 artworks: {@link ArtMatcher#nearest} with the 24 query
 *       fingerprints of simulated captures (four turns × six offsets, {@link CaptureQueries}), limit 10, one call at
 *       a time (and with the six of turn 0 alone, for comparison); and the whole server-side work of a match request
 *       excluding the upload (decode the capture JPEG, its EXIF orientation, 24 fingerprints, nearest).</li>
 *   <li>Accuracy: top-1, confident and <em>confident-wrong</em> (the first match confident but not the capture's
 *       own artwork) over 1,000 simulated captures of artworks in the 50,000 index, each stored upright, turned
 *       90°, 180° and 270° without a tag, and turned or mirrored with the EXIF orientation that says so; and, per
 *       candidate margin, how many captures would be confident-right and confident-wrong.</li>
 * </ol>
 *
 * <p>Arguments (all optional): {@code --artworks N} (default 50000), {@code --captures N} (default 1000),
 * {@code --rounds N} (default 5), {@code --seconds S} per round (default 3), {@code --sizes} the index sizes
 * timed (default {@code 50000,200000}), {@code --calls N} timed calls of each kind (default 5000), {@code --parts}
 * a comma-separated choice of {@code throughput,latency,accuracy,photos} (default all four) and {@code heldout}
 * (photos of art never indexed on seeds the photo part does not use, {@link PhotoRows#heldOut}); {@code --photos N}
 * captures per row of the photo part (default 1000, at most {@code --captures}; any number for held-out rows),
 * {@code --pages N} binder pages
 * (default 200) and {@code --collections N} photos of a collection of twelve cards for each
 * {@link dev.cardcatalog.testing.PhotoSimulator.Clutter} (default 50): see {@link PhotoRows}.
 */
public final class ArtBench {

    /**
     * The decoder uploads get ({@link ArtIndexResource#uploadDecoder}): captures of 407 pixels or more on their longer
     * side are decoded scaled by libjpeg-turbo; the 146×204 index images are below its floor and decode exactly as
     * with ImageIO alone.
     */
    private static final ImageDecoder DECODER = MatchResource.uploadDecoder().imageDecoder();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** Part of the cached index's name: change it whenever CardArtGenerator draws differently. */
    private static final String GENERATOR_VERSION = "bench-g1";

    public static void main(String[] args) throws Exception {
        int artworks = 50_000;
        int captures = 1_000;
        int rounds = 5;
        double seconds = 3;
        String parts = "throughput,latency,accuracy,photos";
        int photos = 1_000;
        int pages = 200;
        int collections = 50;
        String sizes = "50000,200000";
        int calls = 5_000;
        for (int k = 0; k + 1 < args.length; k += 2) {
            switch (args[k]) {
                case "--artworks" -> artworks = Integer.parseInt(args[k + 1]);
                case "--captures" -> captures = Integer.parseInt(args[k + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[k + 1]);
                case "--seconds" -> seconds = Double.parseDouble(args[k + 1]);
                case "--parts" -> parts = args[k + 1];
                case "--sizes" -> sizes = args[k + 1];
                case "--calls" -> calls = Integer.parseInt(args[k + 1]);
                case "--photos" -> photos = Integer.parseInt(args[k + 1]);
                case "--pages" -> pages = Integer.parseInt(args[k + 1]);
                case "--collections" -> collections = Integer.parseInt(args[k + 1]);
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
        if (chosen.contains("latency") || chosen.contains("accuracy") || chosen.contains("photos")
                || chosen.contains("heldout")) {
            List<ArtIndexFile.Entry> entries = buildIndex(artworks, captures);
            ArtMatcher matcher = ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
            if (chosen.contains("latency")) {
                List<byte[]> captureJpegs = captures(captures, CaptureSimulator.Severity.REALISTIC);
                for (String size : sizes.split(",")) {
                    int n = Integer.parseInt(size.trim());
                    latency(n == entries.size() ? matcher : ArtMatcher.of(FingerprintSettings.FROZEN.digest(),
                            scaled(entries, n)), captureJpegs, calls);
                }
            }
            loadAverage("after the timed parts");
            if (chosen.contains("accuracy")) {
                // The targets' runs first; the margin table so far after each run, so a cut-short run still tells.
                List<Outcome> all = new ArrayList<>();
                for (Storing storing : Storing.values()) {
                    for (CaptureSimulator.Severity severity : CaptureSimulator.Severity.values()) {
                        all.addAll(accuracy(matcher, captures, severity, storing));
                        margins(all);
                    }
                }
            }
            if (chosen.contains("heldout")) {
                PhotoRows.heldOut(matcher, pictures(matcher.size(), captures), photos);
            }
            if (chosen.contains("photos")) {
                PhotoRows.run(matcher, pictures(matcher.size(), captures), Math.min(photos, captures), pages, collections,
                        captures);
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
        System.out.printf(Locale.ROOT, "%n## Throughput: decode + zero-offset fingerprint + picture (the art build's "
                + "work an image), %d distinct 146x204 baseline JPEGs (quality %.2f, mean %d bytes)%n", distinct,
                CardArtGenerator.SMALL_JPEG_QUALITY,
                Arrays.stream(jpegs).mapToInt(b -> b.length).sum() / distinct);
        runRounds(jpegs, 1, 5.0, true); // warm-up
        runRounds(jpegs, 2, 3.0, true);
        runRounds(jpegs, 1, 2.0, Work.FINGERPRINT);
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
        double[] withoutPicture = new double[rounds];
        double[] withPicture = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            // side by side, round after round: the machine's speed drifts between minutes
            decodeOnly[r] = runRounds(jpegs, 1, seconds, false);
            withoutPicture[r] = runRounds(jpegs, 1, seconds, Work.FINGERPRINT);
            withPicture[r] = runRounds(jpegs, 1, seconds, Work.FINGERPRINT_AND_PICTURE);
        }
        Arrays.sort(decodeOnly);
        Arrays.sort(withoutPicture);
        Arrays.sort(withPicture);
        RgbImage image = decode(jpegs[0]);
        long t0 = System.nanoTime();
        int n = 0;
        while (System.nanoTime() - t0 < seconds * 1e9) {
            ArtFingerprint.compute(image, FingerprintSettings.FROZEN.zeroOffset());
            n++;
        }
        double fingerprintOnly = n / ((System.nanoTime() - t0) / 1e9);
        t0 = System.nanoTime();
        n = 0;
        while (System.nanoTime() - t0 < seconds * 1e9) {
            ArtPicture.of(image, FingerprintSettings.FROZEN.zeroOffset());
            n++;
        }
        double pictureOnly = n / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(Locale.ROOT, "parts, 1 thread, side by side: decode alone median %.0f /s; decode + "
                + "fingerprint %.0f /s; decode + fingerprint + picture %.0f /s (%.1f %% fewer); one fingerprint alone "
                + "%.0f /s (%.1f us); one picture alone %.0f /s (%.1f us)%n", decodeOnly[rounds / 2],
                withoutPicture[rounds / 2], withPicture[rounds / 2],
                100 * (1 - withPicture[rounds / 2] / withoutPicture[rounds / 2]), fingerprintOnly,
                1e6 / fingerprintOnly, pictureOnly, 1e6 / pictureOnly);
    }

    /** What a worker does with each image after decoding it. */
    private enum Work { NOTHING, FINGERPRINT, FINGERPRINT_AND_PICTURE }

    private static double runRounds(byte[][] jpegs, int threads, double seconds, boolean build)
            throws InterruptedException {
        return runRounds(jpegs, threads, seconds, build ? Work.FINGERPRINT_AND_PICTURE : Work.NOTHING);
    }

    private static double runRounds(byte[][] jpegs, int threads, double seconds, Work work)
            throws InterruptedException {
        return runRounds(jpegs, threads, seconds, work, new AtomicLong());
    }

    private static double runRounds(byte[][] jpegs, int threads, double seconds, boolean build, AtomicLong cpuNanos)
            throws InterruptedException {
        return runRounds(jpegs, threads, seconds, build ? Work.FINGERPRINT_AND_PICTURE : Work.NOTHING, cpuNanos);
    }

    /** Images a second of wall-clock time; {@code cpuNanos} receives the CPU time the workers used. */
    private static double runRounds(byte[][] jpegs, int threads, double seconds, Work work,
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
                    if (work != Work.NOTHING) {
                        ArtFingerprint.compute(image, FingerprintSettings.FROZEN.zeroOffset());
                    }
                    if (work == Work.FINGERPRINT_AND_PICTURE) {
                        ArtPicture.of(image, FingerprintSettings.FROZEN.zeroOffset());
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
    static List<ArtIndexFile.Entry> buildIndex(int artworks, int captures) throws Exception {
        String digest = FingerprintSettings.FROZEN.digest();
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
                return contents.entries();
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
        return entries;
    }

    /**
     * An index of {@code n} artworks for timing: the generated ones, and as many copies of them as needed, each
     * copy's fingerprints XOR-ed with its own random mask (so a copy is as far from the originals as unrelated art,
     * while keeping their distances to each other). The scan's time does not depend on the bits, only on the count.
     */
    private static List<ArtIndexFile.Entry> scaled(List<ArtIndexFile.Entry> entries, int n) {
        List<ArtIndexFile.Entry> scaled = new ArrayList<>(n);
        Random random = new Random(200_000);
        for (int copy = 0; scaled.size() < n; copy++) {
            byte[] mask = new byte[ArtFingerprint.BYTES];
            if (copy > 0) {
                random.nextBytes(mask);
            }
            for (int k = 0; k < entries.size() && scaled.size() < n; k++) {
                byte[] fp = entries.get(k).fingerprint().clone();
                for (int b = 0; b < fp.length; b++) {
                    fp[b] ^= mask[b];
                }
                UUID id = copy == 0 ? entries.get(k).artworkId() : UUID.nameUUIDFromBytes(
                        (entries.get(k).artworkId() + "-copy-" + copy).getBytes(StandardCharsets.UTF_8));
                scaled.add(new ArtIndexFile.Entry(id, fp));
            }
        }
        return scaled;
    }

    private static byte[] indexFingerprint(int seed, int captures) {
        return ArtFingerprint.compute(indexImage(seed, captures), FingerprintSettings.FROZEN.zeroOffset());
    }

    /** The decoded {@code small} image the benchmark's index holds for artwork {@code seed}. */
    static RgbImage indexImage(int seed, int captures) {
        byte[] jpeg = seed < captures ? CardArtGenerator.smallJpeg(seed)
                : TestImageFiles.jpeg(CardArtGenerator.card(seed).render(146, 204, 1),
                        CardArtGenerator.SMALL_JPEG_QUALITY);
        return decode(jpeg);
    }

    /**
     * The pictures ({@link ArtPicture}) of the benchmark's {@code artworks} indexed artworks, made as the art build
     * makes them from the same images as their fingerprints, when the match first asks for one.
     */
    static ArtPictures pictures(int artworks, int captures) {
        Map<UUID, Integer> seedOf = new HashMap<>();
        for (int seed = 0; seed < artworks; seed++) {
            seedOf.put(artworkId(seed), seed);
        }
        Map<UUID, byte[]> made = new java.util.concurrent.ConcurrentHashMap<>();
        return ids -> {
            Map<UUID, byte[]> found = new HashMap<>();
            for (UUID id : ids) {
                Integer seed = seedOf.get(id);
                if (seed != null) {
                    found.put(id, made.computeIfAbsent(id, i -> ArtPicture.of(indexImage(seed, captures),
                            FingerprintSettings.FROZEN.zeroOffset())));
                }
            }
            return found;
        };
    }

    private static List<byte[]> captures(int captures, CaptureSimulator.Severity severity) {
        return IntStream.range(0, captures).parallel()
                .mapToObj(seed -> CaptureSimulator.captureJpeg(seed, 7_000 + seed, severity)).toList();
    }

    private static void latency(ArtMatcher matcher, List<byte[]> captureJpegs, int calls) {
        // Every turn, 24 fingerprints: the most one capture (a square one) can send.
        List<byte[][]> queries = captureJpegs.parallelStream()
                .map(j -> CaptureQueries.of(decode(j), CaptureQueries.TURNS).fingerprints()).toList();
        List<byte[][]> sixes = queries.stream().map(q -> Arrays.copyOf(q, 6)).toList();
        Random random = new Random(1);
        List<byte[][]> randomQueries = new ArrayList<>();
        for (int k = 0; k < 200; k++) {
            byte[][] q = new byte[CaptureQueries.COUNT][128];
            for (byte[] fp : q) {
                random.nextBytes(fp);
            }
            randomQueries.add(q);
        }
        for (int k = 0; k < Math.min(1_500, calls); k++) { // warm-up
            matcher.nearest(queries.get(k % queries.size()), 10);
            matcher.nearest(randomQueries.get(k % randomQueries.size()), 10);
            matcher.nearest(sixes.get(k % sixes.size()), 10);
        }
        System.out.printf(Locale.ROOT, "%n## Match latency, index of %d artworks, limit 10, one call at a time%n",
                matcher.size());
        report("nearest, 24 fingerprints of a capture (4 turns x 6 offsets)", time(calls, k -> matcher.nearest(
                queries.get(k % queries.size()), 10)));
        report("nearest, 24 random fingerprints (no close artwork)", time(calls, k -> matcher.nearest(
                randomQueries.get(k % randomQueries.size()), 10)));
        report("nearest, the 6 fingerprints of turn 0 alone (as before issue 15)", time(calls, k -> matcher.nearest(
                sixes.get(k % sixes.size()), 10)));
        for (int k = 0; k < 300; k++) {
            serverSide(matcher, captureJpegs.get(k % captureJpegs.size()));
        }
        report("decode capture JPEG + EXIF orientation + 24 fingerprints + nearest (captures 300-600 px wide)",
                time(Math.min(calls, 2_000), k -> serverSide(matcher, captureJpegs.get(k % captureJpegs.size()))));
    }

    /** What the match endpoint does with an upload, after reading it. */
    private static List<ArtMatcher.Match> serverSide(ArtMatcher matcher, byte[] photo) {
        return matcher.nearest(CaptureQueries.of(ImageOrientation.upright(decode(photo), ImageOrientation.of(photo)))
                .fingerprints(), 10);
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

    /** How a capture is stored: the turn the match must find, and the EXIF orientation written with it, if any. */
    private enum Storing {
        UPRIGHT("upright, no tag", 0),
        EXIF("stored turned or mirrored, EXIF orientation 2-8 says so", 0),
        ABSENT("of artworks NOT in the index (any confident match is wrong), turned 0/90/180/270 in turn", -1),
        TURNED_90("turned, no tag: found at 90", 90),
        TURNED_270("turned, no tag: found at 270", 270),
        TURNED_180("turned, no tag: found at 180", 180);

        final String label;
        final int rotation;

        Storing(String label, int rotation) {
            this.label = label;
            this.rotation = rotation;
        }

        /** The artwork capture {@code seed} photographs: beyond the index's for {@link #ABSENT}. */
        int art(int seed, int artworks) {
            return this == ABSENT ? artworks + seed : seed;
        }

        /** The JPEG as the phone stores capture {@code seed} of artwork {@code art}. */
        byte[] photo(int seed, int art, CaptureSimulator.Severity severity) {
            if (this == ABSENT) {
                int turn = 90 * (seed % 4);
                return CaptureSimulator.captureJpeg(art, 7_000 + seed, severity, turn == 0 ? UnaryOperator.identity()
                        : image -> ExifImages.turnedClockwise(image, turn));
            }
            if (this == EXIF) {
                int value = 2 + seed % 7;
                UnaryOperator<java.awt.image.BufferedImage> stored = image -> ExifImages.stored(image, value);
                return ExifImages.jpegWithExif(CaptureSimulator.captureJpeg(art, 7_000 + seed, severity, stored),
                        ExifImages.orientationTiff(value, seed % 2 == 0 ? ByteOrder.BIG_ENDIAN
                                : ByteOrder.LITTLE_ENDIAN));
            }
            // lying turned counter-clockwise by `rotation`, so turning it that much clockwise puts it upright
            UnaryOperator<java.awt.image.BufferedImage> lying = rotation == 0 ? UnaryOperator.identity()
                    : image -> ExifImages.turnedClockwise(image, 360 - rotation);
            return CaptureSimulator.captureJpeg(art, 7_000 + seed, severity, lying);
        }
    }

    /**
     * One capture's result.
     *
     * @param own          its own artwork's distance, -1 when not in the first 10
     * @param nearestWrong the smallest distance of another artwork
     * @param top1         whether its own artwork came first
     * @param rotationRight whether the first match's rotation is the one that undoes the storing
     */
    private record Outcome(int own, int nearestWrong, boolean top1, boolean rotationRight) {
    }

    private static List<Outcome> accuracy(ArtMatcher matcher, int captures, CaptureSimulator.Severity severity,
            Storing storing) {
        List<Outcome> outcomes = IntStream.range(0, captures).parallel().mapToObj(seed -> {
            int art = storing.art(seed, matcher.size());
            byte[] photo = storing.photo(seed, art, severity);
            RgbImage upright = ImageOrientation.upright(decode(photo), ImageOrientation.of(photo));
            CaptureQueries queries = CaptureQueries.of(upright);
            List<ArtMatcher.Match> matches = matcher.nearest(queries.fingerprints(), 10);
            UUID own = artworkId(art);
            ArtMatcher.Match best = matches.get(0);
            int ownDistance = matches.stream().filter(m -> m.artworkId().equals(own))
                    .mapToInt(ArtMatcher.Match::distance).findFirst().orElse(-1);
            int nearestWrong = matches.stream().filter(m -> !m.artworkId().equals(own))
                    .mapToInt(ArtMatcher.Match::distance).findFirst().orElse(Integer.MAX_VALUE);
            boolean top1 = best.artworkId().equals(own);
            return new Outcome(ownDistance, nearestWrong, top1,
                    top1 && queries.turnOf(best.query()) == storing.rotation);
        }).toList();
        int n = outcomes.size();
        int top1 = (int) outcomes.stream().filter(Outcome::top1).count();
        int confidentRight = (int) outcomes.stream().filter(o -> o.top1() && o.own() <= ArtMatcher.CONFIDENT_DISTANCE)
                .count();
        int confidentWrong = (int) outcomes.stream()
                .filter(o -> !o.top1() && o.nearestWrong() <= ArtMatcher.CONFIDENT_DISTANCE).count();
        int rotations = (int) outcomes.stream().filter(Outcome::rotationRight).count();
        int[] own = outcomes.stream().mapToInt(Outcome::own).filter(d -> d >= 0).sorted().toArray();
        int[] wrong = outcomes.stream().mapToInt(Outcome::nearestWrong).sorted().toArray();
        System.out.printf(Locale.ROOT, "%n## Accuracy, %s captures, %s: top-1 %d / %d (%.1f %%), confident-right "
                + "%d, confident-wrong %d, rotation right %d; own distance (when in the first 10) median %d, p95 %d, "
                + "max %d; nearest other artwork min %d, p1 %d, median %d%n",
                severity.name().toLowerCase(Locale.ROOT), storing.label, top1, n, 100.0 * top1 / n, confidentRight,
                confidentWrong, rotations, percentile(own, 0.5), percentile(own, 0.95), percentile(own, 1.0),
                wrong[0], percentile(wrong, 0.01), percentile(wrong, 0.5));
        return outcomes;
    }

    /** Confident-right and confident-wrong over all captures for margins around 300 bits. */
    private static void margins(List<Outcome> outcomes) {
        System.out.printf(Locale.ROOT, "%n## Margin, over the %d captures so far%n", outcomes.size());
        System.out.println("margin  confident-right  confident-wrong  (a first match at <= margin bits is confident)");
        for (int margin = 240; margin <= 360; margin += 10) {
            final int m = margin;
            long right = outcomes.stream().filter(o -> o.top1() && o.own() <= m).count();
            long wrong = outcomes.stream().filter(o -> !o.top1() && o.nearestWrong() <= m).count();
            System.out.printf(Locale.ROOT, "%6d  %15d  %15d%n", margin, right, wrong);
        }
        int smallestWrongFirst = outcomes.stream().filter(o -> !o.top1()).mapToInt(Outcome::nearestWrong).min()
                .orElse(-1);
        int smallestWrongAny = outcomes.stream().mapToInt(Outcome::nearestWrong).min().orElse(-1);
        System.out.printf(Locale.ROOT, "smallest distance of a wrong first match: %d; of any other artwork: %d%n",
                smallestWrongFirst, smallestWrongAny);
    }

    private static int percentile(int[] sorted, double p) {
        return sorted.length == 0 ? -1 : sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)];
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
