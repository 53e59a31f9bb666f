package dev.cardcatalog.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Direct SQL on the embedded PostgreSQL, for arranging and checking tests. */
public final class TestDatabase {

    private TestDatabase() {
    }

    public static Connection connect() throws SQLException {
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        return DriverManager.getConnection(postgres.jdbcUrl(), EmbeddedPostgresServer.USER,
                EmbeddedPostgresServer.PASSWORD);
    }

    /** Empties every table the service writes (the schema stays). */
    public static void clear() {
        // before the service's first start the schema may not exist yet
        execute("DO $$ BEGIN IF to_regclass('public.art_build_follow_up') IS NOT NULL THEN "
                + "TRUNCATE card, card_face_image, card_set, catalog_version, job_run, job, quiet_window, art_fingerprint, art_index, "
                + "art_build_follow_up; END IF; END $$");
    }

    public static void execute(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The rows of a query, as column → value maps. */
    public static List<Map<String, Object>> rows(String sql, Object... parameters) {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                List<Map<String, Object>> result = new ArrayList<>();
                int columns = rows.getMetaData().getColumnCount();
                while (rows.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int c = 1; c <= columns; c++) {
                        row.put(rows.getMetaData().getColumnLabel(c), rows.getObject(c));
                    }
                    result.add(row);
                }
                return result;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The single value of a one-row, one-column query. */
    public static Object value(String sql, Object... parameters) {
        List<Map<String, Object>> rows = rows(sql, parameters);
        return rows.isEmpty() ? null : rows.get(0).values().iterator().next();
    }

    public static long count(String sql, Object... parameters) {
        return ((Number) value(sql, parameters)).longValue();
    }
}
