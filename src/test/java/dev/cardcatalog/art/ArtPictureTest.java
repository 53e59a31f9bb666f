package dev.cardcatalog.art;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cardcatalog.image.RgbImage;
import dev.cardcatalog.testing.CardArtGenerator;
import dev.cardcatalog.testing.Pictures;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The second look's picture of an art box (FINGERPRINT.md §13): what a cell holds, which cells glare takes away, and
 * how alike two pictures are.
 */
class ArtPictureTest {

    private static final FingerprintSettings.Offset ZERO = FingerprintSettings.FROZEN.zeroOffset();

    @Test
    void aCellIsTheMeanColourOfThePixelsItCoversOfTheFingerprintsBox() {
        // a 146 x 204 card: black outside the box of FINGERPRINT.md §3 (20.44..125.56 x 32.64..102), and inside it
        // a left half red and a right half blue, split at x = 73 (the box's middle, 73.0)
        int[] pixels = new int[146 * 204];
        for (int y = 0; y < 204; y++) {
            for (int x = 0; x < 146; x++) {
                boolean inBox = x >= 21 && x < 125 && y >= 33 && y < 102;
                pixels[y * 146 + x] = !inBox ? 0 : x < 73 ? 0xFF0000 : 0x0000FF;
            }
        }
        byte[] picture = ArtPicture.of(new RgbImage(146, 204, pixels), ZERO);
        assertThat(picture).hasSize(ArtPicture.BYTES).hasSize(32 * 21 * 3);
        // a cell well inside each half is its colour; cells are 105.12 / 32 = 3.285 pixels wide
        assertThat(cell(picture, 10, 5)).containsExactly(255, 0, 0);
        assertThat(cell(picture, 20, 5)).containsExactly(0, 0, 255);
        // the cells on the split mix the two in proportion: cell 16 starts at 20.44 + 16 * 3.285 = 73.0
        assertThat(cell(picture, 15, 5)[0]).isEqualTo(255);
        assertThat(cell(picture, 16, 5)[2]).isEqualTo(255);
        // the first column's cell covers 20.44..23.725: pixel 20 (black) for 0.56 of its 3.285 pixels
        assertThat(cell(picture, 0, 5)[0]).isEqualTo((int) Math.round(255 * (3.285 - 0.56) / 3.285));
    }

    @Test
    void anOffsetMovesTheBoxAsTheFingerprintsOffsetDoes() {
        RgbImage art = Pictures.rgb(CardArtGenerator.smallImage(4));
        FingerprintSettings.Offset right = FingerprintSettings.FROZEN.offsets().get(1);
        // shifted 2 % of 146 pixels right: the picture at +0.02 of the image is the picture at 0 of the image
        // moved 2.92 pixels left
        int[] shifted = new int[art.pixels().length];
        for (int y = 0; y < 204; y++) {
            for (int x = 0; x < 146; x++) {
                shifted[y * 146 + x] = art.pixels()[y * 146 + Math.max(0, x - 3)];
            }
        }
        byte[] atOffset = ArtPicture.of(new RgbImage(146, 204, shifted), right);
        byte[] atZero = ArtPicture.of(art, ZERO);
        assertThat(ArtPicture.similarity(atOffset, atZero, all())).isGreaterThan(0.98);
        assertThat(ArtPicture.similarity(ArtPicture.of(new RgbImage(146, 204, shifted), ZERO), atZero, all()))
                .isLessThan(ArtPicture.similarity(atOffset, atZero, all()));
    }

    @Test
    void theSameArtIsAlikeWhateverTheLightAndOtherArtIsNot() {
        byte[] own = ArtPicture.of(Pictures.rgb(CardArtGenerator.smallImage(11)), ZERO);
        byte[] dim = own.clone();
        for (int k = 0; k < dim.length; k++) {
            dim[k] = (byte) Math.round((own[k] & 0xFF) * 0.55 + (k % 3 == 2 ? 40 : 20)); // darker and bluer
        }
        assertThat(ArtPicture.similarity(dim, own, all())).isCloseTo(1.0, within(0.01));
        for (long other = 12; other < 40; other++) {
            byte[] picture = ArtPicture.of(Pictures.rgb(CardArtGenerator.smallImage(other)), ZERO);
            assertThat(ArtPicture.similarity(dim, picture, all())).as("artwork %d", other).isLessThan(0.7);
        }
    }

