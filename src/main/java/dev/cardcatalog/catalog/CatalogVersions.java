package dev.cardcatalog.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.platform.TransientFailure;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The bulk file versions applied to the catalog, per language set ({@code catalog_version}): the skip rule for
 * scheduled refreshes (SERVICE.md §4.2) and the catalog version the art index is named after (§5.8).
 */
@ApplicationScoped
public class CatalogVersions {

    private final DataSource dataSource;
    private final ObjectMapper json;

    public CatalogVersions(DataSource dataSource, ObjectMapper json) {
        this.dataSource = dataSource;
        this.json = json;
    }

    /** True when {@code version} was applied with exactly these languages. */
    public boolean applied(String version, String languages) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT 1 FROM catalog_version WHERE version = ? AND languages = ?")) {
            select.setString(1, version);
            select.setString(2, languages);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next();
            }
        } catch (SQLException e) {
            throw new TransientFailure("could not read catalog versions: " + e.getMessage(), e);
        }
    }

    /** The most recently applied version, if any: the catalog version. */
    public Optional<String> current() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT version FROM catalog_version ORDER BY applied_at DESC LIMIT 1");
                ResultSet rows = select.executeQuery()) {
            return rows.next() ? Optional.of(rows.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            throw new TransientFailure("could not read catalog versions: " + e.getMessage(), e);
        }
    }

    void record(String version, String languages, Instant at, Map<String, Long> counts) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement upsert = connection.prepareStatement("""
                        INSERT INTO catalog_version (version, languages, applied_at, counts) VALUES (?, ?, ?, ?::jsonb)
                        ON CONFLICT (version, languages) DO UPDATE SET applied_at = EXCLUDED.applied_at,
                            counts = EXCLUDED.counts
                        """)) {
            upsert.setString(1, version);
            upsert.setString(2, languages);
            upsert.setTimestamp(3, Timestamp.from(at));
            upsert.setString(4, json.writeValueAsString(counts));
            upsert.executeUpdate();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
