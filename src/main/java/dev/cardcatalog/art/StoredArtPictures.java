package dev.cardcatalog.art;

import io.quarkus.logging.Log;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The artworks' pictures ({@link ArtPicture}) as the art build stored them in {@code art_fingerprint}, read by the
 * match on its worker thread for the few candidates of a card it takes a second look at: one JDBC query a card
 * (docs/architecture.md, "Data access"), so every replica reads the same pictures and none holds them all in its
 * heap. A picture made with other settings ({@link ArtPicture#DIGEST}) or of another length is never returned.
 *
 * <p>When PostgreSQL cannot answer, the card gets no second look (it stays as the fingerprint left it, never less
 * sure): the match does not fail for it, and a warning is logged.
 */
@ApplicationScoped
public class StoredArtPictures implements ArtPictures {

    private final DataSource dataSource;

    public StoredArtPictures(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Map<UUID, byte[]> of(Collection<UUID> artworkIds) {
        if (artworkIds.isEmpty()) {
            return Map.of();
        }
        Map<UUID, byte[]> pictures = new HashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("""
                        SELECT illustration_id, picture FROM art_fingerprint
                        WHERE illustration_id = ANY (?) AND picture_digest = ?""")) {
            Array ids = connection.createArrayOf("uuid", artworkIds.toArray());
            select.setArray(1, ids);
            select.setString(2, ArtPicture.DIGEST);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    byte[] picture = rows.getBytes(2);
                    if (picture != null && picture.length == ArtPicture.BYTES) {
                        pictures.put(rows.getObject(1, UUID.class), picture);
                    }
                }
            }
            return pictures;
        } catch (SQLException e) {
            Log.warnf("the second look is skipped: the artworks' pictures could not be read: %s", e.getMessage());
            return Map.of();
        }
    }
}
