package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtSettings;
import dev.cardcatalog.art.ImageDecodeException;
import dev.cardcatalog.art.RgbImage;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Runs the match's code at start, before the replica reports ready: a whole photo of a card on a table (a JPEG of
 * 1,600 × 1,200, the card turned 12°), the same card as a guide crop (a JPEG) and as a PNG, each decoded by the
 * uploads' own decoder and matched by the uploads' own {@link PhotoMatch} (the crops by its guide-crop path, the
 * photo by its search) against an index of that one card,
 * {@code card-catalog.art.match-warm-up-passes} times; then, for {@code card-catalog.art.match-warm-up-over-http}
 * (30 s), the whole photo and the guide crop posted to the replica's own match endpoint over loopback
 * ({@link WarmUpRequests}: the same upload handling, turns, decoding, search and answer, against the same one-card
 * index). The photos are drawn here, nothing is read from disk or another host, and the art index is not touched.
 *
 * <p>Why: an upload's decoding, card finding and matching have {@code card-catalog.art.upload-deadline} (2 s)
 * together, in wall-clock time. A replica's first match otherwise loads the decoders' and the card finder's
 * classes and runs them interpreted; on a loaded 2-core machine that took over 2 s, so a replica started by a
 * rollout or a scale-up answered its first photos 422 {@code upload-too-costly}. Readiness ({@code match warm-up}
 * in {@code /q/health/ready}) is down until the passes are done, so the Service sends no photo before; a failed
 * warm-up is logged and reports up (a replica that cannot draw its own photo still matches).
 *
 * <p>Why over HTTP as well: the passes alone end with the search compiled by the first-tier compiler only (Quarkus's
 * own start fills the optimising compiler's queue), and the HTTP path not compiled at all, so a new replica's first
 * minute of photos compiled both (docs/benchmarks.md, "What the cold minute waits for"). Thousands of requests over
 * 30 s, four at a time, reach the optimising compiler.
 */
@ApplicationScoped
@Readiness
public class MatchWarmUp implements HealthCheck {

    static final String NAME = "match warm-up";
    /** The artwork of the drawn card, in the one-card index of the warm-up. */
    static final UUID ARTWORK = UUID.fromString("00000000-0000-4000-8000-00000000a11e");

    /** How a photo is found and matched: {@link MatchResource#rehearse} in the service. */
    @FunctionalInterface
    interface Rehearsal {
        List<PhotoMatch.Found> match(byte[] photo, ArtMatcher matcher) throws ImageDecodeException;
    }

    /** How long the warm-up waits for the HTTP server to start before it leaves its requests out. */
    static final Duration SERVER_WAIT = Duration.ofSeconds(60);

    private final Rehearsal rehearsal;
    private final int passes;
    private final WarmUpRequests requests;
    private final Duration overHttp;
    private volatile boolean done;
    private volatile String outcome = "not started";

    @Inject // a second constructor below, for the tests: without this, CDI would not see a bean here
    public MatchWarmUp(MatchResource resource, ScanConfig config, WarmUpRequests requests) {
        this(resource::rehearse, config.matchWarmUpPasses(), requests, config.matchWarmUpOverHttp());
    }

    MatchWarmUp(Rehearsal rehearsal, int passes) {
        this(rehearsal, passes, null, Duration.ZERO);
    }

    MatchWarmUp(Rehearsal rehearsal, int passes, WarmUpRequests requests, Duration overHttp) {
        this.rehearsal = rehearsal;
        this.passes = passes;
        this.requests = requests;
        this.overHttp = overHttp;
        if (passes < 0) {
            throw new IllegalArgumentException("card-catalog.art.match-warm-up-passes must be 0 or more, not "
                    + passes);
        }
        if (overHttp.isNegative()) {
            throw new IllegalArgumentException("card-catalog.art.match-warm-up-over-http must not be negative, not "
                    + overHttp);
        }
        this.done = passes == 0;
        if (done) {
            outcome = "off (card-catalog.art.match-warm-up-passes=0)";
        }
    }

    void start(@Observes StartupEvent event) {
        if (done) {
            return;
        }
        outcome = "running";
        Thread thread = new Thread(() -> {
            long start = System.nanoTime();
            try {
                int found = run(rehearsal, 1);
                long first = System.nanoTime();
                found += run(rehearsal, passes - 1);
                outcome = passes + (passes == 1 ? " pass" : " passes") + " of 3 photos, " + found + " cards found, in "
                        + (System.nanoTime() - start) / 1_000_000 + " ms (the first pass "
                        + (first - start) / 1_000_000 + " ms)";
                if (requests != null && !overHttp.isZero()) {
                    outcome += "; " + overHttp();
                }
                Log.infof("match code warmed up: %s", outcome);
            } catch (InterruptedException e) {
                outcome = "stopped: interrupted";
                Thread.currentThread().interrupt();
            } catch (ImageDecodeException | RuntimeException | java.awt.AWTError | LinkageError e) {
                // the last two: no graphics environment to draw in, or a native decoder that did not load
                outcome = "stopped: " + e;
                Log.warnf("the match warm-up stopped (%s); the first photos compile the match's code themselves", e);
            } finally {
                done = true;
            }
        }, "match-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    /** The requests over HTTP, {@link #overHttp} long: what they found, or why there were none. */
    private String overHttp() throws InterruptedException {
        BufferedImage card = card();
        List<byte[]> photos = List.of(encode(onTable(card), "jpg"), encode(scaled(card, 3), "jpg"));
        long start = System.nanoTime();
        try {
            WarmUpRequests.Outcome http = requests.run(photos, ARTWORK, overHttp, SERVER_WAIT);
            return http.sent() + " requests over HTTP in " + (System.nanoTime() - start) / 1_000_000 + " ms, "
                    + http.answered() + " answered 200, " + http.found() + " cards found";
        } catch (IllegalStateException e) {
            Log.warnf("the match warm-up sent no request over HTTP: %s", e.getMessage());
            return "no request over HTTP: " + e.getMessage();
        }
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named(NAME).status(done).withData("outcome", outcome).build();
    }

    /**
     * Matches the drawn photos {@code passes} times through {@code rehearsal}.
     *
     * @return the cards found and matched confidently to the drawn card, over all passes (3 a pass when the code
     *         works as it should)
     * @throws ImageDecodeException if the uploads' decoder refuses a drawn photo
     */
    static int run(Rehearsal rehearsal, int passes) throws ImageDecodeException {
        BufferedImage card = card();
        ArtMatcher matcher = indexOf(card);
        List<byte[]> photos = List.of(encode(onTable(card), "jpg"), encode(scaled(card, 3), "jpg"),
                encode(card, "png"));
        int found = 0;
        for (int pass = 0; pass < passes; pass++) {
            for (byte[] photo : photos) {
                for (PhotoMatch.Found cardFound : rehearsal.match(photo, matcher)) {
                    if (cardFound.status() == MatchStatus.CONFIDENT
                            && cardFound.nearest().get(0).artworkId().equals(ARTWORK)) {
                        found++;
                    }
                }
            }
        }
        return found;
    }

    /** An index of one artwork, {@link #ARTWORK}: {@code card}'s, fingerprinted as an art build fingerprints it. */
    static ArtMatcher indexOf(BufferedImage card) {
        return ArtMatcher.of(ArtSettings.FROZEN.digest(), List.of(new ArtIndexFile.Entry(ARTWORK,
                ArtFingerprint.compute(rgb(card), ArtSettings.FROZEN.zeroOffset()))));
    }

    /** A card as Scryfall's {@code small} image is (146 × 204): a black border, a frame, and an artwork in it. */
    static BufferedImage card() {
        BufferedImage card = new BufferedImage(146, 204, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = card.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(new Color(18, 18, 20));
        g.fillRect(0, 0, 146, 204);
        g.setColor(new Color(196, 180, 150));
        g.fillRoundRect(7, 7, 132, 190, 8, 8);
        // the artwork: a sky, a hill, a sun and a tree, so that its fingerprint has structure in every cell
        g.setPaint(new GradientPaint(0, 22, new Color(70, 110, 190), 0, 110, new Color(230, 200, 150)));
        g.fillRect(12, 22, 122, 90);
        g.setColor(new Color(60, 120, 50));
        g.fillOval(-20, 80, 140, 70);
        g.setColor(new Color(250, 220, 90));
        g.fillOval(90, 30, 28, 28);
        g.setColor(new Color(80, 50, 30));
        g.setStroke(new BasicStroke(5));
        g.drawLine(40, 100, 46, 55);
        g.setColor(new Color(30, 90, 40));
        g.fillOval(26, 36, 40, 34);
        g.setColor(new Color(40, 35, 30));
        g.fillRect(12, 118, 122, 10);
        g.setColor(new Color(225, 215, 195));
        g.fillRect(12, 132, 122, 56);
        g.dispose();
        return card;
    }

    /** The card printed {@code factor} times as large, as a guide crop of a phone is. */
    static BufferedImage scaled(BufferedImage card, int factor) {
        BufferedImage out = new BufferedImage(card.getWidth() * factor, card.getHeight() * factor,
                BufferedImage.TYPE_INT_RGB);
        Graphics2D g = out.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.drawImage(card, 0, 0, out.getWidth(), out.getHeight(), null);
        g.dispose();
        return out;
    }

    /** A 1,600 × 1,200 photo of the card lying on a table, 2.2 times its size (a third of the frame), turned 12°. */
    static BufferedImage onTable(BufferedImage card) {
        BufferedImage photo = new BufferedImage(1600, 1200, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = photo.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setPaint(new GradientPaint(0, 0, new Color(205, 172, 128), 1600, 1200, new Color(150, 112, 76)));
        g.fillRect(0, 0, 1600, 1200);
        AffineTransform place = new AffineTransform();
        place.translate(800, 600);
        place.rotate(Math.toRadians(12));
        place.scale(2.2, 2.2);
        place.translate(-card.getWidth() / 2.0, -card.getHeight() / 2.0);
        g.drawImage(card, place, null);
        g.dispose();
        return photo;
    }

    /** {@code image} written by ImageIO as {@code format} ({@code jpg}, {@code png}). */
    static byte[] encode(BufferedImage image, String format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("no ImageIO writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code image}'s pixels as the fingerprint reads them. */
    static RgbImage rgb(BufferedImage image) {
        int w = image.getWidth();
        int h = image.getHeight();
        return new RgbImage(w, h, image.getRGB(0, 0, w, h, null, 0, w));
    }
}
