package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtFingerprint;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.RgbImage;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.Paint;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import javax.imageio.ImageIO;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Runs the match's code at start, before the replica reports ready, over drawn photos of each kind the match is
 * made for ({@link #photos}): a whole photo of a card on a table (1,600 × 1,200), a 12-megapixel one on a checked
 * cloth, turned and tilted, a 12-megapixel binder page of nine cards, a table with no card, and a guide crop as a
 * JPEG and as a PNG. Each is decoded by the uploads' own decoder and matched by the uploads' own {@link PhotoMatch}
 * against the warm-up's own index of {@value #ARTWORKS} drawn artworks ({@link #index}),
 * {@code card-catalog.art.match-warm-up-passes} times; then, for {@code card-catalog.art.match-warm-up-over-http}
 * (30 s), the JPEGs are posted to the replica's own match endpoint over loopback ({@link WarmUpRequests}: the same
 * upload handling, turns, decoding, search and answer, against the same index). The photos are drawn here, nothing
 * is read from disk or another host, and the art index is not touched.
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
 * minute of photos compiled both (docs/benchmarks.md, "Why the match runs as it does"). Thousands of requests over
 * 30 s, four at a time, reach the optimising compiler.
 *
 * <p>Why photos of every kind and an index of many artworks: the optimising compiler leaves out the branches a
 * method has not taken while it was profiled, and an input that takes one later throws the compiled code away ("made
 * not entrant") to have it compiled again. Warmed by one 1,600 × 1,200 photo against a one-card index, the first
 * 12-megapixel photo of a real minute did that to some twenty of the search's and the matcher's hottest methods,
 * and the minute's first two seconds answered in twice the usual time (docs/benchmarks.md, "Why the match runs as
 * it does").
 */
@ApplicationScoped
@Readiness
public class MatchWarmUp implements HealthCheck {

    static final String NAME = "match warm-up";
    /** The artwork of the drawn card ({@link #card()}), the first of the warm-up's index. */
    static final UUID ARTWORK = UUID.fromString("00000000-0000-4000-8000-00000000a11e");
    /** How many drawn artworks the warm-up's index holds ({@link #index}). */
    static final int ARTWORKS = 256;

    /**
     * A drawn photo and the artworks drawn in it: those its cards should be matched to, confident.
     *
     * @param name  what it shows
     * @param body  a JPEG or PNG
     * @param drawn the artworks of the cards in it ({@link #artwork}); none for the table with no card
     */
    record Photo(String name, byte[] body, Set<UUID> drawn) {
    }

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
                List<Photo> photos = photos();
                int found = run(rehearsal, photos, index(), 1);
                long first = System.nanoTime();
                found += run(rehearsal, photos, index(), passes - 1);
                int drawn = photos.stream().mapToInt(photo -> photo.drawn().size()).sum();
                outcome = passes + (passes == 1 ? " pass" : " passes") + " of " + photos.size() + " photos, " + found
                        + " of " + passes * drawn + " cards found, in " + (System.nanoTime() - start) / 1_000_000
                        + " ms (the first pass, with the drawing, " + (first - start) / 1_000_000 + " ms)";
                if (requests != null && !overHttp.isZero()) {
                    outcome += "; " + overHttp(photos);
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

    /** The requests over HTTP of {@code photos}' JPEGs, {@link #overHttp} long: what they found, or why none. */
    private String overHttp(List<Photo> photos) throws InterruptedException {
        // what phones send (a PNG is rehearsed by the passes)
        List<Photo> jpegs = photos.stream().filter(photo -> photo.body()[0] != (byte) 0x89).toList();
        long start = System.nanoTime();
        try {
            WarmUpRequests.Outcome http = requests.run(jpegs, overHttp, SERVER_WAIT);
            return http.sent() + " requests over HTTP in " + (System.nanoTime() - start) / 1_000_000 + " ms, "
                    + http.answered() + " answered 200, " + http.found() + " of " + http.drawn() + " cards found";
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
     * Matches {@code photos} ({@link #photos}) {@code passes} times through {@code rehearsal}, against
     * {@code matcher} (the warm-up's index, {@link #index}).
     *
     * @return the cards found and matched confidently to an artwork drawn in their photo, over all passes (all the
     *         cards drawn in them, each pass, when the code works as it should)
     * @throws ImageDecodeException if the uploads' decoder refuses a drawn photo
     */
    static int run(Rehearsal rehearsal, List<Photo> photos, ArtMatcher matcher, int passes)
            throws ImageDecodeException {
        int found = 0;
        for (int pass = 0; pass < passes; pass++) {
            for (Photo photo : photos) {
                found += confident(rehearsal.match(photo.body(), matcher), photo.drawn());
            }
        }
        return found;
    }

    /** How many of {@code found} are confident and matched to one of {@code drawn}. */
    static int confident(List<PhotoMatch.Found> found, Set<UUID> drawn) {
        int confident = 0;
        for (PhotoMatch.Found card : found) {
            if (card.status() == MatchStatus.CONFIDENT && drawn.contains(card.nearest().get(0).artworkId())) {
                confident++;
            }
        }
        return confident;
    }

    /**
     * The warm-up's photos, drawn and encoded at each call (a 12-megapixel one is 37 MB of pixels while it is drawn),
     * in this order: the card on a table, 1,600 × 1,200, turned 12° ({@link #onTable}); card 1 on a checked cloth in
     * a 4,032 × 3,024 photo, turned and tilted ({@link #onCloth}); a 3,024 × 4,032 binder page of cards 0–8
     * ({@link #binderPage}); a 2,048 × 1,536 photo of a table with no card ({@link #bareTable}); the card as a guide
     * crop, a JPEG at three times its size; and the card as a PNG.
     */
    static List<Photo> photos() {
        BufferedImage card = card();
        List<BufferedImage> nine = new ArrayList<>();
        Set<UUID> page = new HashSet<>();
        for (int k = 0; k < 9; k++) {
            nine.add(card(k));
            page.add(artwork(k));
        }
        return List.of(
                new Photo("a card on a table", encode(onTable(card), "jpg"), Set.of(ARTWORK)),
                new Photo("a card on a cloth, 12 MP", encode(onCloth(card(1)), "jpg"), Set.of(artwork(1))),
                new Photo("a binder page, 12 MP", encode(binderPage(nine), "jpg"), page),
                new Photo("a table with no card", encode(bareTable(), "jpg"), Set.of()),
                new Photo("a guide crop", encode(scaled(card, 3), "jpg"), Set.of(ARTWORK)),
                new Photo("a guide crop, PNG", encode(card, "png"), Set.of(ARTWORK)));
    }

    /**
     * The warm-up's index: {@value #ARTWORKS} artworks, those of {@link #card(int)} for k = 0 to
     * {@value #ARTWORKS} − 1, fingerprinted as an art build fingerprints them, so that the matcher keeps and drops
     * candidates as it does over a real index. Drawn once a process, for the passes and the requests over HTTP
     * ({@link MatchResource}'s warm-up path) alike.
     */
    static ArtMatcher index() {
        return WarmUpIndex.INDEX;
    }

    /** The warm-up's index, drawn when first asked for. */
    private static final class WarmUpIndex {
        static final ArtMatcher INDEX = drawIndex();
    }

    private static ArtMatcher drawIndex() {
        List<ArtIndexFile.Entry> entries = new ArrayList<>(ARTWORKS);
        for (int k = 0; k < ARTWORKS; k++) {
            entries.add(new ArtIndexFile.Entry(artwork(k),
                    ArtFingerprint.compute(rgb(card(k)), FingerprintSettings.FROZEN.zeroOffset())));
        }
        return ArtMatcher.of(FingerprintSettings.FROZEN.digest(), entries);
    }

    /** The id of the warm-up's artwork {@code k}: {@link #ARTWORK} for 0, the ids after it for the others. */
    static UUID artwork(int k) {
        return new UUID(ARTWORK.getMostSignificantBits(), ARTWORK.getLeastSignificantBits() + k);
    }

    /** The warm-up's first card, {@link #ARTWORK}'s: {@code card(0)}. */
    static BufferedImage card() {
        return card(0);
    }

    /**
     * The warm-up's card {@code k}, 146 × 204 as Scryfall's {@code small} image is: a black border, a frame, and an
     * artwork in it; card 0's a sky, a hill, a sun and a tree, so that its fingerprint has structure in every cell,
     * the others' a sky and a dozen shapes whose colours and places are drawn from {@code k}, as unlike one another
     * as the artworks of an index.
     */
    static BufferedImage card(int k) {
        BufferedImage card = new BufferedImage(146, 204, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = card.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(new Color(18, 18, 20));
        g.fillRect(0, 0, 146, 204);
        g.setColor(new Color(196, 180, 150));
        g.fillRoundRect(7, 7, 132, 190, 8, 8);
        if (k == 0) {
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
        } else {
            Random random = new Random(k);
            g.setPaint(new GradientPaint(0, 22, new Color(random.nextInt(0x1000000)), 0, 110,
                    new Color(random.nextInt(0x1000000))));
            g.fillRect(12, 22, 122, 90);
            g.setClip(12, 22, 122, 90);
            for (int shape = 0; shape < 12; shape++) {
                g.setColor(new Color(random.nextInt(0x1000000)));
                int x = 12 + random.nextInt(110);
                int y = 22 + random.nextInt(80);
                int w = 12 + random.nextInt(50);
                int h = 10 + random.nextInt(40);
                if (random.nextBoolean()) {
                    g.fillOval(x - w / 2, y - h / 2, w, h);
                } else {
                    g.fillRect(x - w / 2, y - h / 2, w, h);
                }
            }
            g.setClip(null);
        }
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
        Graphics2D g = drawing(photo, new GradientPaint(0, 0, new Color(205, 172, 128), 1600, 1200,
                new Color(150, 112, 76)));
        AffineTransform place = new AffineTransform();
        place.translate(800, 600);
        place.rotate(Math.toRadians(12));
        place.scale(2.2, 2.2);
        place.translate(-card.getWidth() / 2.0, -card.getHeight() / 2.0);
        g.drawImage(card, place, null);
        g.dispose();
        return photo;
    }

    /**
     * A 4,032 × 3,024 photo of {@code card} lying on a checked cloth, about 7 times its size (a tenth of the frame),
     * turned −23° and sheared as a tilted camera sees it, the light falling off to one corner.
     */
    static BufferedImage onCloth(BufferedImage card) {
        BufferedImage photo = new BufferedImage(4032, 3024, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = drawing(photo, new Color(214, 206, 190));
        g.setColor(new Color(168, 58, 52));
        for (int x = 0; x < 4032; x += 240) {
            g.fillRect(x, 0, 96, 3024);
        }
        g.setColor(new Color(150, 50, 46, 150));
        for (int y = 0; y < 3024; y += 240) {
            g.fillRect(0, y, 4032, 96);
        }
        g.setPaint(new GradientPaint(0, 0, new Color(0, 0, 0, 0), 4032, 3024, new Color(0, 0, 0, 90)));
        g.fillRect(0, 0, 4032, 3024);
        AffineTransform place = new AffineTransform();
        place.translate(2200, 1450);
        place.rotate(Math.toRadians(-23));
        place.shear(0.18, 0.05);
        place.scale(7, 6.2);
        place.translate(-card.getWidth() / 2.0, -card.getHeight() / 2.0);
        g.drawImage(card, place, null);
        g.dispose();
        return photo;
    }

    /**
     * A 3,024 × 4,032 photo of a binder page holding the nine {@code cards} in a 3 × 3 grid, each 5.5 times its
     * size, the page dark and turned 2°.
     */
    static BufferedImage binderPage(List<BufferedImage> cards) {
        BufferedImage photo = new BufferedImage(3024, 4032, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = drawing(photo, new Color(96, 88, 80));
        g.rotate(Math.toRadians(2), 1512, 2016);
        g.setColor(new Color(34, 34, 40));
        g.fillRect(140, 150, 2744, 3732);
        double scale = 5.5;
        double w = 146 * scale;
        double h = 204 * scale;
        for (int k = 0; k < cards.size(); k++) {
            AffineTransform place = new AffineTransform();
            place.translate(1512 + (k % 3 - 1) * (w + 70) - w / 2, 2016 + (k / 3 - 1) * (h + 70) - h / 2);
            place.scale(scale, scale);
            g.drawImage(cards.get(k), place, null);
        }
        g.dispose();
        return photo;
    }

    /** A 2,048 × 1,536 photo of a wooden table with no card on it: its grain, some knots, the light falling off. */
    static BufferedImage bareTable() {
        BufferedImage photo = new BufferedImage(2048, 1536, BufferedImage.TYPE_3BYTE_BGR);
        Graphics2D g = drawing(photo, new GradientPaint(0, 0, new Color(176, 128, 84), 2048, 1536,
                new Color(120, 82, 50)));
        Random random = new Random(7);
        g.setStroke(new BasicStroke(3));
        for (int k = 0; k < 90; k++) {
            g.setColor(new Color(90, 60, 36, 60 + random.nextInt(80)));
            int y = random.nextInt(1536);
            g.drawLine(0, y, 2048, y + random.nextInt(120) - 60);
        }
        g.setColor(new Color(84, 54, 30, 150));
        for (int k = 0; k < 6; k++) {
            g.fillOval(random.nextInt(1900), random.nextInt(1400), 60 + random.nextInt(60), 30 + random.nextInt(30));
        }
        g.dispose();
        return photo;
    }

    /** Graphics to draw on {@code photo}, smoothed (bilinear, antialiased), the photo filled with {@code ground}. */
    private static Graphics2D drawing(BufferedImage photo, Paint ground) {
        Graphics2D g = photo.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setPaint(ground);
        g.fillRect(0, 0, photo.getWidth(), photo.getHeight());
        return g;
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
