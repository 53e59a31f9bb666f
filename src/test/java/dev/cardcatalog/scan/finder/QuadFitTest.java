package dev.cardcatalog.scan.finder;

import static org.assertj.core.api.Assertions.assertThat;

import georegression.struct.shapes.Polygon2D_F64;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** What is worth fitting: {@link QuadFit#mayHoldCard} never turns away a hull a card-shaped quadrilateral could be. */
class QuadFitTest {

    private static Polygon2D_F64 polygon(Quad quad) {
        Polygon2D_F64 polygon = new Polygon2D_F64(4);
        for (int k = 0; k < 4; k++) {
            polygon.get(k).setTo(quad.x(k), quad.y(k));
        }
        return polygon;
    }

    @Test
    void everyCardShapedQuadrilateralMayHoldACard() {
        double minArea = 1000;
        // a card upright (63 : 88), turned 30°, in perspective (its far side 0.6 of its near one), and the most
        // elongated shapes cardShaped allows: a parallelogram of sides nearly 2 : 1 at 35.5°
        Quad upright = Quad.of(0, 0, 63, 0, 63, 88, 0, 88);
        Quad turned = Quad.of(44, 0, 98.56, 31.5, 54.56, 107.71, 0, 76.21);
        Quad perspective = Quad.of(20, 0, 80, 0, 100, 60, 0, 60);
        double shear = Math.toRadians(35.5);
        Quad parallelogram = Quad.of(0, 0, 100, 0, 100 + 51 * Math.cos(shear), 51 * Math.sin(shear),
                51 * Math.cos(shear), 51 * Math.sin(shear));
        for (Quad quad : new Quad[] {upright, turned, perspective, parallelogram}) {
            assertThat(QuadFit.cardShaped(quad, minArea)).as("%s card-shaped", quad).isTrue();
            assertThat(QuadFit.mayHoldCard(polygon(quad), minArea)).as("%s may hold a card", quad).isTrue();
            assertThat(QuadFit.mayHoldCard(polygon(quad.reversed()), minArea)).as("%s reversed", quad).isTrue();
        }

        // random quadrilaterals: each card-shaped one (of its area or more) may hold a card
        SplittableRandom random = new SplittableRandom(54);
        int shaped = 0;
        for (int i = 0; i < 200_000; i++) {
            double[] xy = new double[8];
            for (int k = 0; k < 8; k++) {
                xy[k] = random.nextDouble(0, 100);
            }
            Quad quad = new Quad(xy);
            if (QuadFit.cardShaped(quad, minArea)) {
                shaped++;
                assertThat(QuadFit.mayHoldCard(polygon(quad), minArea)).as("%s may hold a card", quad).isTrue();
            }
        }
        assertThat(shaped).as("card-shaped quadrilaterals drawn").isGreaterThan(2_000);
    }

    @Test
    void aHullTooSmallOrTooLongForACardIsNotFitted() {
        double minArea = 1000;
        // a strip six times as long as wide, upright and turned: no card is so long
        Quad strip = Quad.of(0, 0, 180, 0, 180, 30, 0, 30);
        Quad turnedStrip = Quad.of(15, 0, 170.88, 90, 155.88, 115.98, 0, 25.98);
        assertThat(QuadFit.mayHoldCard(polygon(strip), minArea)).isFalse();
        assertThat(QuadFit.mayHoldCard(polygon(turnedStrip), minArea)).isFalse();
        // a rectangle four and a half times as long is no card, but a card-shaped parallelogram's box can be as long
        assertThat(QuadFit.mayHoldCard(polygon(Quad.of(0, 0, 135, 0, 135, 30, 0, 30)), minArea)).isTrue();
        // a card's shape, but 0.8 of the least area: no quadrilateral that lies about on it is a card
        double side = Math.sqrt(0.8 * minArea / 1.4);
        Quad small = Quad.of(0, 0, side, 0, side, 1.4 * side, 0, 1.4 * side);
        assertThat(QuadFit.mayHoldCard(polygon(small), minArea)).isFalse();
        Quad enough = small.scaled(Math.sqrt(0.9 / 0.8), Math.sqrt(0.9 / 0.8));
        assertThat(QuadFit.mayHoldCard(polygon(enough), minArea)).isTrue();
    }
}