    @Test
    void glareIsLeftOutAndWhatItLeavesStillTellsTheArt() {
        RgbImage art = Pictures.rgb(CardArtGenerator.smallImage(23));
        byte[] own = ArtPicture.of(art, ZERO);
        for (double strength : new double[] {0.6, 0.9}) {
            // a glare spot over the art: mixed towards white, strongest at its centre
            int[] glared = art.pixels().clone();
            for (int y = 0; y < 204; y++) {
                for (int x = 0; x < 146; x++) {
                    double d2 = (Math.pow(x - 60, 2) + Math.pow(y - 60, 2)) / (18.0 * 18.0);
                    double s = strength * Math.exp(-d2);
                    int p = glared[y * 146 + x];
                    int r = (int) Math.round(((p >> 16) & 0xFF) + s * (255 - ((p >> 16) & 0xFF)));
                    int g = (int) Math.round(((p >> 8) & 0xFF) + s * (255 - ((p >> 8) & 0xFF)));
                    int b = (int) Math.round((p & 0xFF) + s * (255 - (p & 0xFF)));
                    glared[y * 146 + x] = r << 16 | g << 8 | b;
                }
            }
            byte[] photo = ArtPicture.of(new RgbImage(146, 204, glared), ZERO);
            boolean[] readable = ArtPicture.readable(photo);
            int left = unreadable(readable);
            // the spot's centre, (60, 60) in the image, is cell ((60 - 20.44) / 3.285, (60 - 32.64) / 3.286)
            assertThat(readable[8 * ArtPicture.COLS + 12]).as("the spot's centre, strength %s", strength).isFalse();
            assertThat(left - unreadable(ArtPicture.readable(own))).as("cells the glare took, strength %s", strength)
                    .isBetween(20, ArtPicture.CELLS / 2);
            assertThat(ArtPicture.similarity(photo, own, readable)).as("strength %s", strength)
                    .isGreaterThan(ArtPicture.similarity(photo, own, all())).isGreaterThan(0.95);
        }
        // art with no glare keeps most of its cells (its own white parts look like glare, and are left out of
        // every candidate's comparison alike)
        assertThat(unreadable(ArtPicture.readable(own))).isLessThan(ArtPicture.CELLS / 4);
    }

    private static int unreadable(boolean[] readable) {
        return (int) IntStream.range(0, readable.length).filter(c -> !readable[c]).count();
    }

    @Test
    void tooFewReadableCellsOrAFlatPictureSayNothing() {
        byte[] art = ArtPicture.of(Pictures.rgb(CardArtGenerator.smallImage(5)), ZERO);
        boolean[] few = new boolean[ArtPicture.CELLS];
        Arrays.fill(few, 0, ArtPicture.CELLS / 4 - 1, true);
        assertThat(ArtPicture.similarity(art, art, few)).isZero();
        few[ArtPicture.CELLS / 4 - 1] = true;
        assertThat(ArtPicture.similarity(art, art, few)).isCloseTo(1.0, within(1e-9));
        byte[] flat = new byte[ArtPicture.BYTES];
        Arrays.fill(flat, (byte) 90);
        assertThat(ArtPicture.similarity(flat, art, all())).isZero();
        assertThatThrownBy(() -> ArtPicture.similarity(new byte[10], art, all()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ArtPicture.similarity(art, art, new boolean[3]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theDigestNamesTheseSettingsApartFromTheFingerprints() {
        assertThat(ArtPicture.DIGEST).matches("[0-9a-f]{16}").isNotEqualTo(FingerprintSettings.FROZEN.digest());
    }

    private static int[] cell(byte[] picture, int column, int row) {
        int c = 3 * (row * ArtPicture.COLS + column);
        return new int[] {picture[c] & 0xFF, picture[c + 1] & 0xFF, picture[c + 2] & 0xFF};
    }

    private static boolean[] all() {
        boolean[] all = new boolean[ArtPicture.CELLS];
        Arrays.fill(all, true);
        return all;
    }
}
