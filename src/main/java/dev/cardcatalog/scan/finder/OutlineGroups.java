package dev.cardcatalog.scan.finder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The outlines of one photo grouped into cards: a card gives several nested outlines (a sleeve or a pocket around
 * it, its own edge, the inside of its border), kept together as the outlines of one {@link FoundCard}.
 */
final class OutlineGroups {

    private OutlineGroups() {
    }

    /**
     * Outlines of one card into one entry: an outline joins the largest outline whose area is at most
     * 1 / {@value #NESTED_AREA} times its own and that holds its centre, and whose centre it holds. Within an entry
     * the outlines keep the order they are given in (the most often found first), at most {@value #MAX_PER_CARD}.
     */
    static List<FoundCard> group(List<Quad> outlines) {
        List<Integer> byArea = new ArrayList<>();
        for (int k = 0; k < outlines.size(); k++) {
            byArea.add(k);
        }
        byArea.sort(Comparator.comparingDouble((Integer k) -> outlines.get(k).area()).reversed());
        List<List<Integer>> groups = new ArrayList<>();
        for (int k : byArea) {
            Quad quad = outlines.get(k);
            List<Integer> home = null;
            for (List<Integer> group : groups) {
                Quad outer = outlines.get(group.get(0));
                if (quad.area() >= NESTED_AREA * outer.area() && outer.contains(quad.centreX(), quad.centreY())
                        && quad.contains(outer.centreX(), outer.centreY())) {
                    home = group;
                    break;
                }
            }
            if (home == null) {
                groups.add(new ArrayList<>(List.of(k)));
            } else if (home.stream().noneMatch(q -> outlines.get(q).cornerDistance(quad) < 1.0)) {
                home.add(k);
            }
        }
        List<FoundCard> cards = new ArrayList<>();
        for (List<Integer> group : groups) {
            List<Integer> inOrder = new ArrayList<>(group);
            inOrder.sort(null);
            cards.add(new FoundCard(inOrder.subList(0, Math.min(MAX_PER_CARD, inOrder.size())).stream()
                    .map(outlines::get).toList()));
        }
        return cards;
    }

    /** The most outlines kept of one card (each tried by the match three ways). */
    static final int MAX_PER_CARD = 4;

    /** How much smaller than a card's largest outline another of its outlines may be (sleeve 66 × 91 mm over
     * the inside of a card's border). */
    static final double NESTED_AREA = 0.6;
}
