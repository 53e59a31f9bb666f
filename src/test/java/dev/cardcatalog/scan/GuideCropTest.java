package dev.cardcatalog.scan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.scan.finder.Quad;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * {@link PhotoMatch}'s guide crops: a photo of a card's shape that is confident taken whole is answered whole, its
 * corners the photo's, as before cards were found; any other photo is searched for cards.
 */
class GuideCropTest {

    private static final UploadDecoder DECODER = MatchResource.uploadDecoder();
    private static final BufferedImage CARD = MatchWarmUp.card();
    private static final ArtMatcher MATCHER = MatchWarmUp.index();

    private static List<PhotoMatch.Found> match(BufferedImage photo) throws Exception {
        return new PhotoMatch().match(UprightPhoto.decode(MatchWarmUp.encode(photo, "jpg"), DECODER,
                UploadDeadline.none()), MATCHER, UploadDeadline.none());
    }

    @Test
    void aGuideCropIsAnsweredWholeWithThePhotosCornersAtEverySize() throws Exception {
        for (int factor : List.of(1, 3, 7)) {
            BufferedImage crop = MatchWarmUp.scaled(CARD, factor);
            List<PhotoMatch.Found> found = match(crop);
            assertThat(found).as("%dx", factor).hasSize(1);
            assertThat(found.get(0).status()).as("%dx", factor).isEqualTo(MatchStatus.CONFIDENT);
            assertThat(found.get(0).nearest().get(0).rotation()).isZero();
            assertCorners(found.get(0).corners(), 0, 0, crop.getWidth(), 0, crop.getWidth(), crop.getHeight(), 0,
                    crop.getHeight());
        }
    }

    @Test
    void aGuideCropLyingTurnedIsAnsweredWholeStartingAtItsTopLeft() throws Exception {
        BufferedImage crop = MatchWarmUp.scaled(CARD, 3);
        // turned a quarter counter-clockwise: the card's top-left is the photo's bottom-left
        BufferedImage turned = new BufferedImage(crop.getHeight(), crop.getWidth(), BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < crop.getHeight(); y++) {
            for (int x = 0; x < crop.getWidth(); x++) {
                turned.setRGB(y, crop.getWidth() - 1 - x, crop.getRGB(x, y));
            }
        }
        List<PhotoMatch.Found> found = match(turned);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).status()).isEqualTo(MatchStatus.CONFIDENT);
        assertThat(found.get(0).nearest().get(0).rotation()).isEqualTo(90);
        int w = turned.getWidth();
        int h = turned.getHeight();
        assertCorners(found.get(0).corners(), 0, h, 0, 0, w, 0, w, h);
    }

    @Test
    void aPhotoOfACardsShapeThatIsNotConfidentWholeIsSearched() throws Exception {
        // a 3:4 photo (in the guide crops' shapes) of the card lying small on a table: taken whole it is far from
        // the card, so it is searched and the card found inside it
        BufferedImage table = MatchWarmUp.onTable(CARD).getSubimage(350, 0, 900, 1200);
        BufferedImage photo = new BufferedImage(table.getWidth(), table.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = photo.createGraphics();
        g.drawImage(table, 0, 0, null);
        g.dispose();
        List<PhotoMatch.Found> found = match(photo);
        assertThat(found).hasSize(1);
        assertThat(found.get(0).status()).isEqualTo(MatchStatus.CONFIDENT);
        Quad corners = found.get(0).corners();
        for (int k = 0; k < 4; k++) {
            // the card drawn 2.2 times as large about (450, 600) of this crop: its corners 240-300 px from there
            assertThat(Math.hypot(corners.x(k) - 450, corners.y(k) - 600)).as("corner %d", k).isBetween(240.0, 300.0);
        }
    }

    @Test
    void aLargeSquareOfNestedFramesIsLookedAtWithinTheQueriesCap() throws Exception {
        // nearly square outlines are tried both ways round (four turns), nested ones give a card its most outlines,
        // nothing in the index is near (so the look goes on to the art box), and it covers over half of a square
        // photo (so the photo is tried whole too, at four turns): every kind of try at its most, 264 fingerprints
        // uncapped, within ArtMatcher.MAX_QUERIES
        for (int tilt : List.of(0, 7, 20)) {
            BufferedImage photo = new BufferedImage(1100, 1100, BufferedImage.TYPE_INT_RGB);
            Graphics2D g = photo.createGraphics();
            g.setRenderingHint(java.awt.RenderingHints.KEY_ANTIALIASING, java.awt.RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(new java.awt.Color(200, 196, 188));
            g.fillRect(0, 0, 1100, 1100);
            g.rotate(Math.toRadians(tilt), 550, 550);
            java.awt.Color[] colours = {new java.awt.Color(20, 20, 24), new java.awt.Color(230, 230, 225),
                new java.awt.Color(40, 90, 160), new java.awt.Color(240, 200, 60), new java.awt.Color(160, 40, 40)};
            for (int k = 0; k < colours.length; k++) {
                int side = 820 - 90 * k;
                g.setColor(colours[k]);
                g.fillRect(550 - side / 2, 550 - side / 2, side, side);
            }
            g.dispose();
            List<PhotoMatch.Found> found = match(photo);
            assertThat(found).as("tilted %d°", tilt).allMatch(c -> c.status() != MatchStatus.CONFIDENT);
        }
    }

    private static void assertCorners(Quad corners, double... xy) {
        for (int k = 0; k < 4; k++) {
            assertThat(corners.x(k)).as("x of corner %d", k).isCloseTo(xy[2 * k], Offset.offset(1.0));
            assertThat(corners.y(k)).as("y of corner %d", k).isCloseTo(xy[2 * k + 1], Offset.offset(1.0));
        }
    }
}
