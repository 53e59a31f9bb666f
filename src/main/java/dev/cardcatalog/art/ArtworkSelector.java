package dev.cardcatalog.art;

import dev.cardcatalog.catalog.ArtworkPrintings;
import dev.cardcatalog.platform.TransientFailure;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Chooses the artworks of the art index from the catalog (SERVICE.md §5.1, FINGERPRINT.md §1): one per
 * {@code illustration_id}, on whichever face it is printed, represented by the printing {@link ArtworkPrintings#representatives()} picks (the catalog
 * keeps the rules of its table), and reads which artworks are fingerprinted already.
 */
@ApplicationScoped
public class ArtworkSelector {

    private final DataSource dataSource;
    private final ArtworkPrintings catalog;

    public ArtworkSelector(DataSource dataSource, ArtworkPrintings catalog) {
        this.dataSource = dataSource;
        this.catalog = catalog;
    }

    /** The artworks, and how many have no printing with an image. */
    public record Selection(List<Artwork> artworks, long withoutImage) {
    }

    public Selection select() {
        ArtworkPrintings.Representatives chosen = catalog.representatives();
        return new Selection(chosen.artworks().stream()
                .map(r -> new Artwork(r.illustrationId(), r.cardId(), r.imageSmallUri(),
                        r.face() == null ? 0 : r.face())).toList(),
                chosen.withoutImage());
    }

    /**
     * The image version each artwork was fingerprinted at with {@code digest} and pictured at with
     * {@code pictureDigest} ({@link ArtPicture}): an artwork missing either is not done.
     */
    public Map<UUID, String> fingerprinted(String digest, String pictureDigest) {
        Map<UUID, String> versions = new HashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                        SELECT illustration_id, coalesce(image_version, '') FROM art_fingerprint
                        WHERE settings_digest = ? AND picture_digest = ?""")) {
            select.setString(1, digest);
            select.setString(2, pictureDigest);
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
