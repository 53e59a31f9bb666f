package dev.cardcatalog.scan;

import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.scan.finder.CardFinder;
import dev.cardcatalog.scan.finder.FoundCard;
import dev.cardcatalog.scan.finder.Quad;
import dev.cardcatalog.scan.finder.QuadFit;
import java.util.ArrayList;
import java.util.List;

/**
 * Which outlines of the finder's are tried as a card, and which finds are cards (SERVICE.md §5.10): each outline as
 * found, as the card inside a sleeve and as the inside of a card's border; the card around an art box; a find that
 * holds others is a page unless they are the card's own parts; a photo of many small cards is a collection, looked at
 * twice as fine. Geometry only: {@link PhotoMatch} matches what these give. Coordinates are those of the finds.
 */
public final class CardOutlines {

    private CardOutlines() {
    }

    /** The most outlines tried per card (each at two or four turns of six offsets). */
    static final int MAX_TRIES = 9;

    /** A sleeve's margin round its card, as a share of the sleeve's width: 1.5 mm of 66 mm. */
    static final double SLEEVE_U = 1.5 / 66;
    /** The same of its height: 1.5 mm of 91 mm. */
    static final double SLEEVE_V = 1.5 / 91;
    /** A {@code small} image's 7-pixel frame beyond the inside of its border, as a share of that inside's width. */
    static final double BORDER_U = 7.0 / 132;
    /** The same of its height: 7 pixels of 190. */
    static final double BORDER_V = 7.0 / 190;

    /**
     * Whether {@code finds} (in {@code image}, searched at {@link CardFinder#SEARCH_SIDE}) are a collection laid out
     * in rows: at least {@value #COLLECTION_CARDS} cards whose median shorter side is under {@value #SMALL_SIDE}
     * searched pixels. Their edges, a few pixels apart at that scale, are found truer twice as fine: in a photo of
     * 40 real cards in a grid the outlines found at the first look overlap the true ones by 0.74–0.96, at the finer
     * one by 0.85 or more for 39 of 40 (docs/benchmarks.md, "Real photos").
     */
    static boolean collection(List<FoundCard> finds, RgbImage image) {
        if (finds.size() < COLLECTION_CARDS) {
            return false;
        }
        int longer = Math.max(image.width(), image.height());
        double factor = Math.max(1, (longer + CardFinder.SEARCH_SIDE - 1) / CardFinder.SEARCH_SIDE);
        double[] sides = finds.stream().mapToDouble(c -> shortSide(c.outer())).sorted().toArray();
        return sides[sides.length / 2] / factor < SMALL_SIDE;
    }

    /** The fewest cards found that make a photo a {@link #collection}. */
    static final int COLLECTION_CARDS = 10;

    /** A collection's cards' median shorter side is under this many searched pixels. */
    static final double SMALL_SIDE = 64;

    /**
     * The outlines tried for {@code card}, in the order tried: each of its outlines as found, as the card inside a
     * sleeve and as the inside of a card's border, leaving out one whose corners are within 1 % of its shorter side
     * of one already tried; at most {@value #MAX_TRIES}. Coordinates as the card's.
     */
    public static List<Quad> outlinesTried(FoundCard card) {
        return outlinesTriedByFind(card).stream().flatMap(List::stream).toList();
    }

    /**
     * {@link #outlinesTried}, grouped by the outline of the finder's that each comes from (as found, as a sleeve's,
     * as the inside of a border): a group is searched together, so the best of the three gives the card's corners
     * when the look stops after it. Groups left empty by the rule are left out.
     */
    static List<List<Quad>> outlinesTriedByFind(FoundCard card) {
        List<List<Quad>> groups = new ArrayList<>();
        List<Quad> tried = new ArrayList<>();
        for (Quad outline : card.outlines()) {
            List<Quad> group = new ArrayList<>(3);
            for (Quad variant : List.of(outline, outline.grown(-SLEEVE_U, -SLEEVE_V),
                    outline.grown(BORDER_U, BORDER_V))) {
                if (tried.size() < MAX_TRIES
                        && tried.stream().noneMatch(q -> q.cornerDistance(variant) < 0.01 * shortSide(q))) {
                    tried.add(variant);
                    group.add(variant);
                }
            }
            if (!group.isEmpty()) {
                groups.add(group);
            }
        }
        return groups;
    }

