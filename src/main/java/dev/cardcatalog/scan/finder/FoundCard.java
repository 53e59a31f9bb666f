package dev.cardcatalog.scan.finder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One card found: its outlines, the most often found first (found by more of the binarizations), each a quad in
 * the searched image's pixel-edge coordinates scaled back to those of the image given to {@link CardFinder#find},
 * starting at the corner that is top-left when the card is upright or upside down (corner 0 to 1 is one of its short
 * sides, {@link QuadFit#upright}); at most {@value OutlineGroups#MAX_PER_CARD}. A card gives several nested outlines
 * (a sleeve or a pocket around it, its own edge, the inside of its border); which one frames the card is decided by
 * matching.
 */
public record FoundCard(List<Quad> outlines) {


    /**
     * The outline that is most likely the card's own edge, answered for a card that no artwork is confident of
     * (which outline frames the card is then not decided by matching): the largest of its outlines whose
     * {@link Quad#skew() skew} is within {@value #EDGE_SKEW_SLACK}° of the least skewed one. The largest, since
     * a card's other outlines are inside its edge (the inside of its border, its art box); not a skewed one, since
     * an outline that took in part of a neighbour or of the surface is larger than the card and no rectangle.
     */
    public Quad edge() {
        double least = outlines.stream().mapToDouble(Quad::skew).min().orElse(0);
        Quad best = null;
        for (Quad q : outlines) {
            if (q.skew() <= least + EDGE_SKEW_SLACK && (best == null || q.area() > best.area())) {
                best = q;
            }
        }
        return best;
    }

    /** The outlines, {@link #edge} first, then the others, the largest first. */
    public List<Quad> edgeFirst() {
        Quad edge = edge();
        List<Quad> others = new ArrayList<>(outlines);
        others.remove(edge);
        others.sort(Comparator.comparingDouble(Quad::area).reversed());
        others.add(0, edge);
        return others;
    }

    /** The largest outline. */
    public Quad outer() {
        Quad largest = outlines.get(0);
        for (Quad q : outlines) {
            if (q.area() > largest.area()) {
                largest = q;
            }
        }
        return largest;
    }

    /** Degrees of {@link Quad#skew() skew} beyond the least skewed of a card's outlines that {@link #edge} allows. */
    static final double EDGE_SKEW_SLACK = 6;
}
