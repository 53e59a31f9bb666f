package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.ArtPicture;
import dev.cardcatalog.art.ArtPictures;
import dev.cardcatalog.art.FingerprintSettings;
import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.finder.FoundCard;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.finder.QuadFit;
import dev.cardcatalog.scan.finder.SideContrast;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Matches every card in a photo (SERVICE.md §5.10, §5.11): finds their outlines ({@link CardFinder}), warps each
 * upright ({@link CardWarp}), fingerprints it at the turns that could show it upright ({@link CaptureQueries}),
 * takes its nearest artworks ({@link ArtMatcher#nearest}) and their {@link MatchStatus}, and lists the cards in
 * reading order ({@link ReadingOrder}).
 *
 * <p>First, a photo of a card's shape is taken whole: when it is then confident of one artwork it is a guide crop
 * and is answered so, without a search ({@link #guideCrop}). Otherwise, what is tried for one card, all in one
 * {@code nearest} call so that its nearest <em>other</em> artwork is the
 * nearest over everything tried:
 * <ul>
 *   <li>each of its outlines ({@link FoundCard}: a sleeve or a pocket, its edge, the inside of its
 *       border), each as found, as the card inside a sleeve ({@value CardOutlines#SLEEVE_U} of the width and
 *       {@value CardOutlines#SLEEVE_V} of the height inside it on every side: 1.5 mm of 66 × 91 mm) and as the
 *       inside of a card's border (the card {@value CardOutlines#BORDER_U} and {@value CardOutlines#BORDER_V}
 *       beyond it: a Scryfall {@code small} image's 7-pixel frame), the largest first, at most
 *       {@value CardOutlines#MAX_TRIES} outlines ({@link CardOutlines});</li>
 *   <li>each at 0° and 180° (the finder cannot tell the top of a card from its bottom), and, when the outline is
 *       nearly square (its sides within {@value CaptureQueries#SHAPE_RATIO} of each other, a card tilted along its
 *       length), with its other pair of sides as the short ones too;</li>
 *   <li>when the card is not {@link MatchStatus#CONFIDENT} after all of them, the card its first outline would be
 *       the art box of, either end up ({@link #aroundArtBox}): a white border on a light surface, or glare, can hide
 *       a card's own edge while its art box's stay clear, and an art box taken as a card can be near unrelated
 *       art;</li>
 *   <li>for a photo in which no card is found, or whose largest card covers at least {@value #GUIDE_SHARE} of it,
 *       the whole photo as the card, exactly as before cards were found (a guide crop, §5.9: its turns by shape).</li>
 * </ul>
 * The outlines are tried in that order, each of the finder's outlines with its sleeve's and border's together
 * ({@link ArtMatcher#merged} joins the searches), and a card is looked at no further once it is
 * {@link MatchStatus#CONFIDENT} within {@value #SURE} bits: most cards are recognised by their first outline, and
 * the rest are looked at through all of them as before. The outline that gives the nearest
 * artwork is the card's; its corners are the answer's. When nothing is
 * recognised, or the photo holds a page of cards (a find that holds several others) that was not read whole
 * ({@link PageGrid}), the finer decode is searched
 * too and its cards are answered when it recognises more of them. A photo in which no
 * card is found is one card when, taken whole, it is near an artwork (not {@link MatchStatus#UNKNOWN}), and none
 * otherwise.
 *
 * <p>A card that is {@link MatchStatus#AMBIGUOUS} after all of that gets a second look ({@link SecondLook}): its art
 * box, as each near artwork's query saw it, is compared with the art build's picture of that artwork
 * ({@link ArtPicture}), leaving out what glare covers, and the card becomes {@link MatchStatus#CONFIDENT} of the one
 * artwork clearly alike, which is then answered first. The second look never makes a card less sure, and a card
 * that is {@link MatchStatus#UNKNOWN} gets none.
 *
 * <p>A card that no artwork is confident of is answered by the first of its outlines, its edge first, each of whose
 * sides is an edge of one sign all along ({@link SideContrast#oneSign} at least
 * {@value SideContrast#MIN_ONE_SIGN}); a find none of whose outlines is, is a piece of a checked or striped surface
 * outlined by the pattern's own edges, and is not answered.
 *
 * <p>Overlapping finds of one card are one entry: outlines of one card are grouped by the finder; of two cards one
 * of which lies inside the other (a card's art box is itself card-shaped), the one with the better status stays,
 * the outer one on a tie, so a find inside a card already confident is not matched at all. A find that holds two or
 * more others is a binder page, or a card whose art box and text box were found too: it is tried first, as a card,
 * and is a card when it is {@link MatchStatus#CONFIDENT} (its art box and text box then lie inside a confident card
 * and are not matched), and a page otherwise.
 *
 * <p>Cost, bounded: at most {@value #MAX_CARDS} cards (the largest) and {@value #MAX_CARDS} finds that hold others,
 * at most {@value CardOutlines#MAX_TRIES} outlines of each (and two more around its art box when it is not confident
 * and the queries' cap, {@value ArtMatcher#MAX_QUERIES} fingerprints, leaves room for them and the whole photo),
 * each warped to at most {@value #MAX_CARD_WIDTH} × {@value #MAX_CARD_HEIGHT} pixels; the upload's deadline is
 * checked before every card and every outline. The finer look runs for {@value #FINER_LOOKS} photo at a time on an
 * instance
 * ({@link #FINER_LOOKS}: its working images are the largest memory a match takes); a photo whose turn has not come
 * by its upload's deadline is answered from its first look. Thread-safe.
 */
public final class PhotoMatch {

    /**
     * The most cards matched in one photo (SERVICE.md §5.10: a 9-pocket binder page has nine; a collection laid
     * out in rows, up to 64); a photo with more answers the largest.
     */
    public static final int MAX_CARDS = 64;

    /** Nearest artworks answered per card. */
    public static final int MATCHES = 10;

    /** The shortest shorter-to-longer side ratio of a photo taken whole as a guide crop before it is searched. */
    static final double GUIDE_RATIO_MIN = 0.62;
    /** The longest such ratio. */
    static final double GUIDE_RATIO_MAX = 0.82;

    /** A card that covers at least this share of the photo may be the photo itself (a guide crop). */
    static final double GUIDE_SHARE = 0.5;

    static final int MAX_CARD_WIDTH = 2 * CardWarp.CARD_WIDTH;
    static final int MAX_CARD_HEIGHT = 2 * CardWarp.CARD_HEIGHT;

    /**
     * One of a card's nearest artworks.
     *
     * @param artworkId the artwork
     * @param distance  Hamming distance in bits, 0–1,024: the smallest over the card's query fingerprints
     * @param rotation  how far the photo, as displayed, is turned clockwise to show the card upright, to the nearest
     *                  quarter turn: 0, 90, 180 or 270 (for a guide crop, the turn it matched at, as before)
     */
    public record Item(UUID artworkId, int distance, int rotation) {
    }

    /**
     * A card found in the photo.
     *
     * @param corners  its corners in the photo's pixels as displayed, the card's top-left, top-right, bottom-right,
     *                 bottom-left as the card reads upright (the outline of its nearest artwork's match) when it is
     *                 {@link MatchStatus#CONFIDENT}; otherwise the outline most like a card's edge
     *                 ({@link FoundCard#edge}), starting at a corner of one of its short sides
     * @param status   how sure the match is ({@link MatchStatus#of(List)}, or {@link SecondLook}'s confident)
     * @param nearest  its nearest artworks, nearest first (for a card the second look made confident, the artwork
     *                 it chose first), at most {@value #MATCHES}
     */
    public record Found(Quad corners, MatchStatus status, List<Item> nearest) {
    }

    /**
     * Finer looks (the finer decode searched at {@code 2 × SEARCH_SIDE} pixels a side) that run at once on one
     * instance. A finer look's working images are some 80 bytes a searched pixel, about 64 MB for a 12 MP photo and
     * 85 MB for a square one, taken for the look and dropped after it; four at once ran the Deployment's 256 MB heap
     * out and were answered 500 (docs/benchmarks.md, "Why the match runs as it does"). The first looks keep their
     * working images between photos and run as many at once as the match's turns allow.
     */
    static final int FINER_LOOKS = 1;

    private final CardFinder finder = new CardFinder();
    private final Semaphore finerLooks;
    private final SecondLook secondLook;
    private final Consumer<EdgeVerdict> edgeVerdicts;

    /** A match whose finer looks take turns ({@link #FINER_LOOKS}), without a second look. */
    public PhotoMatch() {
        this(ArtPictures.NONE);
    }

    /** A match whose second look ({@link SecondLook}) reads the artworks' pictures from {@code pictures}. */
    public PhotoMatch(ArtPictures pictures) {
        this(new SecondLook(pictures));
    }

    /** A match taking {@code secondLook} (benchmarks watch its verdicts). */
    public PhotoMatch(SecondLook secondLook) {
        this(secondLook, verdict -> { });
    }

    /**
     * A match taking {@code secondLook} and telling {@code edgeVerdicts} every outline it tests for an edge all round
     * ({@link #edgedAllRound}; benchmarks watch them). Called on the matching thread.
     */
    public PhotoMatch(SecondLook secondLook, Consumer<EdgeVerdict> edgeVerdicts) {
        this(new Semaphore(FINER_LOOKS, true), secondLook, edgeVerdicts);
    }

    /** As {@link #PhotoMatch()}, the finer looks taking turns at {@code finerLooks}' permits (tests). */
    PhotoMatch(Semaphore finerLooks) {
        this(finerLooks, new SecondLook(ArtPictures.NONE), verdict -> { });
    }

    private PhotoMatch(Semaphore finerLooks, SecondLook secondLook, Consumer<EdgeVerdict> edgeVerdicts) {
        this.finerLooks = finerLooks;
        this.secondLook = secondLook;
        this.edgeVerdicts = edgeVerdicts;
    }

    /**
     * An outline of a card no artwork is confident of, tested for an edge of one sign along each side
     * ({@link SideContrast#oneSign}).
     *
     * @param outline the outline, in the photo's pixels
     * @param place   its place among its card's outlines as they are tested, 0 for the card's edge
     * @param oneSign its weakest side's one-sign contrast, 0–255 a channel
     * @param kept    whether the card is answered by it (the first of its outlines that passes)
     */
    public record EdgeVerdict(Quad outline, int place, double oneSign, boolean kept) {
    }

    /**
     * The cards of {@code photo} matched against {@code matcher}, in reading order.
     *
     * @return the cards found, empty when none is
     */
    public List<Found> match(UprightPhoto photo, ArtMatcher matcher, UploadDeadline deadline) {
        RgbImage image = photo.image();
        Found crop = guideCrop(photo, image, matcher, deadline);
        if (crop != null) {
            return List.of(crop);
        }
        List<FoundCard> finds = finder.find(image, CardFinder.SEARCH_SIDE, deadline);
        if (CardOutlines.collection(finds, image) && photo.hasFiner() && takeFinerLook(deadline)) {
            // many small cards, a few pixels apart at this scale: found again twice as fine before any is matched,
            // so that each card is matched once, at the scale whose outlines are truer
            try {
                deadline.check("finding the cards");
                RgbImage finer = photo.finer();
                if (finer != null) {
                    List<FoundCard> finerFinds = finder.find(finer, 2 * CardFinder.SEARCH_SIDE, deadline);
                    // the first look's count holds pieces that the finer one sees whole: most is enough
                    int first = CardOutlines.withoutContainers(finds).size();
                    if (CardOutlines.withoutContainers(finerFinds).size() >= FINER_SHARE * first) {
                        return ReadingOrder.sort(pass(photo, finer, finerFinds, () -> null, false, matcher,
                                deadline, new ArrayList<>()));
                    }
                }
            } finally {
                finerLooks.release();
            }
        }
        List<Quad> pages = new ArrayList<>();
        List<Found> cards = pass(photo, image, finds, photo::finer, true, matcher, deadline, pages);
        boolean pageLeft = pages.stream().anyMatch(page -> !PageGrid.readWhole(page, cards));
        if ((pageLeft || cards.stream().allMatch(c -> c.status() == MatchStatus.UNKNOWN)) && photo.hasFiner()
                && takeFinerLook(deadline)) {
            // Nothing recognised, or a page of cards (a find that holds several) not read whole: look again, twice as
            // fine. A small card on a busy surface, or a black-bordered card on a dark binder page, has edges that
            // the small decode blurs into its neighbours'.
            try {
                deadline.check("finding the cards");
                RgbImage finerImage = photo.finer();
                if (finerImage != null) {
                    List<Found> finer = pass(photo, finerImage,
                            finder.find(finerImage, 2 * CardFinder.SEARCH_SIDE, deadline), () -> null, false,
                            matcher, deadline, new ArrayList<>());
                    if (recognised(finer) > recognised(cards)) {
                        return ReadingOrder.sort(finer);
                    }
                }
            } finally {
                finerLooks.release();
            }
        }
        return ReadingOrder.sort(cards);
    }

    /**
     * Waits for a finer look's turn ({@link #FINER_LOOKS}) until the upload's deadline; false when another photo's
     * finer look holds it past then, and the photo is answered from its first look.
     */
    private boolean takeFinerLook(UploadDeadline deadline) {
        try {
            return finerLooks.tryAcquire(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * One look for the cards: {@code finds} (the finder's, in {@code search}, a decode of the photo) matched, each
     * warped from {@code search} or from {@code finer} when the card is small in it.
     *
     * @param whole whether the whole photo may be the card (a guide crop)
     * @param pages where the outlines of the finds that held several cards (pages) are added, in the photo's pixels
     */
    private List<Found> pass(UprightPhoto photo, RgbImage search, List<FoundCard> finds,
            Supplier<RgbImage> finer, boolean whole, ArtMatcher matcher, UploadDeadline deadline, List<Quad> pages) {
        double frameArea = (double) search.width() * search.height();
        double sx = (double) photo.width() / search.width();
        double sy = (double) photo.height() / search.height();
        List<FoundCard> all = new ArrayList<>(finds);
        all.sort(Comparator.comparingDouble((FoundCard c) -> c.outer().area()).reversed());
        List<FoundCard> found = CardOutlines.withoutContainers(all);
        List<MatchedCard> tried = new ArrayList<>();
        int containers = 0;
        for (FoundCard card : all) {
            if (found.contains(card) || insideConfident(card.outer(), tried)) {
                continue;
            }
            // a page of cards, or a card whose art box and text box were found too: a card if it is recognised
            MatchedCard container = null;
            if (containers++ < MAX_CARDS) {
                deadline.check("matching the cards");
                container = tryCard(search, finer, card, false, matcher, deadline);
            }
            if (container != null && container.status == MatchStatus.CONFIDENT) {
                tried.add(container);
            } else {
                pages.add(card.outer().scaled(sx, sy));
            }
        }
        if (found.size() > MAX_CARDS) {
            found = new ArrayList<>(found.subList(0, MAX_CARDS));
        }
        boolean guide = whole && (found.isEmpty() || found.get(0).outer().area() >= GUIDE_SHARE * frameArea);

        for (int k = 0; k < found.size(); k++) {
            deadline.check("matching the cards");
            FoundCard card = found.get(k);
            if (insideConfident(card.outer(), tried)) {
                continue; // withoutNested would drop it whatever its status: a confident card holds it
            }
            tried.add(tryCard(search, finer, card, guide && k == 0, matcher, deadline));
        }
        if (tried.isEmpty() && guide) {
            MatchedCard photoWhole = tryCard(search, finer, null, true, matcher, deadline);
            if (photoWhole.status != MatchStatus.UNKNOWN) {
                tried.add(photoWhole);
            }
        }
        List<Found> cards = new ArrayList<>();
        for (MatchedCard t : withoutNested(edgedAllRound(tried, search, sx, sy))) {
            cards.add(t.found(sx, sy));
        }
        return cards;
    }

    /**
     * The cards {@code tried} as they are answered: a card no artwork is confident of by the first of its outlines
     * (its {@link FoundCard#edgeFirst edge first}) each of whose sides is an edge of one sign
     * ({@link SideContrast#oneSign} at least {@value SideContrast#MIN_ONE_SIGN}), and not at all when none is: a find
     * outlined by a checked or striped surface's own edges is a piece of the pattern, and is not kept in place of a
     * card inside it either.
     */
    private List<MatchedCard> edgedAllRound(List<MatchedCard> tried, RgbImage search, double sx, double sy) {
        List<MatchedCard> kept = new ArrayList<>();
        for (MatchedCard t : tried) {
            if (t.status == MatchStatus.CONFIDENT || t.outlines.isEmpty()) {
                kept.add(t);
                continue;
            }
            for (int k = 0; k < t.outlines.size(); k++) {
                Quad outline = t.outlines.get(k);
                double oneSign = SideContrast.oneSign(search, outline);
                boolean edged = oneSign >= SideContrast.MIN_ONE_SIGN;
                edgeVerdicts.accept(new EdgeVerdict(outline.scaled(sx, sy), k, oneSign, edged));
                if (edged) {
                    kept.add(outline == t.edge ? t : t.answeredBy(outline));
                    break;
                }
            }
        }
        return kept;
    }

    /**
     * The photo taken whole as the card, when it has a card's shape (its shorter side {@value #GUIDE_RATIO_MIN} to
     * {@value #GUIDE_RATIO_MAX} of its longer; a card's is 63:88, 0.716) and is then {@link MatchStatus#CONFIDENT}
     * of one artwork: a scanner app's guide crop (§5.9), answered as before cards were found, its corners the
     * photo's, without searching it for cards. The search costs some 30 times the whole match, and a guide crop is
     * what most uploads are; a photo of a card lying on a table, or of a page, is not confident taken whole, so it
     * is searched. Null otherwise.
     */
    private Found guideCrop(UprightPhoto photo, RgbImage image, ArtMatcher matcher, UploadDeadline deadline) {
        double ratio = (double) Math.min(image.width(), image.height()) / Math.max(image.width(), image.height());
        if (ratio < GUIDE_RATIO_MIN || ratio > GUIDE_RATIO_MAX) {
            return null;
        }
        deadline.check("matching the cards");
        MatchedCard whole = tryCard(image, () -> null, null, true, matcher, deadline);
        if (whole.status != MatchStatus.CONFIDENT) {
            return null;
        }
        return whole.found((double) photo.width() / image.width(), (double) photo.height() / image.height());
    }

    /** The least share of a collection's first look's cards that its finer look must find to be taken. */
    static final double FINER_SHARE = 0.8;

    private static long recognised(List<Found> cards) {
        return cards.stream().filter(c -> c.status() != MatchStatus.UNKNOWN).count();
    }

    /**
     * One way of looking at a card: an outline in the small decode's coordinates, its queries, and the image it was
     * warped from ({@code scale} times the small decode's size; for a photo taken whole, that photo itself).
     */
    private record Attempt(Quad outline, CaptureQueries queries, RgbImage source, double scale, boolean whole) {

        /** The card image of this attempt, upright as its queries' turn 0, or null when it cannot be warped. */
        RgbImage card() {
            if (whole) {
                return source;
            }
            Quad inSource = outline.scaled(scale, scale);
            int width = warpWidth(inSource);
            return CardWarp.warp(source, inSource, width, warpHeight(width));
        }
    }

    /** A card after matching: its attempts, nearest artworks and status. */
    private static final class MatchedCard {
        final Quad outer;
        /** The card's outline by its shape ({@link FoundCard#edge}); null for a photo taken whole. */
        final Quad edge;
        /** The card's outlines, {@link #edge} first ({@link FoundCard#edgeFirst}); none for a photo taken whole. */
        final List<Quad> outlines;
        final List<Attempt> attempts;
        final int[] attemptOfQuery;
        final List<ArtMatcher.Match> nearest;
        final MatchStatus status;

        MatchedCard(Quad outer, List<Quad> outlines, Quad edge, List<Attempt> attempts, int[] attemptOfQuery,
                List<ArtMatcher.Match> nearest, MatchStatus status) {
            this.outlines = outlines;
            this.edge = edge;
            this.attempts = attempts;
            this.attemptOfQuery = attemptOfQuery;
            this.nearest = nearest;
            this.status = status;
            // a confident card reaches as far as the outline it was recognised through (a card around its art box)
            Quad matched = status == MatchStatus.CONFIDENT ? cornersOf(nearest.get(0).query()) : outer;
            this.outer = matched.area() > outer.area() ? matched : outer;
        }

        /** This card answered by {@code outline}, one of its {@link #outlines}, in place of its {@link #edge}. */
        MatchedCard answeredBy(Quad outline) {
            return new MatchedCard(outer, outlines, outline, attempts, attemptOfQuery, nearest, status);
        }

        int best() {
            return nearest.isEmpty() ? Integer.MAX_VALUE : nearest.get(0).distance();
        }

        /** The card's corners as it reads upright for query {@code query}, in the small decode's pixels. */
        Quad cornersOf(int query) {
            Attempt attempt = attempts.get(attemptOfQuery[query]);
            int first = queryInAttempt(attemptOfQuery, query);
            int turn = attempt.queries().turnOf(first);
            // turning the card image clockwise by `turn` puts the card upright: its top-left was corner -turn/90
            return attempt.outline().startingAt(4 - turn / 90);
        }

        Found found(double sx, double sy) {
            // an outline's fingerprint near no artwork says nothing of whether it frames the card: its shape does
            Quad corners = status == MatchStatus.CONFIDENT ? cornersOf(nearest.get(0).query())
                    : edge != null ? edge : outer;
            List<Item> items = new ArrayList<>();
            for (ArtMatcher.Match m : nearest) {
                items.add(new Item(m.artworkId(), m.distance(), rotation(cornersOf(m.query()))));
            }
            return new Found(corners.scaled(sx, sy), status, List.copyOf(items));
        }
    }

    /**
     * The quarter turn, clockwise, that shows a card with these corners upright: from the direction of its top
     * (the middle of its top side seen from the middle of its bottom side).
     */
    static int rotation(Quad corners) {
        double ux = (corners.x(0) + corners.x(1) - corners.x(2) - corners.x(3)) / 2;
        double uy = (corners.y(0) + corners.y(1) - corners.y(2) - corners.y(3)) / 2;
        double clockwise = Math.toDegrees(Math.atan2(ux, -uy)); // how far the card is turned clockwise
        int quarter = (int) Math.round(((360 - clockwise) % 360) / 90.0) % 4;
        return quarter * 90;
    }

    private MatchedCard tryCard(RgbImage image, Supplier<RgbImage> finer, FoundCard card, boolean whole,
            ArtMatcher matcher, UploadDeadline deadline) {
        CardSearch search = new CardSearch(matcher);
        if (card != null) {
            List<List<Quad>> outlines = CardOutlines.outlinesTriedByFind(card);
            RgbImage source = image;
            double scale = 1;
            RgbImage larger = CardOutlines.shortSide(card.outer()) < CardWarp.CARD_WIDTH ? finer.get() : null;
            if (larger != null) {
                source = larger;
                scale = (double) source.width() / image.width();
            }
            for (List<Quad> variants : outlines) {
                List<Attempt> batch = new ArrayList<>();
                for (Quad outline : variants) {
                    deadline.check("matching the cards");
                    addWarped(batch, source, outline, scale);
                    double even = outline.side(0) + outline.side(2);
                    double odd = outline.side(1) + outline.side(3);
                    if (odd < CaptureQueries.SHAPE_RATIO * even) {
                        addWarped(batch, source, outline.startingAt(1), scale);
                    }
                }
                search.add(batch);
                if (search.sure()) {
                    break;
                }
            }
            int wholeQueries = whole ? CaptureQueries.COUNT : 0;
            if (!search.confident() && search.queries + ART_BOX_QUERIES + wholeQueries <= ArtMatcher.MAX_QUERIES) {
                // not confident: the outline may be the card's art box, the card's own edge unseen
                List<Attempt> batch = new ArrayList<>();
                for (Quad outline : CardOutlines.aroundArtBox(card.outlines().get(0))) {
                    deadline.check("matching the cards");
                    addWarped(batch, source, outline, scale);
                }
                search.add(batch);
            }
        }
        if (whole && !search.sure()) {
            deadline.check("matching the cards");
            search.add(List.of(new Attempt(Quad.frame(image.width(), image.height()), CaptureQueries.of(image), image,
                    1, true)));
        }
        Quad outer = card != null ? card.outer() : Quad.frame(image.width(), image.height());
        int[] attemptOfQuery = search.attemptOfQuery();
        List<ArtMatcher.Match> nearest = search.nearest;
        MatchStatus status = MatchStatus.of(nearest);
        if (status == MatchStatus.AMBIGUOUS) {
            deadline.check("matching the cards");
            Map<Integer, RgbImage> uprightCards = new HashMap<>();
            SecondLook.Verdict verdict = secondLook.judge(nearest,
                    q -> picture(search.attempts, attemptOfQuery, q, uprightCards));
            if (verdict != null && verdict.chosen() >= 0) {
                ArtMatcher.Match chosen = verdict.candidates().get(verdict.chosen());
                List<ArtMatcher.Match> reordered = new ArrayList<>(nearest.size());
                reordered.add(chosen);
                nearest.stream().filter(m -> m != chosen).forEach(reordered::add);
                nearest = List.copyOf(reordered);
                status = MatchStatus.CONFIDENT;
            }
        }
        List<Quad> outlines = card != null ? card.edgeFirst() : List.of();
        return new MatchedCard(outer, outlines, outlines.isEmpty() ? null : outlines.get(0), search.attempts,
                attemptOfQuery, nearest, status);
    }

    /**
     * The card's art box picture ({@link ArtPicture}) as query fingerprint {@code query} saw it: its attempt's card
     * image, turned by the query's turn, at the query's offset; null when the outline cannot be warped. The turned
     * card images are kept in {@code uprightCards} (by attempt and turn) for the card's other queries.
     */
    private static byte[] picture(List<Attempt> attempts, int[] attemptOfQuery, int query,
            Map<Integer, RgbImage> uprightCards) {
        int a = attemptOfQuery[query];
        int first = queryInAttempt(attemptOfQuery, query);
        Attempt attempt = attempts.get(a);
        int turn = attempt.queries().turnOf(first);
        RgbImage upright = uprightCards.computeIfAbsent(a * 4 + turn / 90, key -> {
            RgbImage card = attempt.card();
            return card == null ? null : CaptureQueries.turned(card, turn);
        });
        return upright == null ? null
                : ArtPicture.of(upright, FingerprintSettings.FROZEN.offsets().get(first % CaptureQueries.PER_TURN));
    }

    /**
     * The distance within which a card's nearest artwork, {@link MatchStatus#CONFIDENT} already, ends the look at its
     * outlines: the rest are not warped. Over 50,000 artworks, in two runs of 9,745 cards of which 4,000 of art not
     * in the index, no card whose nearest artwork was within 200 bits and at least 60 bits nearer than any other was
     * wrong (docs/benchmarks.md, "How the status rule was chosen"); a card that stops here is held to
     * {@link MatchStatus#MARGIN} besides. One further from every artwork is looked at through all its outlines.
     */
    static final int SURE = 200;

    /**
     * A card's search, a few outlines at a time: its attempts so far, their query fingerprints in order, and the
     * nearest artworks over all of them ({@link ArtMatcher#merged}: what one search over every query gives).
     */
    private static final class CardSearch {
        final ArtMatcher matcher;
        final List<Attempt> attempts = new ArrayList<>();
        int queries;
        List<ArtMatcher.Match> nearest = List.of();

        CardSearch(ArtMatcher matcher) {
            this.matcher = matcher;
        }

        void add(List<Attempt> batch) {
            int count = batch.stream().mapToInt(a -> a.queries().fingerprints().length).sum();
            if (count == 0) {
                return;
            }
            if (queries + count > ArtMatcher.MAX_QUERIES) {
                throw new IllegalStateException("too many queries for one card: " + (queries + count));
            }
            byte[][] fingerprints = new byte[count][];
            int q = 0;
            for (Attempt attempt : batch) {
                for (byte[] fingerprint : attempt.queries().fingerprints()) {
                    fingerprints[q++] = fingerprint;
                }
            }
            List<ArtMatcher.Match> found = matcher.nearest(fingerprints, MATCHES);
            nearest = queries == 0 ? found : ArtMatcher.merged(nearest, found, queries, MATCHES);
            attempts.addAll(batch);
            queries += count;
        }

        /** Whether the card is confident of an artwork within {@link #SURE} bits: no other outline is needed. */
        boolean sure() {
            return !nearest.isEmpty() && nearest.get(0).distance() <= SURE
                    && MatchStatus.of(nearest) == MatchStatus.CONFIDENT;
        }

        /** Whether the card is {@link MatchStatus#CONFIDENT} of an artwork yet. */
        boolean confident() {
            return MatchStatus.of(nearest) == MatchStatus.CONFIDENT;
        }

        /** For each query fingerprint, in order, the attempt it belongs to. */
        int[] attemptOfQuery() {
            int[] attemptOf = new int[queries];
            int q = 0;
            for (int a = 0; a < attempts.size(); a++) {
                for (int k = 0; k < attempts.get(a).queries().fingerprints().length; k++) {
                    attemptOf[q++] = a;
                }
            }
            return attemptOf;
        }
    }

    /** Which of its attempt's query fingerprints (0 for the attempt's first) query {@code query} is. */
    private static int queryInAttempt(int[] attemptOfQuery, int query) {
        int first = 0;
        for (int q = query; q > 0 && attemptOfQuery[q - 1] == attemptOfQuery[query]; q--) {
            first++;
        }
        return first;
    }

    /** The query fingerprints of the two cards around an art box: each at 0° and 180°. */
    static final int ART_BOX_QUERIES = 2 * 2 * CaptureQueries.PER_TURN;

    /** Warps {@code outline} (small-decode coordinates) from {@code source} ({@code scale} times as large). */
    private static void addWarped(List<Attempt> attempts, RgbImage source, Quad outline, double scale) {
        Quad inSource = outline.scaled(scale, scale);
        int width = warpWidth(inSource);
        int height = warpHeight(width);
        RgbImage card = CardWarp.warp(source, inSource, width, height, CaptureQueries.halfTurnRegion(width, height));
        if (card != null) {
            attempts.add(new Attempt(outline, CaptureQueries.of(card, List.of(0, 180)), source, scale, false));
        }
    }

    /** The width a card with this outline (in its source's pixels) is warped to: its own, within bounds. */
    private static int warpWidth(Quad inSource) {
        return (int) Math.round(Math.max(CardWarp.CARD_WIDTH, Math.min(MAX_CARD_WIDTH,
                (inSource.side(0) + inSource.side(2)) / 2)));
    }

    private static int warpHeight(int width) {
        return (int) Math.round(width * (double) CardWarp.CARD_HEIGHT / CardWarp.CARD_WIDTH);
    }

    /**
     * Whether a card already matched {@link MatchStatus#CONFIDENT}, at least as large as {@code outer}, holds its
     * centre: {@link #withoutNested} keeps that card and drops this one whatever this one's status would be (no
     * status is better than confident), so it is not matched at all. A card's art box is card-shaped too.
     */
    private static boolean insideConfident(Quad outer, List<MatchedCard> tried) {
        return tried.stream().anyMatch(t -> t.status == MatchStatus.CONFIDENT && t.outer.area() >= outer.area()
                && t.outer.contains(outer.centreX(), outer.centreY()));
    }

    /** Of two cards one of which holds the other's centre, the better status stays; the outer one on a tie. */
    private static List<MatchedCard> withoutNested(List<MatchedCard> tried) {
        List<MatchedCard> kept = new ArrayList<>(tried);
        for (MatchedCard a : tried) {
            for (MatchedCard b : tried) {
                if (a != b && kept.contains(a) && kept.contains(b) && a.outer.area() >= b.outer.area()
                        && a.outer.contains(b.outer.centreX(), b.outer.centreY())) {
                    kept.remove(b.status.compareTo(a.status) < 0 ? a : b);
                }
            }
        }
        return kept;
    }
}