    /**
     * How far a card reaches beyond its art box, in art-box widths at either side and art-box heights above and
     * below: a Scryfall {@code small} image (146 × 204) has its art box at x 11–135, y 25–113.
     */
    static final double ART_SIDE = 11.0 / 124;
    static final double ART_TOP = 25.0 / 88;
    static final double ART_BOTTOM = 91.0 / 88;

    /**
     * The card whose art box {@code art} would be, either end up: a white-bordered card on a light surface, or one
     * under glare, can show no edge of its own while its art box's edges are clear. The art box is wider than tall,
     * so the card's height runs along the outline's short sides.
     *
     * @param art an outline as the finder gives it ({@link CardFinder#upright}: side 0 a short side)
     * @return two outlines, the card below and above its art box, each as the finder gives outlines; their corners
     *         carry the art box's error about twice over
     */
    static List<Quad> aroundArtBox(Quad art) {
        List<Quad> cards = new ArrayList<>(2);
        for (boolean topAtStart : new boolean[] {true, false}) {
            double top = topAtStart ? -ART_TOP : 1 + ART_TOP;
            double bottom = topAtStart ? 1 + ART_BOTTOM : -ART_BOTTOM;
            double[] a = art.at(top, -ART_SIDE);
            double[] b = art.at(top, 1 + ART_SIDE);
            double[] c = art.at(bottom, 1 + ART_SIDE);
            double[] d = art.at(bottom, -ART_SIDE);
            cards.add(QuadFit.upright(Quad.of(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])));
        }
        return cards;
    }

    static double shortSide(Quad q) {
        return Math.min(q.side(0) + q.side(2), q.side(1) + q.side(3)) / 2;
    }

    /**
     * The finds that are not containers: a find whose outline holds the centres of two or more others that are not
     * inside each other (a binder page, a box of cards, or a card whose art box and text box were found) is a card
     * only if it is recognised as one ({@link #pass}).
     */
    static List<FoundCard> withoutContainers(List<FoundCard> found) {
        List<FoundCard> kept = new ArrayList<>();
        for (FoundCard card : found) {
            List<FoundCard> inside = found.stream().filter(o -> o != card && o.outer().area() < card
                    .outer().area() && card.outer().contains(o.outer().centreX(), o.outer().centreY())).toList();
            List<FoundCard> outermost = inside.stream().filter(o -> inside.stream().noneMatch(p -> p != o
                    && p.outer().area() > o.outer().area() && p.outer().contains(o.outer().centreX(),
                    o.outer().centreY()))).toList();
            if (outermost.size() < 2 || outermost.size() <= MAX_CARD_PARTS
                    && outermost.stream().allMatch(o -> inset(card.outer(), o.outer()) >= PART_INSET)) {
                kept.add(card);
            }
        }
        return kept;
    }

    /**
     * The most finds inside a card's outline that may be parts of the card (its art box, its text box, the type
     * line between them) rather than cards of a page.
     */
    static final int MAX_CARD_PARTS = 3;

    /**
     * How far, as a share of a find's shorter side, every find inside it must stay from its sides for them to be the
     * card's parts: a card's art box and text box sit inside its border (11 of a {@code small} image's 146 pixels at
     * either side), while the cards of a page, or two cards side by side that one outline took in together, reach the
     * outline that holds them.
     */
    static final double PART_INSET = 0.04;

    /**
     * How far {@code inner}'s corners stay inside {@code outer}'s sides, as a share of {@code outer}'s shorter side:
     * the least distance from one of them to the line of one of {@code outer}'s sides (negative when one is outside).
     */
    static double inset(Quad outer, Quad inner) {
        double least = Double.MAX_VALUE;
        boolean clockwise = outer.clockwise();
        for (int s = 0; s < 4; s++) {
            double ax = outer.x(s);
            double ay = outer.y(s);
            double dx = outer.x(s + 1) - ax;
            double dy = outer.y(s + 1) - ay;
            double length = Math.hypot(dx, dy);
            for (int c = 0; c < 4; c++) {
                double cross = (dx * (inner.y(c) - ay) - dy * (inner.x(c) - ax)) / length;
                least = Math.min(least, clockwise ? cross : -cross);
            }
        }
        return least / shortSide(outer);
    }
}
