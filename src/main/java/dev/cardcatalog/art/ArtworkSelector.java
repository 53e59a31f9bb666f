package dev.cardcatalog.art;

import dev.cardcatalog.platform.TransientFailure;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Chooses the artworks of the art index from the catalog (SERVICE.md §5.1, FINGERPRINT.md §1): one per
 * {@code illustration_id}, represented by its <b>oldest</b> English, active printing of kind "card" whose front face
 * has a {@code small} image; ties broken by set code, collector number and id. The catalog holds paper cards only.
 * Printings of kind "card" are those whose layout is not a token, an emblem or an art-series card.
 */
@ApplicationScoped
public class ArtworkSelector {

    static final String CARD_KIND = "layout NOT IN ('token', 'double_faced_token', 'emblem', 'art_series')";

    private final DataSource dataSource;

    public ArtworkSelector(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** The artworks, and how many have no printing with an image. */
    public record Selection(List<Artwork> artworks, long withoutImage) {
    }

    public Selection select() {
        try (Connection connection = dataSource.getConnection()) {
            List<Artwork> artworks = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT DISTINCT ON (illustration_id) illustration_id, id, image_small_uri FROM card"
                            + " WHERE lang = 'en' AND retired_at IS NULL AND illustration_id IS NOT NULL"
                            + " AND image_small_uri IS NOT NULL AND " + CARD_KIND
                            + " ORDER BY illustration_id, released_at ASC NULLS LAST, set_code, collector_number, id")) {
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        artworks.add(new Artwork(rows.getObject(1, UUID.class), rows.getObject(2, UUID.class),
                                rows.getString(3)));
                    }
                }
            }
            long all;
            try (PreparedStatement count = connection.prepareStatement(
                    "SELECT count(DISTINCT illustration_id) FROM card WHERE lang = 'en' AND retired_at IS NULL"
                            + " AND illustration_id IS NOT NULL AND " + CARD_KIND);
                    ResultSet rows = count.executeQuery()) {
                rows.next();
                all = rows.getLong(1);
            }
            return new Selection(artworks, all - artworks.size());
        } catch (SQLException e) {
            throw new TransientFailure("the artworks could not be read: " + e.getMessage(), e);
        }
    }

    /** The image version each artwork was fingerprinted at with {@code digest}. */
    public Map<UUID, String> fingerprinted(String digest) {
        Map<UUID, String> versions = new HashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT illustration_id, coalesce(image_version, '') FROM art_fingerprint WHERE settings_digest = ?")) {
            select.setString(1, digest);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getObject(1, UUID.class), rows.getString(2));
                }
            }
            return versions;
        } catch (SQLException e) {
            throw new TransientFailure("the fingerprints could not be read: " + e.getMessage(), e);
        }
    }
}
