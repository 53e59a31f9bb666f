package dev.cardcatalog.catalog;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cardcatalog.scryfall.ScryfallSet;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Stores Scryfall's sets (SERVICE.md §4.4): an upsert by id in one transaction, rewriting a row only when its
 * Scryfall object changed.
 */
@ApplicationScoped
public class SetWriter {

    private static final String UPSERT = """
            INSERT INTO card_set (id, code, name, set_type, released_at, card_count, parent_set_code, digital,
                                  icon_svg_uri, scryfall, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)
            ON CONFLICT (id) DO UPDATE SET code = EXCLUDED.code, name = EXCLUDED.name, set_type = EXCLUDED.set_type,
                released_at = EXCLUDED.released_at, card_count = EXCLUDED.card_count,
                parent_set_code = EXCLUDED.parent_set_code, digital = EXCLUDED.digital,
                icon_svg_uri = EXCLUDED.icon_svg_uri, scryfall = EXCLUDED.scryfall, updated_at = EXCLUDED.updated_at
            WHERE card_set.scryfall IS DISTINCT FROM EXCLUDED.scryfall
            """;

    private final DataSource dataSource;
    private final ObjectMapper json;

    public SetWriter(DataSource dataSource, ObjectMapper json) {
        this.dataSource = dataSource;
        this.json = json;
    }

    /** Stores {@code sets}; a set without an id or code is skipped. Returns the number of sets stored. */
    int upsert(List<ScryfallSet> sets, Instant now) throws SQLException {
        int stored = 0;
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
                for (ScryfallSet set : sets) {
                    UUID id = uuid(set.id());
                    if (id == null || set.code() == null || set.name() == null) {
                        continue;
                    }
                    upsert.setObject(1, id);
                    upsert.setString(2, set.code().toLowerCase(java.util.Locale.ROOT));
                    upsert.setString(3, set.name());
                    upsert.setString(4, set.setType());
                    upsert.setObject(5, date(set.releasedAt()));
                    upsert.setObject(6, set.cardCount());
                    upsert.setString(7, set.parentSetCode());
                    upsert.setBoolean(8, set.digital());
                    upsert.setString(9, set.iconSvgUri());
                    upsert.setString(10, json.writeValueAsString(set.raw()));
                    upsert.setTimestamp(11, Timestamp.from(now));
                    upsert.addBatch();
                    stored++;
                }
                upsert.executeBatch();
                connection.commit();
            } catch (SQLException | RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
                connection.rollback();
                if (e instanceof SQLException sql) {
                    throw sql;
                }
                throw new IllegalStateException("could not store sets", e);
            }
        }
        return stored;
    }

    private static UUID uuid(String text) {
        try {
            return text == null ? null : UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static LocalDate date(String text) {
        try {
            return text == null ? null : LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
