package dev.cardcatalog.testing;

import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Simulated whole photos of {@link CardArtGenerator} cards, as a person takes them with a phone (SERVICE.md
 * §5.10): a card lying on a surface, or a binder page of nine, photographed at an angle. {@link CaptureSimulator}
 * makes guide crops (the photo is the card); this class makes the photo around the card. Deterministic from the
 * seeds.
 *
 * <p>A card is 63 × 88 mm with corners rounded at 3 mm, drawn from the same drawing function as its 146×204 index
 * image, its 7-pixel outer frame in one of four borders ({@link Border}: the generator's black, white, a colour, or
 * none, the card's body colour to its edge). What a whole photo does to it, all drawn from the photo seed
 * ({@link CaptureSimulator.Severity#REALISTIC} levels; {@code HARSH} doubles light, blur, noise and glare):
 * <ul>
 *   <li>the photo: 1,600 × 1,200 or 1,200 × 1,600 pixels (or a size given), on a {@link Surface}: light (paper,
 *       a pale table), dark (cloth, a dark table) or patterned (wood grain, a checked cloth, a speckled stone);</li>
 *   <li>the card: turned any way in its plane (0–360°), tilted in perspective by up to 35° about an axis in any
 *       direction, seen through a pinhole camera whose focal length is 0.75–1.1 times the photo's longer side, its
 *       outline covering 5–70 % of the frame (less when so large a card would not fit whole at its turn), placed
 *       anywhere it fits whole;</li>
 *   <li>in a sleeve in 4 photos of 10: an outline 1.5 mm larger all round, its rim a tint of the sleeve's colour
 *       over what is under it, a haze over the card, and one or two glare spots (radius 4–12 % of the card's width,
 *       up to 55 % white at the centre);</li>
 *   <li>light: gain 0.8–1.2, offset ±15, white balance ±7 % per channel, a gradient of up to ±15 % across the photo
 *       and a vignette of up to 15 %;</li>
 *   <li>focus blur σ 0.5–1.5 pixels, sensor noise σ 1–4, JPEG at quality 0.55–0.85.</li>
 * </ul>
 *
 * <p>A binder page ({@link #binderPage}) is a dark page with three rows of three clear pockets (66 × 91 mm, 4 mm
 * apart) and a card in each, shifted by up to 1 mm and turned by up to 2° in its pocket, the page turned by up to
 * ±10° (or a quarter turn more) and tilted by up to 20°, filling 60–85 % of the frame; each pocket carries glare.
 *
 * <p>Each photo says where its cards are: their four corners in the photo's pixels, in the order top-left,
 * top-right, bottom-right, bottom-left of the card as it reads upright (pixel {@code (x, y)} covers
 * {@code [x, x+1) × [y, y+1)}).
 */
public final class PhotoSimulator {

    /** A card's size, in millimetres. */
    static final double CARD_W = 63;
    static final double CARD_H = 88;
    private static final double CORNER_RADIUS = 3;
    private static final double SLEEVE_MARGIN = 1.5;

    /** What the card lies on. */
    public enum Surface { LIGHT, DARK, PATTERNED }

    /** The card's outer frame. */
    public enum Border { BLACK, WHITE, COLOURED, NONE }

    /** One card in a photo: its artwork's seed and its corners, TL, TR, BR, BL as the card reads upright. */
    public record Placed(long artSeed, double[][] corners) {
    }

    /**
     * A photo as JPEG bytes, its size and its cards.
     *
     * @param surface the surface, or null for a binder page
     */
    public record Photo(byte[] jpeg, int width, int height, List<Placed> cards, Surface surface) {
    }

    private PhotoSimulator() {
    }

    /** A photo of card {@code artSeed} lying on a surface drawn from the seed, 1,600 × 1,200 either way. */
    public static Photo wholePhoto(long artSeed, long photoSeed, CaptureSimulator.Severity severity) {
        return wholePhoto(artSeed, photoSeed, severity, null, 0, 0);
    }

    /**
     * A photo of card {@code artSeed} lying on {@code surface}.
     *
     * @param surface the surface, or null to draw one from the seed
     * @param width   the photo's width in pixels, 0 for 1,600 or 1,200 drawn from the seed
     * @param height  its height (with {@code width})
     */
    public static Photo wholePhoto(long artSeed, long photoSeed, CaptureSimulator.Severity severity, Surface surface,
            int width, int height) {
        return wholePhoto(artSeed, photoSeed, severity, surface, width, height, Double.NaN, Double.NaN);
    }

    /**
     * As {@link #wholePhoto(long, long, CaptureSimulator.Severity, Surface, int, int)}, with the tilt and the card's
     * share of the frame given.
     *
     * @param tiltDegrees the perspective tilt, 0–35, or NaN to draw it
     * @param areaShare   the card's area as a share of the frame, 0.05–0.70, or NaN to draw it
     */
    public static Photo wholePhoto(long artSeed, long photoSeed, CaptureSimulator.Severity severity, Surface surface,
            int width, int height, double tiltDegrees, double areaShare) {
        return wholePhoto(artSeed, photoSeed, severity, surface, width, height, tiltDegrees, areaShare, null, null);
    }

    /**
     * As {@link #wholePhoto(long, long, CaptureSimulator.Severity, Surface, int, int, double, double)}, with the
     * card's border and whether it is in a sleeve given. Every draw from the seed is made as without them, so a
     * photo whose drawn border and sleeve are the ones given is the same photo.
     *
     * @param border the card's border, or null to draw it
     * @param sleeve whether the card is in a sleeve, or null to draw it (4 photos of 10)
     */
    public static Photo wholePhoto(long artSeed, long photoSeed, CaptureSimulator.Severity severity, Surface surface,
            int width, int height, double tiltDegrees, double areaShare, Border border, Boolean sleeve) {
        SplittableRandom r = new SplittableRandom(photoSeed * 0x9E3779B97F4A7C15L + artSeed * 31 + 17);
        double f = severity.factor;
        boolean landscape = r.nextBoolean();
        int w = width > 0 ? width : landscape ? 1600 : 1200;
        int h = width > 0 ? height : landscape ? 1200 : 1600;
        Surface chosen = surface != null ? surface : Surface.values()[r.nextInt(3)];
        Scene scene = new Scene(w, h, r, f, chosen);

        double drawnArea = 0.05 + r.nextDouble() * 0.65;
        double area = Double.isNaN(areaShare) ? drawnArea : areaShare;
        double turn = r.nextDouble() * Math.PI * 2;
        double drawnTilt = r.nextDouble() * 35;
        double tilt = Math.toRadians(Double.isNaN(tiltDegrees) ? drawnTilt : tiltDegrees);
        double axis = r.nextDouble() * Math.PI;
        double focal = (0.75 + r.nextDouble() * 0.35) * Math.max(w, h);
        double[][] plane = {{0, 0}, {CARD_W, 0}, {CARD_W, CARD_H}, {0, CARD_H}};
        double[][] placed = place(plane, CARD_W / 2, CARD_H / 2, turn, tilt, axis, focal, area * w * h, w, h, r);
        Homography toPhoto = Homography.squareTo(placed);
        boolean drawnSleeve = r.nextInt(10) < 4;
        boolean inSleeve = sleeve != null ? sleeve : drawnSleeve;
        Border drawnBorder = Border.values()[r.nextInt(4)]; // the draws in the order they were always made
        double[][] glare = drawnSleeve ? glare(r, f) : new double[0][];
        if (inSleeve && !drawnSleeve) {
            glare = glare(new SplittableRandom(photoSeed ^ 0x51EEFEL), f);
        }
        scene.cards.add(new SceneCard(CardArtGenerator.card(artSeed), toPhoto, border != null ? border : drawnBorder,
                inSleeve, inSleeve ? glare : new double[0][], r.nextInt(256)));
        BufferedImage image = scene.render(r);
        float quality = (float) (0.85 - 0.30 * r.nextDouble());
        return new Photo(TestImageFiles.jpeg(image, quality), w, h, List.of(new Placed(artSeed, placed)), chosen);
    }

    /**
     * A binder page of nine cards, {@code artSeeds} in reading order of the page as it lies upright (rows top to
     * bottom, left to right), 1,200 × 1,600 pixels (or the size given).
     */
    public static Photo binderPage(long[] artSeeds, long photoSeed, CaptureSimulator.Severity severity, int width,
            int height) {
        if (artSeeds.length != 9) {
            throw new IllegalArgumentException("a binder page holds nine cards");
        }
        SplittableRandom r = new SplittableRandom(photoSeed * 0x9E3779B97F4A7C15L + 0xB1DE5L);
        double f = severity.factor;
        int w = width > 0 ? width : 1200;
        int h = width > 0 ? height : 1600;
        Scene scene = new Scene(w, h, r, f, Surface.values()[r.nextInt(3)]);
        double pocketW = CARD_W + 3;
        double pocketH = CARD_H + 3;
        double gap = 4;
        double margin = 8;
        double pageW = 2 * margin + 3 * pocketW + 2 * gap;
        double pageH = 2 * margin + 3 * pocketH + 2 * gap;
        boolean quarter = w > h; // a landscape photo of the page lies turned
        double turn = Math.toRadians((r.nextDouble() - 0.5) * 20) + (quarter ? Math.PI / 2 : 0)
                + (r.nextInt(4) == 0 ? Math.PI : 0);
        double tilt = Math.toRadians(r.nextDouble() * 20);
        double axis = r.nextDouble() * Math.PI;
        double focal = (0.75 + r.nextDouble() * 0.35) * Math.max(w, h);
        double fill = 0.60 + r.nextDouble() * 0.25;
        double[][] pageCorners = {{0, 0}, {pageW, 0}, {pageW, pageH}, {0, pageH}};
        // place the page, then every point of it through the same camera
        Camera camera = camera(pageW / 2, pageH / 2, turn, tilt, axis, focal, fill * w * h, w, h, pageCorners, r);
        scene.page = Homography.squareTo(camera.project(pageCorners));
        scene.pageColour = CardArtGenerator.rgb(20 + r.nextInt(30), 20 + r.nextInt(30), 25 + r.nextInt(40));
        List<Placed> placed = new ArrayList<>();
        for (int k = 0; k < 9; k++) {
            double px = margin + (k % 3) * (pocketW + gap);
            double py = margin + (k / 3) * (pocketH + gap);
            double[][] pocket = {{px, py}, {px + pocketW, py}, {px + pocketW, py + pocketH}, {px, py + pocketH}};
            scene.pockets.add(Homography.squareTo(camera.project(pocket)));
            double cx = px + pocketW / 2 + (r.nextDouble() - 0.5) * 2;
            double cy = py + pocketH / 2 + (r.nextDouble() - 0.5) * 2;
            double a = Math.toRadians((r.nextDouble() - 0.5) * 4);
            double[][] card = new double[4][];
            double[][] local = {{-CARD_W / 2, -CARD_H / 2}, {CARD_W / 2, -CARD_H / 2}, {CARD_W / 2, CARD_H / 2},
                    {-CARD_W / 2, CARD_H / 2}};
            for (int c = 0; c < 4; c++) {
                card[c] = new double[] {cx + local[c][0] * Math.cos(a) - local[c][1] * Math.sin(a),
                        cy + local[c][0] * Math.sin(a) + local[c][1] * Math.cos(a)};
            }
            double[][] corners = camera.project(card);
            scene.cards.add(new SceneCard(CardArtGenerator.card(artSeeds[k]), Homography.squareTo(corners),
                    Border.values()[r.nextInt(4)], false, glare(r, f), 0));
            placed.add(new Placed(artSeeds[k], corners));
        }
        BufferedImage image = scene.render(r);
        float quality = (float) (0.85 - 0.30 * r.nextDouble());
        return new Photo(TestImageFiles.jpeg(image, quality), w, h, placed, null);
    }

    /**
     * What a photo of a collection ({@link #collection}) shows besides its cards: the classes of real photos that the
     * finder once failed on (SERVICE.md §5.10 item 13, docs/benchmarks.md "Real photos").
     */
    public enum Clutter {
        /** The cards alone, a few millimetres apart. */
        NONE,
        /** The surface is a playmat printed with an artwork of its own, running behind the cards. */
        MAT,
        /** Every card in a sleeve, with its glare spots and a reflection across it. */
        SLEEVES,
        /** Dice lying on the cards, one in two of them over the card's border. */
        DICE,
        /** Fingers from beyond the rows' ends over the borders of the cards there, as when a hand holds them flat. */
        FINGERS,
        /** A hard shadow beside every card, from a lamp to one side. */
        SHADOWS,
        /** Every card inside a plastic slab with a label above it and a reflection across it. */
        SLABS
    }

    /**
     * A photo of a collection laid out in rows: {@code artSeeds} in a grid {@code columns} wide (reading order of the
     * grid as it lies upright), 2–6 mm apart (sleeves 3.5–7 mm, the slabs of {@link Clutter#SLABS} 6–10 mm), each card shifted by
     * up to 1 mm and turned by up to 3°, the whole turned by up to ±12° (or a quarter turn more for a landscape
     * photo of a portrait grid), tilted by up to 25°, filling 55–85 % of the frame, with {@code clutter}. The cards'
     * corners are those of the cards themselves (not of a sleeve or a slab).
     *
     * @param width  the photo's width in pixels, 0 for 1,600 × 1,200 either way as the grid is shaped
     * @param height its height (with {@code width})
     */
    public static Photo collection(long[] artSeeds, int columns, long photoSeed, CaptureSimulator.Severity severity,
            Surface surface, Clutter clutter, int width, int height) {
        SplittableRandom r = new SplittableRandom(photoSeed * 0x9E3779B97F4A7C15L + 0xC011EC7L + clutter.ordinal());
        double f = severity.factor;
        int rows = (artSeeds.length + columns - 1) / columns;
        boolean slabs = clutter == Clutter.SLABS;
        double padX = slabs ? SLAB_SIDE : 0;
        double padTop = slabs ? SLAB_TOP : 0;
        double padBottom = slabs ? SLAB_SIDE : 0;
        // sleeves 1.5 mm beyond their cards: their rims 0.5-4 mm apart
        double gap = slabs ? 6 + r.nextDouble() * 4 : clutter == Clutter.SLEEVES ? 3.5 + r.nextDouble() * 3.5
                : 2 + r.nextDouble() * 4;
        double cellW = CARD_W + 2 * padX + gap;
        double cellH = CARD_H + padTop + padBottom + gap;
        double gridW = columns * cellW - gap;
        double gridH = rows * cellH - gap;
        boolean gridLandscape = gridW > gridH;
        int w = width > 0 ? width : gridLandscape ? 1600 : 1200;
        int h = width > 0 ? height : gridLandscape ? 1200 : 1600;
        Scene scene = new Scene(w, h, r, f, surface);
        boolean quarter = (w > h) != gridLandscape;
        double turn = Math.toRadians((r.nextDouble() - 0.5) * 24) + (quarter ? Math.PI / 2 : 0);
        double tilt = Math.toRadians(r.nextDouble() * 25);
        double axis = r.nextDouble() * Math.PI;
        double focal = (0.75 + r.nextDouble() * 0.35) * Math.max(w, h);
        double fill = 0.55 + r.nextDouble() * 0.30;
        double[][] gridCorners = {{0, 0}, {gridW, 0}, {gridW, gridH}, {0, gridH}};
        Camera camera = camera(gridW / 2, gridH / 2, turn, tilt, axis, focal, fill * w * h, w, h, gridCorners, r);
        // the plane beyond the grid too, for what lies around the cards: millimetres from the grid's top-left
        double reach = 400;
        double[][] planeCorners = {{-reach, -reach}, {gridW + reach, -reach}, {gridW + reach, gridH + reach},
                {-reach, gridH + reach}};
        scene.plane = new PlaneView(Homography.squareTo(camera.project(planeCorners)).inverse(), -reach, -reach,
                gridW + 2 * reach, gridH + 2 * reach);
        if (clutter == Clutter.MAT) {
            scene.mat = CardArtGenerator.card(r.nextLong());
        }
        double lightX = (r.nextBoolean() ? 1 : -1) * (3 + r.nextDouble() * 5);
        double lightY = 3 + r.nextDouble() * 5;
        List<Placed> placed = new ArrayList<>();
        for (int k = 0; k < artSeeds.length; k++) {
            double cx = (k % columns) * cellW + padX + CARD_W / 2 + (r.nextDouble() - 0.5) * 2;
            double cy = (k / columns) * cellH + padTop + CARD_H / 2 + (r.nextDouble() - 0.5) * 2;
            double a = Math.toRadians((r.nextDouble() - 0.5) * 6);
            PlaneRect card = new PlaneRect(cx, cy, CARD_W / 2, CARD_H / 2, a);
            double[][] corners = camera.project(card.corners());
            boolean sleeve = clutter == Clutter.SLEEVES;
            double[][] glare = sleeve || slabs ? glare(r, f) : new double[0][];
            scene.cards.add(new SceneCard(CardArtGenerator.card(artSeeds[k]), Homography.squareTo(corners),
                    Border.values()[r.nextInt(4)], sleeve, glare, r.nextInt(256)));
            placed.add(new Placed(artSeeds[k], corners));
            switch (clutter) {
                case SHADOWS -> scene.below.add(new PlaneShape(new PlaneRect(cx + lightX, cy + lightY, CARD_W / 2,
                        CARD_H / 2, a), 0x000000, 0.45 + r.nextDouble() * 0.2, 0));
                case SLABS -> {
                    PlaneRect slab = new PlaneRect(cx, cy + (padBottom - padTop) / 2, CARD_W / 2 + SLAB_SIDE,
                            (CARD_H + padTop + padBottom) / 2, a);
                    scene.below.add(new PlaneShape(slab, 0xF4F6F8, 0.18, 1.5));
                    PlaneRect label = new PlaneRect(cx, cy - CARD_H / 2 - padTop / 2 - 1, CARD_W / 2 + 1,
                            padTop / 2 - 3, a);
                    scene.below.add(new PlaneShape(label, r.nextBoolean() ? 0xF2F2EE : 0xC8D6E8, 0.95, 0));
                    // a reflection across the slab's face, over the card
                    scene.above.add(new PlaneShape(new PlaneRect(cx + (r.nextDouble() - 0.5) * 30, cy,
                            5 + r.nextDouble() * 5, CARD_H / 2 + 8, a + 0.6), 0xFFFFFF, 0.22, 0));
                }
                case SLEEVES -> scene.above.add(new PlaneShape(new PlaneRect(cx + (r.nextDouble() - 0.5) * 30, cy,
                        3 + r.nextDouble() * 6, CARD_H / 2 + 1, a + 0.5 + r.nextDouble() * 0.5), 0xFFFFFF,
                        0.20 + r.nextDouble() * 0.15, 0));
                case DICE -> {
                    if (r.nextInt(4) > 0) {
                        boolean overBorder = r.nextBoolean();
                        double dx = overBorder ? (r.nextBoolean() ? 1 : -1) * CARD_W / 2 : (r.nextDouble() - 0.5) * 30;
                        double dy = overBorder ? (r.nextDouble() - 0.5) * 50 : 10 + r.nextDouble() * 25;
                        scene.above.add(new PlaneShape(new PlaneRect(cx + dx, cy + dy, 8, 8, r.nextDouble() * 6),
                                CardArtGenerator.rgb(170 + r.nextInt(60), 20 + r.nextInt(40), 30 + r.nextInt(40)),
                                1, 0));
                    }
                }
                case FINGERS -> {
                    boolean first = k % columns == 0;
                    boolean last = k % columns == columns - 1 || k == artSeeds.length - 1;
                    if ((first || last) && r.nextInt(3) > 0) {
                        // a finger from beyond the row's end, its tip 6-14 mm over the card's border
                        double side = first ? -1 : 1;
                        double tip = 6 + r.nextDouble() * 8;
                        double length = 60;
                        double fy = cy + (r.nextDouble() - 0.5) * 40;
                        double fx = cx + side * (CARD_W / 2 - tip + length / 2);
                        scene.above.add(new PlaneShape(new PlaneRect(fx, fy, length / 2, 8 + r.nextDouble() * 2,
                                a + (r.nextDouble() - 0.5) * 0.5), CardArtGenerator.rgb(215 + r.nextInt(25),
                                165 + r.nextInt(30), 135 + r.nextInt(30)), 1, 0, true));
                    }
                }
                default -> {
                }
            }
        }
        BufferedImage image = scene.render(r);
        float quality = (float) (0.85 - 0.30 * r.nextDouble());
        return new Photo(TestImageFiles.jpeg(image, quality), w, h, placed, surface);
    }

    /** A slab's plastic beside a card, and above it for its label, in millimetres. */
    private static final double SLAB_SIDE = 5;
    private static final double SLAB_TOP = 24;

    /** A rectangle in a collection's plane: centre, half sizes and turn (radians), in millimetres. */
    private record PlaneRect(double cx, double cy, double halfW, double halfH, double turn) {

        double[][] corners() {
            double c = Math.cos(turn);
            double s = Math.sin(turn);
            double[][] local = {{-halfW, -halfH}, {halfW, -halfH}, {halfW, halfH}, {-halfW, halfH}};
            double[][] out = new double[4][];
            for (int k = 0; k < 4; k++) {
                out[k] = new double[] {cx + local[k][0] * c - local[k][1] * s, cy + local[k][0] * s + local[k][1] * c};
            }
            return out;
        }

        /** The point in the rectangle's own frame: {x, y} from its centre along its sides. */
        void local(double x, double y, double[] out) {
            double c = Math.cos(turn);
            double s = Math.sin(turn);
            double dx = x - cx;
            double dy = y - cy;
            out[0] = dx * c + dy * s;
            out[1] = -dx * s + dy * c;
        }
    }

    /**
     * A shape lying in a collection's plane, painted over what is under it: {@code colour} mixed in at
     * {@code strength}, and a rim {@code rim} mm wide mixed in twice as strongly (a slab's edge); a round-ended one
     * (a finger) is shaded across its width.
     */
    private record PlaneShape(PlaneRect rect, int colour, double strength, double rim, boolean rounded) {

        PlaneShape(PlaneRect rect, int colour, double strength, double rim) {
            this(rect, colour, strength, rim, false);
        }

        int paint(double x, double y, int under, double[] scratch) {
            rect.local(x, y, scratch);
            double ax = Math.abs(scratch[0]);
            double ay = Math.abs(scratch[1]);
            if (ax > rect.halfW() || ay > rect.halfH()) {
                return under;
            }
            if (rounded) {
                double end = rect.halfW() - rect.halfH();
                if (ax > end && Math.hypot(ax - end, ay) > rect.halfH()) {
                    return under;
                }
                double across = ay / rect.halfH();
                return mix(under, mix(colour, 0x000000, 0.35 * across * across), strength);
            }
            boolean edge = rim > 0 && (rect.halfW() - ax < rim || rect.halfH() - ay < rim);
            return mix(under, colour, Math.min(1, edge ? 2 * strength : strength));
        }
    }

    /** The map from a photo's pixels to a collection's plane, in millimetres. */
    private record PlaneView(Homography toUnit, double x0, double y0, double width, double height) {

        void map(double px, double py, double[] out) {
            toUnit.map(px, py, out);
            out[0] = x0 + out[0] * width;
            out[1] = y0 + out[1] * height;
        }
    }

    /** One or two glare spots: centre u, v (card fractions), radius (card widths), strength. */
    private static double[][] glare(SplittableRandom r, double f) {
        double[][] spots = new double[1 + r.nextInt(2)][];
        for (int k = 0; k < spots.length; k++) {
            spots[k] = new double[] {r.nextDouble(), r.nextDouble(), (0.04 + r.nextDouble() * 0.08) * f,
                    Math.min(0.9, (0.25 + r.nextDouble() * 0.30) * f)};
        }
        return spots;
    }

    /** A camera looking at a plane, the plane's points given in millimetres. */
    private record Camera(double cx, double cy, double[][] rotation, double distance, double focal, double shiftX,
            double shiftY) {

        double[][] project(double[][] points) {
            double[][] out = new double[points.length][];
            for (int k = 0; k < points.length; k++) {
                double x = points[k][0] - cx;
                double y = points[k][1] - cy;
                double[] p = {rotation[0][0] * x + rotation[0][1] * y, rotation[1][0] * x + rotation[1][1] * y,
                        rotation[2][0] * x + rotation[2][1] * y + distance};
                out[k] = new double[] {focal * p[0] / p[2] + shiftX, focal * p[1] / p[2] + shiftY};
            }
            return out;
        }
    }

    private static double[][] place(double[][] plane, double cx, double cy, double turn, double tilt, double axis,
            double focal, double targetArea, int w, int h, SplittableRandom r) {
        return camera(cx, cy, turn, tilt, axis, focal, targetArea, w, h, plane, r).project(plane);
    }

    /**
     * The plane turned by {@code turn} in itself, tilted by {@code tilt} about an axis at {@code axis} in the photo,
     * at the distance where the outline of {@code outline} covers {@code targetArea} pixels, shifted to a random
     * place where it fits whole (with 1 % of the photo to spare).
     */
    private static Camera camera(double cx, double cy, double turn, double tilt, double axis, double focal,
            double targetArea, int w, int h, double[][] outline, SplittableRandom r) {
        double[][] spin = {{Math.cos(turn), -Math.sin(turn), 0}, {Math.sin(turn), Math.cos(turn), 0}, {0, 0, 1}};
        // tilt about the unit axis (cos a, sin a, 0) by Rodrigues' formula
        double ax = Math.cos(axis);
        double ay = Math.sin(axis);
        double c = Math.cos(tilt);
        double s = Math.sin(tilt);
        double[][] tiltM = {{c + ax * ax * (1 - c), ax * ay * (1 - c), ay * s},
                {ax * ay * (1 - c), c + ay * ay * (1 - c), -ax * s}, {-ay * s, ax * s, c}};
        double[][] rot = multiply(tiltM, spin);
        double distance = focal;
        double spare = 0.01 * Math.max(w, h);
        double minX;
        double maxX;
        double minY;
        double maxY;
        double target = targetArea;
        while (true) { // as large as asked, or as large as fits whole when that is smaller
            for (int k = 0; k < 4; k++) {
                double area = Math.abs(area(new Camera(cx, cy, rot, distance, focal, 0, 0).project(outline)));
                distance *= Math.sqrt(area / target);
            }
            minX = Double.MAX_VALUE;
            maxX = -Double.MAX_VALUE;
            minY = Double.MAX_VALUE;
            maxY = -Double.MAX_VALUE;
            for (double[] p : new Camera(cx, cy, rot, distance, focal, 0, 0).project(outline)) {
                minX = Math.min(minX, p[0]);
                maxX = Math.max(maxX, p[0]);
                minY = Math.min(minY, p[1]);
                maxY = Math.max(maxY, p[1]);
            }
            if (maxX - minX <= w - 2 * spare && maxY - minY <= h - 2 * spare) {
                break;
            }
            target *= 0.95;
        }
        double fromX = spare - minX;
        double toX = w - spare - maxX;
        double fromY = spare - minY;
        double toY = h - spare - maxY;
        double shiftX = toX > fromX ? fromX + r.nextDouble() * (toX - fromX) : (fromX + toX) / 2;
        double shiftY = toY > fromY ? fromY + r.nextDouble() * (toY - fromY) : (fromY + toY) / 2;
        return new Camera(cx, cy, rot, distance, focal, shiftX, shiftY);
    }

    private static double[][] multiply(double[][] a, double[][] b) {
        double[][] out = new double[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                for (int k = 0; k < 3; k++) {
                    out[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return out;
    }

    static double area(double[][] polygon) {
        double sum = 0;
        for (int k = 0; k < polygon.length; k++) {
            double[] a = polygon[k];
            double[] b = polygon[(k + 1) % polygon.length];
            sum += a[0] * b[1] - b[0] * a[1];
        }
        return sum / 2;
    }

    /** A card in a scene: the map from card fractions (u, v) to photo pixels, its border, sleeve and glare. */
    private record SceneCard(CardArtGenerator.Card card, Homography toPhoto, Border border, boolean sleeve,
            double[][] glare, int salt) {
    }

    /** Everything in one photo, drawn back to front: surface, page, pockets, sleeves, cards, then the light. */
    private static final class Scene {
        final int w;
        final int h;
        final double f;
        final Surface surface;
        final List<SceneCard> cards = new ArrayList<>();
        final List<Homography> pockets = new ArrayList<>();
        Homography page;
        int pageColour;
        /** A collection's plane and what lies in it below and above the cards; null and empty otherwise. */
        PlaneView plane;
        final List<PlaneShape> below = new ArrayList<>();
        final List<PlaneShape> above = new ArrayList<>();
        /** A playmat's own artwork, printed over the whole photo; null for a plain surface. */
        CardArtGenerator.Card mat;

        // surface
        final int base;
        final int second;
        final int pattern;
        final double scale;
        final double phase;
        // light
        final double gain;
        final double offset;
        final double[] balance;
        final double gradAngle;
        final double gradAmount;
        final double vignette;
        final double sigma;
        final double noise;
        final int sleeveColour;

        Scene(int w, int h, SplittableRandom r, double f, Surface surface) {
            this.w = w;
            this.h = h;
            this.f = f;
            this.surface = surface;
            switch (surface) {
                case LIGHT -> {
                    int g = 200 + r.nextInt(45);
                    base = CardArtGenerator.rgb(g + r.nextInt(11) - 5, g + r.nextInt(11) - 5, g - r.nextInt(25));
                    second = base;
                    pattern = 0;
                }
                case DARK -> {
                    int g = 12 + r.nextInt(40);
                    base = CardArtGenerator.rgb(g + r.nextInt(11) - 5, g + r.nextInt(11) - 5, g + r.nextInt(15));
                    second = base;
                    pattern = 0;
                }
                default -> {
                    base = CardArtGenerator.randomColour(r);
                    second = CardArtGenerator.randomColour(r);
                    pattern = 1 + r.nextInt(3);
                }
            }
            scale = (8 + r.nextDouble() * 40) * Math.max(w, h) / 1600.0;
            phase = r.nextDouble() * Math.PI * 2;
            gain = 1 + (r.nextDouble() - 0.5) * 0.4 * f;
            offset = (r.nextDouble() - 0.5) * 30 * f;
            balance = new double[] {1 + (r.nextDouble() - 0.5) * 0.14 * f, 1 + (r.nextDouble() - 0.5) * 0.14 * f,
                    1 + (r.nextDouble() - 0.5) * 0.14 * f};
            gradAngle = r.nextDouble() * Math.PI * 2;
            gradAmount = r.nextDouble() * 0.15 * f;
            vignette = r.nextDouble() * 0.15 * f;
            sigma = (0.5 + r.nextDouble()) * f * Math.max(1, Math.max(w, h) / 1600.0);
            noise = (1 + r.nextDouble() * 3) * f;
            sleeveColour = CardArtGenerator.randomColour(r);
        }

        int surfaceAt(double x, double y) {
            if (mat != null) {
                return mat.rgbAt(x / w, y / h);
            }
            switch (pattern) {
                case 1 -> { // wood grain: wavy stripes
                    double v = Math.sin((y + 6 * Math.sin(x / (scale * 3) + phase)) / scale * Math.PI + phase);
                    return mix(base, second, 0.5 + 0.5 * v);
                }
                case 2 -> { // a checked cloth
                    boolean odd = (((long) Math.floor(x / scale) + (long) Math.floor(y / scale)) & 1) == 0;
                    return odd ? base : second;
                }
                case 3 -> { // speckled stone: value noise at two scales
                    long cx = (long) Math.floor(x / (scale / 3));
                    long cy = (long) Math.floor(y / (scale / 3));
                    double v = (CardArtGenerator.mix(cx * 0x9E3779B97F4A7C15L + cy * 31 + (long) (phase * 1e6))
                            >>> 11) * 0x1.0p-53;
                    return mix(base, second, v);
                }
                default -> {
                    return base;
                }
            }
        }

        BufferedImage render(SplittableRandom r) {
            double[][] planes = new double[3][w * h];
            double cos = Math.cos(gradAngle);
            double sin = Math.sin(gradAngle);
            double diag = Math.hypot(w, h) / 2;
            Homography pageInverse = page == null ? null : page.inverse();
            List<Homography> pocketInverses = pockets.stream().map(Homography::inverse).toList();
            List<Homography> cardInverses = cards.stream().map(c -> c.toPhoto().inverse()).toList();
            double[] uv = new double[2];
            double[] mm = new double[2];
            double[] scratch = new double[2];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    double px = x + 0.5;
                    double py = y + 0.5;
                    int c = surfaceAt(px, py);
                    if (plane != null) {
                        plane.map(px, py, mm);
                        for (PlaneShape shape : below) {
                            c = shape.paint(mm[0], mm[1], c, scratch);
                        }
                    }
                    if (pageInverse != null) {
                        pageInverse.map(px, py, uv);
                        if (inside(uv)) {
                            c = pageColour;
                        }
                        for (Homography pocket : pocketInverses) {
                            pocket.map(px, py, uv);
                            if (inside(uv)) {
                                c = mix(c, 0xC8C8C8, 0.10);
                            }
                        }
                    }
                    for (int k = 0; k < cards.size(); k++) {
                        SceneCard card = cards.get(k);
                        cardInverses.get(k).map(px, py, uv);
                        double u = uv[0];
                        double v = uv[1];
                        double mu = SLEEVE_MARGIN / CARD_W;
                        double mv = SLEEVE_MARGIN / CARD_H;
                        if (card.sleeve() && u >= -mu && u < 1 + mu && v >= -mv && v < 1 + mv
                                && !cutCorner(u + mu, v + mv, 1 + 2 * mu, 1 + 2 * mv)) {
                            c = mix(c, card.sleeve ? sleeveColour : c, 0.45);
                        }
                        if (u >= 0 && u < 1 && v >= 0 && v < 1 && !cutCorner(u, v, 1, 1)) {
                            c = cardColour(card, u, v);
                            if (card.sleeve()) {
                                c = mix(c, 0xFFFFFF, 0.04);
                            }
                            for (double[] spot : card.glare()) {
                                double du = u - spot[0];
                                double dv = (v - spot[1]) * CARD_H / CARD_W;
                                double d2 = (du * du + dv * dv) / (spot[2] * spot[2]);
                                if (d2 < 9) {
                                    c = mix(c, 0xFFFFFF, spot[3] * Math.exp(-d2));
                                }
                            }
                        }
                    }
                    if (plane != null) {
                        for (PlaneShape shape : above) {
                            c = shape.paint(mm[0], mm[1], c, scratch);
                        }
                    }
                    double dx = px - w / 2.0;
                    double dy = py - h / 2.0;
                    double light = (1 + gradAmount * (dx * cos + dy * sin) / diag)
                            * (1 - vignette * (dx * dx + dy * dy) / (diag * diag));
                    int i = y * w + x;
                    planes[0][i] = ((c >> 16) & 0xFF) * light * gain * balance[0] + offset;
                    planes[1][i] = ((c >> 8) & 0xFF) * light * gain * balance[1] + offset;
                    planes[2][i] = (c & 0xFF) * light * gain * balance[2] + offset;
                }
            }
            for (double[] plane : planes) {
                CaptureSimulator.blur(plane, w, h, sigma);
            }
            BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
            int[] row = new int[w];
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    int i = y * w + x;
                    row[x] = CardArtGenerator.rgb((int) Math.round(planes[0][i] + r.nextGaussian() * noise),
                            (int) Math.round(planes[1][i] + r.nextGaussian() * noise),
                            (int) Math.round(planes[2][i] + r.nextGaussian() * noise));
                }
                image.setRGB(0, y, w, 1, row, 0, w);
            }
            return image;
        }

        private static boolean inside(double[] uv) {
            return uv[0] >= 0 && uv[0] < 1 && uv[1] >= 0 && uv[1] < 1;
        }

        /** Whether (u, v) of a rectangle of {@code su × sv} card sizes lies outside its rounded corners. */
        private static boolean cutCorner(double u, double v, double su, double sv) {
            double x = u * CARD_W;
            double y = v * CARD_H;
            double wmm = su * CARD_W;
            double hmm = sv * CARD_H;
            double ex = x < CORNER_RADIUS ? CORNER_RADIUS - x : x > wmm - CORNER_RADIUS ? x - (wmm - CORNER_RADIUS) : 0;
            double ey = y < CORNER_RADIUS ? CORNER_RADIUS - y : y > hmm - CORNER_RADIUS ? y - (hmm - CORNER_RADIUS) : 0;
            return ex > 0 && ey > 0 && ex * ex + ey * ey > CORNER_RADIUS * CORNER_RADIUS;
        }

        private static int cardColour(SceneCard card, double u, double v) {
            double x = u * 146;
            double y = v * 204;
            boolean frame = x < 7 || x >= 139 || y < 7 || y >= 197;
            if (!frame || card.border() == Border.BLACK) {
                return card.card().rgbAt(u, v);
            }
            return switch (card.border()) {
                case WHITE -> 0xEBE9E4;
                case COLOURED -> CardArtGenerator.rgb(60 + (card.salt() * 37) % 180, 60 + (card.salt() * 91) % 180,
                        60 + (card.salt() * 53) % 180);
                default -> card.card().rgbAt(8.5 / 146, 0.6); // no border: the body to the edge
            };
        }
    }

    static int mix(int a, int b, double k) {
        int r = (int) Math.round(((a >> 16) & 0xFF) * (1 - k) + ((b >> 16) & 0xFF) * k);
        int g = (int) Math.round(((a >> 8) & 0xFF) * (1 - k) + ((b >> 8) & 0xFF) * k);
        int bl = (int) Math.round((a & 0xFF) * (1 - k) + (b & 0xFF) * k);
        return CardArtGenerator.rgb(r, g, bl);
    }

    /** A plane projective map, 3 × 3, row-major; maps (x, y) to ((h0 x + h1 y + h2) / w, ...). */
    record Homography(double[] m) {

        /** The map of the unit square's corners (0,0), (1,0), (1,1), (0,1) to {@code q[0..3]} (Heckbert). */
        static Homography squareTo(double[][] q) {
            double x0 = q[0][0];
            double y0 = q[0][1];
            double x1 = q[1][0];
            double y1 = q[1][1];
            double x2 = q[2][0];
            double y2 = q[2][1];
            double x3 = q[3][0];
            double y3 = q[3][1];
            double sx = x0 - x1 + x2 - x3;
            double sy = y0 - y1 + y2 - y3;
            double dx1 = x1 - x2;
            double dx2 = x3 - x2;
            double dy1 = y1 - y2;
            double dy2 = y3 - y2;
            double den = dx1 * dy2 - dx2 * dy1;
            double g = (sx * dy2 - dx2 * sy) / den;
            double hh = (dx1 * sy - sx * dy1) / den;
            return new Homography(new double[] {x1 - x0 + g * x1, x3 - x0 + hh * x3, x0, y1 - y0 + g * y1,
                    y3 - y0 + hh * y3, y0, g, hh, 1});
        }

        Homography inverse() {
            double a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8];
            double[] inv = {e * i - f * h, c * h - b * i, b * f - c * e, f * g - d * i, a * i - c * g, c * d - a * f,
                    d * h - e * g, b * g - a * h, a * e - b * d};
            return new Homography(inv);
        }

        void map(double x, double y, double[] out) {
            double wq = m[6] * x + m[7] * y + m[8];
            out[0] = (m[0] * x + m[1] * y + m[2]) / wq;
            out[1] = (m[3] * x + m[4] * y + m[5]) / wq;
        }
    }
}
