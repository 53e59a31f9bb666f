package dev.cardcatalog.scan;

import dev.cardcatalog.scan.finder.Quad;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The order in which the cards of a photo are answered (SERVICE.md §5.10): reading order, rows from the top of the
 * photo as displayed to its bottom, each row from left to right.
 *
 * <p>Cards are taken by the height of their centre; a card starts a new row when its centre is more than half the
 * median card height below the centre of the row's first card, so a row of cards photographed a little askew (a
 * binder page turned by up to about 15°) stays one row. Within a row, cards go by the x of their centre.
 */
public final class ReadingOrder {

    private ReadingOrder() {
    }

    /** {@code cards} in reading order; a new list. */
    public static List<PhotoMatch.Found> sort(List<PhotoMatch.Found> cards) {
        if (cards.size() < 2) {
            return List.copyOf(cards);
        }
        double[] heights = cards.stream().mapToDouble(c -> height(c.corners())).sorted().toArray();
        double median = heights[heights.length / 2];
        List<PhotoMatch.Found> byY = new ArrayList<>(cards);
        byY.sort(Comparator.comparingDouble(c -> c.corners().centreY()));
        List<PhotoMatch.Found> ordered = new ArrayList<>();
        List<PhotoMatch.Found> row = new ArrayList<>();
        double rowY = Double.NaN;
        for (PhotoMatch.Found card : byY) {
            double y = card.corners().centreY();
            if (!row.isEmpty() && y - rowY > median / 2) {
                row.sort(Comparator.comparingDouble(c -> c.corners().centreX()));
                ordered.addAll(row);
                row.clear();
            }
            if (row.isEmpty()) {
                rowY = y;
            }
            row.add(card);
        }
        row.sort(Comparator.comparingDouble(c -> c.corners().centreX()));
        ordered.addAll(row);
        return List.copyOf(ordered);
    }

    /** How tall a card is in the photo: the height of its outline's bounding box. */
    private static double height(Quad q) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int k = 0; k < 4; k++) {
            min = Math.min(min, q.y(k));
            max = Math.max(max, q.y(k));
        }
        return max - min;
    }
}
