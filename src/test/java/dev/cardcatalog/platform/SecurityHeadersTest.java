package dev.cardcatalog.platform;

import static dev.cardcatalog.testing.TestUsers.anonymous;
import static dev.cardcatalog.testing.TestUsers.asOperator;
import static dev.cardcatalog.testing.TestUsers.asViewer;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cardcatalog.testing.CardCatalogTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * The security headers (SERVICE.md §7) on each kind of answer: the admin page, the JSON API, problem answers, the
 * static files and the management port. AccessRulesTest checks the same on every route of the code.
 */
@QuarkusTest
@WithTestResource(CardCatalogTestResource.class)
class SecurityHeadersTest {

    /** The Basic challenge, RFC 7617 §2.1 with the charset the credentials are decoded in. */
    static final String BASIC_CHALLENGE = "Basic realm=\"card-catalog\", charset=\"UTF-8\"";
    /**
     * The {@code /scan} page's policy with the tests' {@code card-catalog.art.image-hosts} (cards.scryfall.io,
     * c1.scryfall.com): the public port's, with images also from the chosen file ({@code blob:}) and the image hosts.
     */
    static final String SCAN_PAGE_POLICY = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'self'; object-src 'none'; img-src 'self' blob: https://cards.scryfall.io "
            + "https://c1.scryfall.com";

    @TestHTTPResource(management = true)
    URL management;

    @Test
    void theAdminPageForbidsFramesInlineScriptAndStoringAndItsCsrfCookieStaysOnThisSite() {
        Response page = asOperator().redirects().follow(false).get("/admin");

        assertThat(page.statusCode()).isEqualTo(200);
        assertEveryAnswersHeaders(page);
        assertThat(page.header("Content-Security-Policy")).contains("default-src 'self'")
                .contains("frame-ancestors 'none'").doesNotContain("unsafe-inline").doesNotContain("unsafe-eval")
                .doesNotContain("script-src").doesNotContain("style-src"); // both fall back to default-src 'self'
        assertThat(page.header("Cache-Control")).isEqualTo("no-store");
        // nothing inline that the policy would refuse: no script without src, no style element or attribute
        assertThat(page.asString()).doesNotContainPattern("<script(?![^>]*\\bsrc=)").doesNotContain("<style")
                .doesNotContainPattern("\\sstyle=").doesNotContainPattern("\\son[a-z]+=")
                .contains("<script src=\"/admin/page.js\" defer></script>")
                .contains("<link rel=\"stylesheet\" href=\"/admin/page.css\">");

        List<String> cookies = page.headers().getValues("Set-Cookie");
        assertThat(cookies).hasSize(1);
        assertThat(cookies.get(0)).startsWith("csrf-token=");
        // attribute names are case-insensitive (RFC 6265 §5.2); Vert.x writes "HTTPOnly"
        List<String> attributes = List.of(cookies.get(0).toLowerCase(java.util.Locale.ROOT).split(";\\s*"));
        assertThat(attributes).contains("samesite=strict", "httponly", "path=/")
                .doesNotContain("secure"); // only when configured (or over HTTPS)
    }

    @Test
    void jsonAnswersAreNotSniffedAndThoseMadeForAUserAreNotStored() {
        Response jobs = asViewer().get("/api/jobs");
        assertThat(jobs.statusCode()).isEqualTo(200);
        assertThat(jobs.contentType()).startsWith("application/json");
        assertEveryAnswersHeaders(jobs);
        assertThat(jobs.header("Cache-Control")).isEqualTo("no-store");

        Response cards = anonymous().queryParam("name", "dusk").get("/api/cards");
        assertThat(cards.statusCode()).isEqualTo(200);
        assertEveryAnswersHeaders(cards);
        assertThat(cards.header("Cache-Control")).as("a public answer").isNotEqualTo("no-store");
    }

    @Test
    void problemAnswersCarryTheHeadersAndTheBasicChallengeNamesItsCharset() {
        Map<String, Response> problems = Map.of(
                "401 without credentials", anonymous().get("/api/jobs"),
                "401 with a wrong password", given().auth().preemptive().basic("operator", "not-it").get("/api/jobs"),
                "403 for a viewer", asViewer().contentType("application/json").body("{}").post("/api/refreshes"),
                "400 for a bad filter", asViewer().queryParam("state", "sideways").get("/api/jobs"),
                "404 for no such route", anonymous().get("/api/nothing-here"),
                "404 outside the API", anonymous().get("/nothing-here"));
        SoftAssertions softly = new SoftAssertions();
        problems.forEach((what, answer) -> {
            softly.assertThat(answer.statusCode()).as(what).isEqualTo(Integer.parseInt(what.substring(0, 3)));
            softly.assertThat(answer.header("X-Content-Type-Options")).as(what).isEqualTo("nosniff");
            softly.assertThat(answer.header("Content-Security-Policy")).as(what)
                    .isEqualTo(SecurityHeaders.CONTENT_SECURITY_POLICY);
            softly.assertThat(answer.header("Referrer-Policy")).as(what).isEqualTo("same-origin");
        });
        softly.assertThat(problems.get("401 without credentials").headers().getValues("WWW-Authenticate"))
                .containsExactly(BASIC_CHALLENGE);
        softly.assertThat(problems.get("401 with a wrong password").headers().getValues("WWW-Authenticate"))
                .containsExactly(BASIC_CHALLENGE);
        softly.assertThat(problems.get("401 without credentials").header("Cache-Control")).isEqualTo("no-store");
        softly.assertThat(problems.get("401 with a wrong password").header("Cache-Control")).isEqualTo("no-store");
        softly.assertThat(problems.get("403 for a viewer").header("Cache-Control")).isEqualTo("no-store");
        softly.assertThat(problems.get("400 for a bad filter").header("Cache-Control")).isEqualTo("no-store");
        softly.assertAll();
    }

