package dev.cardcatalog.bench;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.MatchResource;
import dev.cardcatalog.scan.PhotoMatch;
import dev.cardcatalog.scan.UploadDeadline;
import dev.cardcatalog.scan.UploadDecoder;
import dev.cardcatalog.scan.UprightPhoto;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One upload's match, stage by stage, on one thread (docs/benchmarks.md, "Whole matches over HTTP"): for
 * each photo, the median thread CPU time over {@code repeats} runs (after as many to warm up) of the marker walk
 * ({@link JpegStructure#scan}), the small decode ({@link UprightPhoto#decode}), the card search on it
 * ({@link CardFinder#find}) and the whole match as the endpoint runs it ({@link PhotoMatch#match}, its decode
 * included), against an art index file as the service writes it.
 *
 * <pre>
 * java -cp "target/test-classes:target/classes:$(cat target/bench/classpath.txt)" \
 *     dev.cardcatalog.bench.StageTimes target/match-http-bench/local/data/art/index/art-index-*.bin.gz 30 \
 *     target/match-http-bench/photos/*.jpg
 * </pre>
 * (the index and the photos are those {@code bench/match-http-bench.sh} leaves behind).
 */
public final class StageTimes {
    public static void main(String[] args) throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ArtMatcher matcher = ArtMatcher.load(Path.of(args[0]), FingerprintSettings.FROZEN.digest());
        int repeats = Integer.parseInt(args[1]);
        UploadDecoder decoder = MatchResource.uploadDecoder();
        PhotoMatch match = new PhotoMatch();
        for (int a = 2; a < args.length; a++) {
            byte[] body = Files.readAllBytes(Path.of(args[a]));
            long[] walk = new long[repeats], decode = new long[repeats], find = new long[repeats],
                    whole = new long[repeats];
            for (int warm = 0; warm < 2; warm++) {
                for (int i = 0; i < repeats; i++) {
                    long t0 = mx.getCurrentThreadCpuTime();
                    JpegStructure.scan(body);
                    long t1 = mx.getCurrentThreadCpuTime();
                    UprightPhoto photo = UprightPhoto.decode(body, decoder, UploadDeadline.none());
                    long t2 = mx.getCurrentThreadCpuTime();
                    new CardFinder().find(photo.image(), UploadDeadline.none());
                    long t3 = mx.getCurrentThreadCpuTime();
                    UprightPhoto again = UprightPhoto.decode(body, decoder, UploadDeadline.none());
                    match.match(again, matcher, UploadDeadline.none());
                    long t4 = mx.getCurrentThreadCpuTime();
                    walk[i] = t1 - t0;
                    decode[i] = t2 - t1;
                    find[i] = t3 - t2;
                    whole[i] = t4 - t3;
                }
            }
            System.out.printf("%s (%d bytes): walk %.2f ms, decode %.2f ms, find %.2f ms, whole match (decode "
                    + "included) %.2f ms (medians of %d, thread CPU)%n", args[a], body.length, median(walk),
                    median(decode), median(find), median(whole), repeats);
        }
    }

    private static double median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2] / 1e6;
    }
}
