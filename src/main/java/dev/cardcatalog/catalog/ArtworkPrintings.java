package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.TransientFailure;
import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The catalog's reads for the art index: which printing represents each artwork (SERVICE.md §5.1, FINGERPRINT.md §1)
 * and the printings of an artwork, on whichever face it is printed. The rules of the {@code card} table are kept here, with the table: a printing is
 * <b>active</b> while it is not retired, and of kind <b>"card"</b> unless its layout is a token, an emblem or an
 * art-series card. The catalog holds paper cards only.
 *
 * <p>Errors: a database failure is a {@link TransientFailure} (the job is retried).
 */
@ApplicationScoped
public class ArtworkPrintings {

    static final String ACTIVE = "retired_at IS NULL";
    static final String CARD_KIND = "layout NOT IN ('token', 'double_faced_token', 'emblem', 'art_series')";
    /** Cards whose faces {@link #readUnreadFaces} reads in one transaction. */
    private static final int UNREAD_BATCH = 1000;

    private final DataSource dataSource;

    public ArtworkPrintings(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * The printing that represents an artwork: its card's id and the {@code small} image URL of the face it is on.
     *
     * @param face the face's index in {@code card_faces} when the card's faces have their own images; null when the
     *             artwork is the card's one image (a card without faces, or whose faces share one image)
     */
    public record Representative(UUID illustrationId, UUID cardId, String imageSmallUri, Integer face) {
    }

    /**
     * @param artworks     one per {@code illustration_id}, in {@code illustration_id} order
     * @param withoutImage artworks whose active English printings of kind "card" have no {@code small} image
     */
    public record Representatives(List<Representative> artworks, long withoutImage) {
    }

    /**
     * An active printing of an artwork.
     *
     * @param face          the index in {@code card_faces} of the face the artwork is on; null when it is the card's
     *                      one image
     * @param faceName      that face's name; null with {@code face}
     * @param imageSmallUri the {@code small} image of that face (of the card when {@code face} is null)
     */
    public record Printing(UUID illustrationId, UUID id, String name, String setCode, String collectorNumber,
            String lang, String imageSmallUri, Integer face, String faceName) {
    }

    /**
     * Every artwork of every printing: a card whose faces have their own images ({@code card_face_image}) gives one
     * row per such face, any other card one row for its image. Columns: illustration_id, card id, image, face, face
     * name, and the card's columns the rules and the order use ({@code c.*}).
     */
    private static final String ARTWORKS = """
            SELECT c.illustration_id, c.id, c.image_small_uri, NULL::smallint AS face, NULL::text AS face_name,
                   c.name, c.set_code, c.collector_number, c.lang, c.released_at, c.layout, c.retired_at
              FROM card c
             WHERE NOT EXISTS (SELECT 1 FROM card_face_image f WHERE f.card_id = c.id)
            UNION ALL
            SELECT f.illustration_id, c.id, f.image_small_uri, f.face, f.name,
                   c.name, c.set_code, c.collector_number, c.lang, c.released_at, c.layout, c.retired_at
              FROM card_face_image f JOIN card c ON c.id = f.card_id""";

    /**
     * One representative per artwork (SERVICE.md §5.1), on whichever face it is printed: its <b>oldest</b> English,
     * active printing of kind "card" that has a {@code small} image of that face; ties broken by set code, collector
     * number, id and face. Cards stored before their faces were read ({@code faces_unread}, migration V13) are read
     * first, once.
     */
    public Representatives representatives() {
        readUnreadFaces();
        try (Connection connection = dataSource.getConnection()) {
            List<Representative> artworks = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT DISTINCT ON (illustration_id) illustration_id, id, image_small_uri, face FROM ("
                            + ARTWORKS + ") c WHERE lang = 'en' AND " + ACTIVE + " AND illustration_id IS NOT NULL"
                            + " AND image_small_uri IS NOT NULL AND " + CARD_KIND
                            + " ORDER BY illustration_id, released_at ASC NULLS LAST, set_code, collector_number,"
                            + " id, face")) {
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        int face = rows.getInt(4);
                        artworks.add(new Representative(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class),
                                rows.getString(3), rows.wasNull() ? null : face));
                    }
                }
            }
            long all;
            try (PreparedStatement count = connection.prepareStatement(
                    "SELECT count(DISTINCT illustration_id) FROM (" + ARTWORKS + ") c WHERE lang = 'en' AND "
                            + ACTIVE + " AND illustration_id IS NOT NULL AND " + CARD_KIND);
                    ResultSet rows = count.executeQuery()) {
                rows.next();
                all = rows.getLong(1);
            }
            return new Representatives(artworks, all - artworks.size());
        } catch (SQLException e) {
            throw new TransientFailure("the artworks could not be read: " + e.getMessage(), e);
        }
    }

    /**
     * Reads the faces with their own image of the cards stored before migration V13 from their stored objects, in
     * batches of {@value #UNREAD_BATCH}, each in one transaction. A card a refresh is writing meanwhile is skipped
     * (the refresh writes its faces). Does nothing once every card's faces are read.
     *
     * @return the cards read
     */
    long readUnreadFaces() {
        long read = 0;
        CardMapper mapper = new CardMapper();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            while (true) {
                List<MappedCard> cards = new ArrayList<>();
                List<UUID> ids = new ArrayList<>();
                try (PreparedStatement select = connection.prepareStatement("SELECT id, scryfall FROM card"
                        + " WHERE faces_unread ORDER BY id LIMIT " + UNREAD_BATCH + " FOR UPDATE SKIP LOCKED");
                        ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        UUID id = rows.getObject(1, UUID.class);
                        ids.add(id);
                        try {
                            cards.add(mapper.map(CardObjects.decode(rows.getBytes(2))));
                        } catch (MalformedCardException e) {
                            // it was valid when it was stored; its faces stay unknown, as before
                        }
                    }
                }
                if (ids.isEmpty()) {
                    connection.commit();
                    break;
                }
                try {
                    CardWriter.writeFaceImages(connection, cards, true);
                    try (PreparedStatement update = connection.prepareStatement(
                            "UPDATE card SET faces_unread = false WHERE id = ANY (?)")) {
                        update.setArray(1, connection.createArrayOf("uuid", ids.toArray(UUID[]::new)));
                        update.executeUpdate();
                    }
                    connection.commit();
                } catch (SQLException | RuntimeException e) {
                    connection.rollback();
                    throw e;
                }
                read += ids.size();
            }
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new TransientFailure("the faces of the cards could not be read: " + e.getMessage(), e);
        }
        if (read > 0) {
            Log.infof("read the faces of %d cards stored before their faces were kept", read);
        }
        return read;
    }

    /**
     * The active printings of each of {@code illustrationIds} (any language, any kind), oldest first, each with the
     * face the artwork is on; an artwork without one is absent from the map.
     */
    public Map<UUID, List<Printing>> printingsOf(List<UUID> illustrationIds) {
        Map<UUID, List<Printing>> printings = new LinkedHashMap<>();
        if (illustrationIds.isEmpty()) {
            return printings;
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT illustration_id, id, name, set_code, collector_number, lang, image_small_uri, face,"
                                + " face_name FROM (" + ARTWORKS + ") c WHERE illustration_id = ANY (?) AND " + ACTIVE
                                + " ORDER BY released_at ASC NULLS LAST, set_code, collector_number, id, face")) {
            select.setArray(1, connection.createArrayOf("uuid", illustrationIds.toArray(UUID[]::new)));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    UUID artwork = rows.getObject(1, UUID.class);
                    int face = rows.getInt(8);
                    Integer faceIndex = rows.wasNull() ? null : face;
                    printings.computeIfAbsent(artwork, k -> new ArrayList<>()).add(new Printing(artwork,
                            rows.getObject(2, UUID.class), rows.getString(3), rows.getString(4), rows.getString(5),
                            rows.getString(6), rows.getString(7), faceIndex, rows.getString(9)));
                }
            }
        } catch (SQLException e) {
            throw new TransientFailure("the printings could not be read: " + e.getMessage(), e);
        }
        return printings;
    }
}