    @Test
    void staticFilesAndTheManagementPortCarryTheHeaders() {
        Response script = anonymous().get("/admin/page.js");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.contentType()).contains("javascript");
        assertThat(script.asString()).contains("schedule(document.getElementById('admin'))");
        assertEveryAnswersHeaders(script);
        assertThat(script.header("Cache-Control")).as("public, kept 10 min").contains("max-age=600")
                .doesNotContain("no-store");

        Response style = anonymous().get("/admin/page.css");
        assertThat(style.statusCode()).isEqualTo(200);
        assertThat(style.contentType()).startsWith("text/css");
        assertEveryAnswersHeaders(style);

        for (String path : List.of("health/live", "metrics", "nothing-here")) {
            Response answer = given().get(management + path);
            assertThat(answer.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
            assertThat(answer.header("Referrer-Policy")).as(path).isEqualTo("same-origin");
        }
    }

    @Test
    void everyPageForPeopleSaysItsCharset() {
        Map<String, Response> pages = Map.of("/scan", anonymous().get("/scan"), "/admin", asViewer().get("/admin"));
        pages.forEach((path, page) -> {
            assertThat(page.statusCode()).as(path).isEqualTo(200);
            assertThat(page.header("Content-Type")).as(path).matches("text/html; ?charset=(?i:utf-8)");
        });
    }

    @Test
    void theScanPageAloneMayShowTheChosenPhotoAndTheImageHostsImagesAndNothingElseIsWidened() {
        Response page = anonymous().get("/scan");

        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.header("Content-Security-Policy")).isEqualTo(SCAN_PAGE_POLICY);
        assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(page.header("Referrer-Policy")).isEqualTo("same-origin");
        assertThat(page.headers().getValues("Set-Cookie")).as("a public page sets no CSRF cookie").isEmpty();
        assertThat(page.asString()).doesNotContainPattern("<script(?![^>]*\\bsrc=)").doesNotContain("<style")
                .doesNotContainPattern("\\sstyle=").doesNotContainPattern("\\son[a-z]+=")
                .contains("<script src=\"/scan/page.js\" defer></script>")
                .contains("<link rel=\"stylesheet\" href=\"/scan/page.css\">")
                .contains("data-image-hosts=\"cards.scryfall.io c1.scryfall.com\"")
                .contains("data-max-bytes=\"20971520\"");

        // the page's own files, the match it posts to and every other answer keep the public port's policy
        for (Response other : List.of(anonymous().get("/scan/page.js"), anonymous().get("/scan/page.css"),
                anonymous().contentType("image/jpeg").body(new byte[0]).post("/api/art-index/matches"),
                anonymous().get("/scan/nothing-here"), anonymous().get("/api/art-index"))) {
            assertEveryAnswersHeaders(other);
        }
        assertThat(anonymous().get("/scan/page.js").asString()).contains("'/api/art-index/matches'");
    }

    @Test
    void anImageHostThatIsNotAHostNameCannotWidenThePolicy() {
        assertThat(SecurityHeaders.imageSources(false, List.of("cards.scryfall.io", "Images.Example.org:8443"))
                .policy()).isEqualTo(SecurityHeaders.CONTENT_SECURITY_POLICY
                        + "; img-src 'self' https://cards.scryfall.io https://images.example.org:8443");
        for (String bad : List.of("", "*", "https://cards.scryfall.io", "cards.scryfall.io/small", "a b",
                "cards.scryfall.io; script-src *", "'unsafe-inline'", "-bad.example", "data:", "host\n")) {
            org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                    .as("%s", bad).isThrownBy(() -> SecurityHeaders.imageSources(true, List.of(bad)))
                    .withMessageContaining("not a host name");
        }
    }

    private static void assertEveryAnswersHeaders(Response answer) {
        assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(answer.header("Content-Security-Policy")).isEqualTo(SecurityHeaders.CONTENT_SECURITY_POLICY);
        assertThat(answer.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(answer.header("Referrer-Policy")).isEqualTo("same-origin");
    }
}
