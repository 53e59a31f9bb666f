package dev.cardcatalog.catalog;

import dev.cardcatalog.platform.TransientFailure;
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
 * and the printings of an artwork. The rules of the {@code card} table are kept here, with the table: a printing is
 * <b>active</b> while it is not retired, and of kind <b>"card"</b> unless its layout is a token, an emblem or an
 * art-series card. The catalog holds paper cards only.
 *
 * <p>Errors: a database failure is a {@link TransientFailure} (the job is retried).
 */
@ApplicationScoped
public class ArtworkPrintings {

    static final String ACTIVE = "retired_at IS NULL";
    static final String CARD_KIND = "layout NOT IN ('token', 'double_faced_token', 'emblem', 'art_series')";

    private final DataSource dataSource;

    public ArtworkPrintings(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The printing that represents an artwork: its card's id and its front face's {@code small} image URL. */
    public record Representative(UUID illustrationId, UUID cardId, String imageSmallUri) {
    }

    /**
     * @param artworks     one per {@code illustration_id}, in {@code illustration_id} order
     * @param withoutImage artworks whose active English printings of kind "card" have no {@code small} image
     */
    public record Representatives(List<Representative> artworks, long withoutImage) {
    }

    /** An active printing of an artwork. */
    public record Printing(UUID illustrationId, UUID id, String name, String setCode, String collectorNumber,
            String lang, String imageSmallUri) {
    }

    /**
     * One representative per artwork: its <b>oldest</b> English, active printing of kind "card" whose front face has
     * a {@code small} image; ties broken by set code, collector number and id.
     */
    public Representatives representatives() {
        try (Connection connection = dataSource.getConnection()) {
            List<Representative> artworks = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT DISTINCT ON (illustration_id) illustration_id, id, image_small_uri FROM card"
                            + " WHERE lang = 'en' AND " + ACTIVE + " AND illustration_id IS NOT NULL"
                            + " AND image_small_uri IS NOT NULL AND " + CARD_KIND
                            + " ORDER BY illustration_id, released_at ASC NULLS LAST, set_code, collector_number,"
                            + " id")) {
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        artworks.add(new Representative(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class),
                                rows.getString(3)));
                    }
                }
            }
            long all;
            try (PreparedStatement count = connection.prepareStatement(
                    "SELECT count(DISTINCT illustration_id) FROM card WHERE lang = 'en' AND " + ACTIVE
                            + " AND illustration_id IS NOT NULL AND " + CARD_KIND);
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
     * The active printings of each of {@code illustrationIds} (any language, any kind), oldest first; an artwork
     * without one is absent from the map.
     */
    public Map<UUID, List<Printing>> printingsOf(List<UUID> illustrationIds) {
        Map<UUID, List<Printing>> printings = new LinkedHashMap<>();
        if (illustrationIds.isEmpty()) {
            return printings;
        }
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT illustration_id, id, name, set_code, collector_number, lang, image_small_uri FROM card"
                                + " WHERE illustration_id = ANY (?) AND " + ACTIVE
                                + " ORDER BY released_at ASC NULLS LAST, set_code, collector_number, id")) {
            select.setArray(1, connection.createArrayOf("uuid", illustrationIds.toArray(UUID[]::new)));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    UUID artwork = rows.getObject(1, UUID.class);
                    printings.computeIfAbsent(artwork, k -> new ArrayList<>()).add(new Printing(artwork,
                            rows.getObject(2, UUID.class), rows.getString(3), rows.getString(4), rows.getString(5),
                            rows.getString(6), rows.getString(7)));
                }
            }
        } catch (SQLException e) {
            throw new TransientFailure("the printings could not be read: " + e.getMessage(), e);
        }
        return printings;
    }
}
