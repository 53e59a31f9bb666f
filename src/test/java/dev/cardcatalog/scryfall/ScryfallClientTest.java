package dev.cardcatalog.scryfall;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.cardcatalog.testing.CardCatalogTestResource;
import dev.cardcatalog.testing.ScryfallStandIn;
import dev.cardcatalog.testing.ScryfallStandIn.Fault;
import dev.cardcatalog.testing.ScryfallStandIn.RecordedRequest;
import dev.cardcatalog.testing.ShortLockoutProfile;
import dev.cardcatalog.testing.TestData;
import dev.cardcatalog.testing.TestDatabase;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Retry-After rule of SERVICE.md §3.2 and the quiet window of §3.3, asserted on the requests the stand-in
 * received and the time between them. The 30 s lockout after a bare 429 is configured down to 2 s; every other
 * number is the default.
 */
@QuarkusTest
@TestProfile(ShortLockoutProfile.class)
@WithTestResource(CardCatalogTestResource.class)
class ScryfallClientTest {

    private static final DateTimeFormatter IMF = DateTimeFormatter
            .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC_850 = DateTimeFormatter
            .ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ASCTIME = DateTimeFormatter
            .ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);

    @Inject
    ScryfallClient client;

    /** Metrics are on the management interface, not the public port. */
    @TestHTTPResource(value = "metrics", management = true)
    URL metricsUrl;

    private final ScryfallStandIn standIn = ScryfallStandIn.shared();

    @BeforeEach
    void reset() {
        TestData.reset();
    }

    @Test
    void waitsTheSecondsRetryAfterAsksThenSucceeds() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "2"));

        assertThat(client.bulkData().await().atMost(Duration.ofSeconds(30))).isNotEmpty();

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(2);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3500));
    }

    @Test
    void endsAtOnceWithoutAskingAgainWhenAskedToWaitLongerThanThirtySeconds() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "31"));
        long start = System.nanoTime();

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(failure).isInstanceOf(RateLimitedException.class);
        assertThat(((RateLimitedException) failure).retryAfter()).contains(Duration.ofSeconds(31));
        assertThat(standIn.requests("/bulk-data")).hasSize(1);
    }

    @Test
    void threeBare429sWaitTheLockoutBetweenAttemptsAndNotAfterTheLast() {
        standIn.enqueue("/bulk-data", Fault.status(429), Fault.status(429), Fault.status(429));

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));
        Instant failedAt = Instant.now();

        assertThat(failure).isInstanceOf(RateLimitedException.class);
        assertThat(((RateLimitedException) failure).retryAfter()).isEmpty();
        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(3);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3500));
        assertThat(gap(requests, 1)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3500));
        assertThat(Duration.between(requests.get(2).receivedAt(), failedAt)).isLessThan(Duration.ofMillis(1000));
    }

    @Test
    void threeBare503sWaitOneThenTwoSecondsAndEndTransient() {
        standIn.enqueue("/bulk-data", Fault.status(503), Fault.status(503), Fault.status(503));

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));
        Instant failedAt = Instant.now();

        assertThat(failure).isInstanceOf(ScryfallUnavailableException.class);
        assertThat(((ScryfallUnavailableException) failure).status()).isEqualTo(503);
        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(3);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(1000), Duration.ofMillis(2000));
        assertThat(gap(requests, 1)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3000));
        assertThat(Duration.between(requests.get(2).receivedAt(), failedAt)).isLessThan(Duration.ofMillis(1000));
    }

    @Test
    void two503sThenAnAnswerSucceeds() {
        standIn.enqueue("/bulk-data", Fault.status(503), Fault.status(502));

        assertThat(client.bulkData().await().atMost(Duration.ofSeconds(30))).isNotEmpty();
        assertThat(standIn.requests("/bulk-data")).hasSize(3);
    }

    @Test
    void a503AskingForTwoMinutesEndsTheCallRateLimited() {
        standIn.enqueue("/bulk-data", Fault.status(503).header("Retry-After", "120"));

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));

        assertThat(failure).isInstanceOf(RateLimitedException.class);
        assertThat(((RateLimitedException) failure).retryAfter()).contains(Duration.ofSeconds(120));
        assertThat(standIn.requests("/bulk-data")).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"imf", "rfc850", "asctime"})
    void anHttpDateIsMeasuredAgainstTheAnswersDateHeaderNotTheLocalClock(String form) {
        // the server's clock is 7 minutes ahead of ours: only its own Date header gives the right wait
        Instant serverNow = Instant.now().plusSeconds(420).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant retryAt = serverNow.plusSeconds(3);
        DateTimeFormatter format = switch (form) {
            case "imf" -> IMF;
            case "rfc850" -> RFC_850;
            default -> ASCTIME;
        };
        standIn.enqueue("/bulk-data", Fault.status(429).header("Date", IMF.format(serverNow))
                .header("Retry-After", format.format(retryAt)));

        client.bulkData().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(2);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(3000), Duration.ofMillis(4500));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0x1F", "1.5"})
    void anUnusableRetryAfterOnA503FallsBackToOneAndTwoSeconds(String value) {
        standIn.enqueue("/bulk-data", Fault.status(503).header("Retry-After", value),
                Fault.status(503).header("Retry-After", value));

        client.bulkData().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(3);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(1000), Duration.ofMillis(2000));
        assertThat(gap(requests, 1)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-5", "0x1F", "1.5"})
    void anUnusableRetryAfterOnA429WaitsTheLockout(String value) {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", value));

        client.bulkData().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(2);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(2000), Duration.ofMillis(3500));
    }

    @Test
    void retryAfterZeroRetriesAtOnce() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "0"));

        client.bulkData().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(2);
        assertThat(gap(requests, 0)).isLessThan(Duration.ofMillis(900));
    }

    @Test
    void aRepeatedRetryAfterCountsByItsLargestValue() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "1").header("Retry-After", "2"));

        client.bulkData().await().atMost(Duration.ofSeconds(30));

        assertThat(gap(standIn.requests("/bulk-data"), 0)).isGreaterThanOrEqualTo(Duration.ofMillis(2000));
    }

    @Test
    void a404IsOneRequestAndAPermanentErrorNamingScryfallsCode() {
        standIn.enqueue("/sets", Fault.status(404).body(
                "{\"object\":\"error\",\"code\":\"not_found\",\"status\":404,\"details\":\"No set found.\"}"));

        Throwable failure = catchThrowable(() -> client.sets().await().atMost(Duration.ofSeconds(30)));

        assertThat(failure).isInstanceOf(ScryfallRequestException.class)
                .hasMessageContaining("404").hasMessageContaining("not_found").hasMessageContaining("No set found.");
        assertThat(standIn.requests("/sets")).hasSize(1);
    }

    @Test
    void aRefusedUserAgentIsOneRequestAndSaysSo() {
        standIn.enqueue("/bulk-data", Fault.status(400).body("{\"object\":\"error\",\"status\":400,"
                + "\"code\":\"bad_request\",\"subcode\":\"generic_user_agent\",\"details\":\"Your User-Agent string "
                + "is currently a default value\\nsupplied by your HTTP library.\"}"));

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(30)));

        assertThat(failure).isInstanceOf(ScryfallRequestException.class)
                .hasMessageContaining("generic_user_agent")
                .hasMessageContaining("User-Agent was refused")
                .hasMessageContaining("card-catalog.scryfall.user-agent");
        assertThat(((ScryfallRequestException) failure).subcode()).isEqualTo("generic_user_agent");
        assertThat(standIn.requests("/bulk-data")).hasSize(1);
    }

    @Test
    void aCutConnectionIsRetriedLikeA5xx() {
        standIn.enqueue("/bulk-data", Fault.cutConnection());

        assertThat(client.bulkData().await().atMost(Duration.ofSeconds(30))).isNotEmpty();

        List<RecordedRequest> requests = standIn.requests("/bulk-data");
        assertThat(requests).hasSize(2);
        assertThat(gap(requests, 0)).isBetween(Duration.ofMillis(1000), Duration.ofMillis(2000));
    }

    @Test
    void aRateLimitSeenByOneCallerMakesAnotherFailFastWithoutARequestUntilTheWindowCloses() throws Exception {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "3"));
        CompletableFuture<List<BulkDataItem>> first = client.bulkData().subscribeAsCompletionStage();
        awaitRequests("/bulk-data", 1);
        awaitOpenQuietWindow(); // the first caller has read the 429 and opened the window

        Throwable second = catchThrowable(() -> client.sets().await().atMost(Duration.ofSeconds(30)));

        assertThat(second).isInstanceOf(RateLimitedException.class).hasMessageContaining("quiet window");
        assertThat(((RateLimitedException) second).retryAfter()).hasValueSatisfying(
                remaining -> assertThat(remaining).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(3)));
        assertThat(standIn.requests("/sets")).isEmpty();

        assertThat(first.get()).isNotEmpty(); // the caller that opened it makes its own next attempt
        assertThat(gap(standIn.requests("/bulk-data"), 0)).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
        assertThat(client.sets().await().atMost(Duration.ofSeconds(30))).hasSize(ScryfallStandIn.SAMPLE_SETS);
    }

    @Test
    void apiRequestsReachScryfallAHundredMillisecondsApart() {
        standIn.setsPageSize(100);

        client.sets().await().atMost(Duration.ofSeconds(30));

        List<RecordedRequest> requests = standIn.requests("/sets");
        assertThat(requests).hasSize(9);
        // the client lets each request go 100 ms after the previous one (RequestSpacingTest); what the stand-in sees
        // also carries the loopback's and the event loop's jitter, a few milliseconds either way
        for (int i = 0; i < requests.size() - 1; i++) {
            assertThat(gap(requests, i)).isGreaterThanOrEqualTo(Duration.ofMillis(80));
        }
        Duration span = Duration.between(requests.get(0).receivedAt(), requests.get(8).receivedAt());
        assertThat(span).isGreaterThanOrEqualTo(Duration.ofMillis(780));
    }

    @Test
    void everyRequestIdentifiesTheServiceAndTheMetricsCountThem() {
        standIn.enqueue("/bulk-data", Fault.status(429).header("Retry-After", "0"));
        client.bulkData().await().atMost(Duration.ofSeconds(30));

        assertThat(standIn.requests("/bulk-data")).allSatisfy(request -> {
            assertThat(request.header("User-Agent")).matches("card-catalog/\\S+ \\(\\+https?://\\S+\\)");
            assertThat(request.header("Accept")).isEqualTo("application/json");
        });
        String metrics = given().get(metricsUrl).then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("scryfall_requests_total\\{[^}]*status=\"429\"[^}]*} [1-9]");
        assertThat(metrics).contains("scryfall_rate_limits_total");
        assertThat(metrics).contains("scryfall_quiet_window_opens_total");
    }

    /** Waits until the stand-in has received {@code count} requests to {@code path}; fails after 10 s. */
    private void awaitRequests(String path, int count) {
        await("the stand-in to receive " + count + " request(s) to " + path).atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20)).until(() -> standIn.requests(path).size() >= count);
    }

    /** Waits until a quiet window is stored and open; fails after 10 s. */
    private static void awaitOpenQuietWindow() {
        await("a quiet window to open").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> !TestDatabase.rows("SELECT scope FROM quiet_window WHERE until > now()").isEmpty());
    }

    @Test
    void anImageAttemptStillGoingAfterTheAttemptTimeoutIsStoppedAndAskedAgain() {
        String url = "https://cards.scryfall.io/small/front/0/0/003367c7-6cb8-4451-8349-76ce5d21e367.jpg?1";
        byte[] whole = client.image(url, 1 << 20).await().atMost(Duration.ofSeconds(30));
        TestData.reset();
        // headers and the first 256 bytes at once, the next only after a minute: no silence reaches the read timeout
        standIn.enqueue("/small/", Fault.slowBody(256, Duration.ofMinutes(1)));

        Instant asked = Instant.now();
        byte[] image = client.image(url, 1 << 20).await().atMost(Duration.ofSeconds(30));

        assertThat(image).isEqualTo(whole);
        List<RecordedRequest> requests = standIn.requests("/small/");
        assertThat(requests).hasSize(2);
        // the 5 s attempt timeout of this profile, then the 1 s wait after a network error, both counted from the
        // first attempt's sending: the stand-in records that request when it arrives, a moment later (11 ms once on
        // a busy machine), so the bound is from before the call, not from the first arrival
        assertThat(Duration.between(asked, requests.get(1).receivedAt()))
                .isGreaterThanOrEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aCallWhoseEveryAttemptStallsEndsUnavailableSayingWhatItWaitedFor() {
        Fault stall = Fault.slowBody(16, Duration.ofMinutes(1));
        standIn.enqueue("/bulk-data", stall, stall, stall);

        Throwable failure = catchThrowable(() -> client.bulkData().await().atMost(Duration.ofSeconds(60)));

        assertThat(failure).isInstanceOf(ScryfallUnavailableException.class)
                .hasMessageContaining("after 3 attempts")
                .hasMessageContaining("stopped after 5 s (card-catalog.scryfall.attempt-timeout), its slot taken, waiting for the answer");
        assertThat(standIn.requests("/bulk-data")).hasSize(3);
    }

    private static Duration gap(List<RecordedRequest> requests, int index) {
        return Duration.between(requests.get(index).receivedAt(), requests.get(index + 1).receivedAt());
    }
}
