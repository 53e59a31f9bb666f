package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The bundled sample's artworks as the tests expect them (SERVICE.md §5.1), worked out from the card objects
 * independently of the service, and the refresh that makes the service build them.
 */
public final class SampleArtworks {

    /** The fingerprint rows of this JVM's first whole build of the sample, or null before it. */
    private static List<Map<String, Object>> keptFingerprints;

    private SampleArtworks() {
    }

    /** Applies a refresh and returns the id of the art build it started. */
    public static String refreshThenBuildId() {
        String refresh = Jobs.postRefresh("manual");
        assertThat(Jobs.awaitFinished(refresh).getString("state")).isEqualTo("succeeded");
        String[] build = new String[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var rows = TestDatabase.rows("SELECT id::text AS id FROM job WHERE kind = 'art-build' AND source = ?",
                    "after refresh " + refresh);
            build[0] = rows.isEmpty() ? null : (String) rows.get(0).get("id");
            return build[0] != null;
        });
        return build[0];
    }

    /**
     * Starts from an empty service ({@link TestData#reset()}), applies a refresh and waits for the art build it
     * starts to succeed (it must not stand still for 120 s): the index of the bundled sample, for tests that match
     * against it. The fingerprints are those this JVM computed before ({@link #refreshThenBuildReusingFingerprints()}).
     */
    public static void buildTheSampleIndex() {
        TestData.reset();
        assertThat(refreshThenBuildReusingFingerprints().getString("state")).isEqualTo("succeeded");
    }

    /**
     * Applies a refresh and waits for the art build it starts to finish, as {@link #refreshThenBuildId()} does, for
     * tests whose subject is what happens to an index, not how its fingerprints are made: the fingerprints this JVM
     * computed before are put back first ({@link #putBackFingerprints()}), so the build fetches and fingerprints
     * nothing; the first such build in a JVM computes them ({@link #keepFingerprints}).
     *
     * @return the finished build job as the API shows it
     */
    public static JsonPath refreshThenBuildReusingFingerprints() {
        putBackFingerprints();
        JsonPath build = Jobs.awaitState(refreshThenBuildId(), Duration.ofSeconds(120), Jobs.FINISHED);
        keepFingerprints(build);
        return build;
    }

    /**
     * Puts back into {@code art_fingerprint} the rows of the whole sample that an earlier build in this JVM computed
     * ({@link #keepFingerprints}): a build of the sample after it has all its artworks {@code already}. Does nothing
     * before such a build. The rows are the service's own, written by its build with its settings digest, never made
     * here; {@code ArtBuildTest} tests the build that makes them.
     */
    public static void putBackFingerprints() {
        List<Map<String, Object>> kept;
        synchronized (SampleArtworks.class) {
            kept = keptFingerprints;
        }
        if (kept == null) {
            return;
        }
        String[] columns = {"illustration_id", "card_id", "image_uri", "image_version", "settings_digest",
            "fingerprint", "fingerprinted_at", "picture", "picture_digest"};
        try (java.sql.Connection connection = TestDatabase.connect();
                java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO art_fingerprint ("
                        + String.join(", ", columns) + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (Map<String, Object> row : kept) {
                for (int c = 0; c < columns.length; c++) {
                    insert.setObject(c + 1, row.get(columns[c]));
                }
                insert.addBatch();
            }
            insert.executeBatch(); // one connection and one batch for the 852 rows
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("putting back the sample's fingerprints", e);
        }
    }

    /**
     * Keeps this JVM's {@code art_fingerprint} rows for {@link #putBackFingerprints()} when none are kept yet and
     * {@code build} (finished) fingerprinted every artwork of the sample without a failed image.
     */
    public static void keepFingerprints(JsonPath build) {
        synchronized (SampleArtworks.class) {
            if (keptFingerprints != null || !build.getString("state").equals("succeeded")
                    || build.getLong("runs[0].counts.failed") != 0
                    || build.getLong("runs[0].counts.fingerprinted") != build.getLong("runs[0].counts.artworks")) {
                return;
            }
            keptFingerprints = List.copyOf(TestDatabase.rows("SELECT * FROM art_fingerprint"));
        }
    }

    /**
     * An artwork of the bundled sample as the test expects it: the card id of its representative printing, the face
     * of that printing it is on (0 for the front or the card's one image) and that face's {@code small} image URL.
     */
    public record Expected(String cardId, int face, String small) {

        /** The path of the image on the stand-in (the sample links two Scryfall image hosts). */
        public String imagePath() {
            return java.net.URI.create(small).getPath();
        }

        /** The seed of the picture the stand-in draws for it. */
        public long seed() {
            return ScryfallStandIn.imageSeedOf(small);
        }
    }

    /**
     * The artworks of the bundled sample worked out here from the card objects, independently of the service's
     * SQL (SERVICE.md §5.1): illustration id → its oldest English paper printing of kind "card" with a small image of
     * the face it is on. A card whose faces have their own {@code image_uris} gives one artwork per face; any other
     * card one, its own.
     */
    public static Map<String, Expected> expectedArtworks() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> best = new HashMap<>();
        Map<String, Expected> chosen = new HashMap<>();
        for (String line : ScryfallStandIn.sampleCardLines()) {
            JsonNode card = json.readTree(line);
            boolean paper = false;
            for (JsonNode game : card.path("games")) {
                paper |= game.asText().equals("paper");
            }
            String layout = card.path("layout").asText();
            if (!paper || card.path("digital").asBoolean(false) || !card.path("lang").asText().equals("en")
                    || Set.of("token", "double_faced_token", "emblem", "art_series").contains(layout)) {
                continue;
            }
            List<Expected> faces = new ArrayList<>();
            List<String> illustrations = new ArrayList<>();
            JsonNode cardFaces = card.path("card_faces");
            for (int k = 0; k < cardFaces.size(); k++) {
                JsonNode face = cardFaces.get(k);
                if (face.has("image_uris")) {
                    faces.add(new Expected(card.get("id").asText(), k, face.path("image_uris").path("small")
                            .asText(null)));
                    illustrations.add(face.path("illustration_id").asText(null));
                }
            }
            if (faces.isEmpty()) {
                JsonNode first = cardFaces.path(0);
                faces.add(new Expected(card.get("id").asText(), 0, card.path("image_uris").path("small")
                        .asText(null)));
                illustrations.add(first.hasNonNull("illustration_id") ? first.get("illustration_id").asText()
                        : card.path("illustration_id").asText(null));
            }
            for (int k = 0; k < faces.size(); k++) {
                String illustration = illustrations.get(k);
                Expected face = faces.get(k);
                if (illustration == null || face.small() == null) {
                    continue;
                }
                JsonNode current = best.get(illustration);
                if (current == null || !older(current, card) || current == card && face.face() < chosen.get(
                        illustration).face()) {
                    best.put(illustration, card);
                    chosen.put(illustration, face);
                }
            }
        }
        return chosen;
    }

    private static boolean older(JsonNode a, JsonNode b) {
        Comparator<JsonNode> order = Comparator
                .comparing((JsonNode c) -> c.path("released_at").asText("9999-99-99"))
                .thenComparing(c -> c.path("set").asText())
                .thenComparing(c -> c.path("collector_number").asText())
                .thenComparing(c -> c.path("id").asText());
        return order.compare(a, b) <= 0;
    }
}
