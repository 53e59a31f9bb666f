package dev.cardcatalog.scryfall;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ShortRetryProfile;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The quiet window's bounds (SERVICE.md §3.3): whatever wait an answer asks for, no exception escapes the call and
 * no window outlives {@code quiet-window-max} (1 h); an operator closes a window early, recorded with who and when.
 * Generated values as in {@link RetryAfterPropertiesTest}: a failure names the seed; rerun it with
 * {@code -Dquietwindow.seed=<seed>}. MAX_BACK_OFF is 1 s here ({@link ShortRetryProfile}): an answer that asks for
 * more ends the call at once and opens a window, one that asks for 1 s or less is waited for and the call tried again.
 */
@QuarkusTest
@TestProfile(ShortRetryProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class QuietWindowTest {

    private static final long SEED = Long.getLong("quietwindow.seed", new SplittableRandom().nextLong());
    private static final int TRIES = 30;
    private static final Duration CAP = Duration.ofHours(1);

    private static final DateTimeFormatter IMF = DateTimeFormatter
            .ofPattern("EEE, dd MMM uuuu HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC_850 = DateTimeFormatter
            .ofPattern("EEEE, dd-MMM-uu HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ASCTIME = DateTimeFormatter
            .ofPattern("EEE MMM ppd HH:mm:ss uuuu", Locale.US).withZone(ZoneOffset.UTC);

    @Inject
    ScryfallClient client;

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void theAbsurdRetryAfterOfTheIssueOpensAWindowOfOneHourAtMost() {
        assertBounded("10000000000000");
        assertBounded("9".repeat(100));
    }

    @Test
    void noDigitRunOfOneToAHundredDigitsEscapesTheCallOrOutlivesTheCap() {
        Random random = new Random(SEED);
        for (int i = 0; i < TRIES; i++) {
            int length = 1 + random.nextInt(100);
            StringBuilder digits = new StringBuilder();
            for (int d = 0; d < length; d++) {
                digits.append((char) ('0' + random.nextInt(10)));
            }
            assertBounded(digits.toString());
        }
    }

    @Test
    void noHttpDateFromYearOneToNineThousandNineHundredNinetyNineEscapesTheCallOrOutlivesTheCap() {
        Random random = new Random(SEED);
        List<String> values = new ArrayList<>(List.of(IMF.format(LocalDateTime.of(9999, 12, 31, 23, 59, 59)
                .toInstant(ZoneOffset.UTC)), IMF.format(LocalDateTime.of(1, 1, 1, 0, 0).toInstant(ZoneOffset.UTC))));
        for (int i = 0; i < TRIES; i++) {
            Instant date = LocalDateTime.of(1 + random.nextInt(9999), 1 + random.nextInt(12), 1 + random.nextInt(28),
                    random.nextInt(24), random.nextInt(60), random.nextInt(60)).toInstant(ZoneOffset.UTC);
            DateTimeFormatter form = switch (random.nextInt(3)) {
                case 0 -> IMF;
                case 1 -> RFC_850;
                default -> ASCTIME;
            };
            values.add(form.format(date));
        }
        values.forEach(this::assertBounded);
    }

    @Test
    void anOperatorClosesAWindowEarlyAndTheGetShowsWhoAndWhen() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "600"));
        assertThat(catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30))))
                .isInstanceOf(RateLimitedException.class);
        String scope = ScryfallCalls.scope(java.net.URI.create(standIn.baseUrl()));
        assertThat(catchThrowable(() -> client.sets().await().atMost(Duration.ofSeconds(30))))
                .isInstanceOf(RateLimitedException.class).hasMessageContaining("quiet window");

        JsonPath open = operator().get("/api/scryfall/quiet-windows").then().statusCode(200)
                .extract().jsonPath();
        assertThat(open.getList("scope")).containsExactly(scope);
        assertThat(open.getBoolean("[0].open")).isTrue();
        assertThat(open.getString("[0].closed_at")).isNull();

        Instant before = Instant.now().minusSeconds(1);
        operator().post("/api/scryfall/quiet-windows/" + scope + "/close").then().statusCode(200)
                .body("scope", equalTo(scope)).body("open", equalTo(false))
                .body("closed_by", notNullValue()).body("closed_at", notNullValue());

        JsonPath closed = operator().get("/api/scryfall/quiet-windows/" + scope).then().statusCode(200)
                .extract().jsonPath();
        assertThat(closed.getBoolean("open")).isFalse();
        assertThat(closed.getString("closed_by")).isEqualTo("operator");
        assertThat(Instant.parse(closed.getString("closed_at"))).isAfter(before).isBeforeOrEqualTo(Instant.now());
        assertThat(Instant.parse(closed.getString("until"))).isBeforeOrEqualTo(Instant.now());
        assertThat(client.sets().await().atMost(Duration.ofSeconds(30))).hasSize(ScryfallStandIn.SAMPLE_SETS);

        operator().post("/api/scryfall/quiet-windows/" + scope + "/close").then().statusCode(409)
                .contentType("application/problem+json")
                .body("type", equalTo("https://card-catalog.dev/problems/quiet-window-not-open"));
        operator().post("/api/scryfall/quiet-windows/nowhere.example/close").then().statusCode(404)
                .contentType("application/problem+json");
    }

    /** One 429 asking for {@code retryAfter}: the call ends without an exception of its own, the window is bounded. */
    private void assertBounded(String retryAfter) {
        TestDatabase.execute("DELETE FROM quiet_window");
        standIn.reset();
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", retryAfter));
        Instant before = Instant.now();

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));

        String sample = "Retry-After: " + retryAfter + " (seed " + SEED + ")";
        if (failure != null) {
            assertThat(failure).as(sample).isInstanceOf(RateLimitedException.class);
        }
        for (Map<String, Object> window : TestDatabase.rows("SELECT until FROM quiet_window")) {
            Instant until = ((Timestamp) window.get("until")).toInstant();
            assertThat(until).as(sample).isBeforeOrEqualTo(Instant.now().plus(CAP)).isAfterOrEqualTo(before);
        }
    }

    /** The operator's requests; a POST carries no form (a form needs the admin page's CSRF token). */
    private static io.restassured.specification.RequestSpecification operator() {
        return given().auth().preemptive().basic("operator", "operator-test-password")
                .contentType("application/json");
    }
}
