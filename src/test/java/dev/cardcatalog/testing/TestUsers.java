package dev.cardcatalog.testing;

import static io.restassured.RestAssured.given;

import io.restassured.specification.RequestSpecification;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The users of the tests (SERVICE.md §7): {@code operator} with role {@code operator} and {@code viewer} with role
 * {@code viewer}, as in the {@code %test} profile of application.properties. Test passwords, never real ones.
 */
public final class TestUsers {

    public static final String OPERATOR = "operator";
    public static final String OPERATOR_PASSWORD = "operator-test-password";
    public static final String VIEWER = "viewer";
    public static final String VIEWER_PASSWORD = "viewer-test-password";
    /** The operator's {@code Authorization} header value (HTTP Basic), for plain HTTP clients. */
    public static final String OPERATOR_AUTHORIZATION = "Basic " + java.util.Base64.getEncoder().encodeToString(
            (OPERATOR + ":" + OPERATOR_PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8));

    /** The viewer's {@code Authorization} header value (HTTP Basic), for plain HTTP clients. */
    public static final String VIEWER_AUTHORIZATION = "Basic " + java.util.Base64.getEncoder().encodeToString(
            (VIEWER + ":" + VIEWER_PASSWORD).getBytes(java.nio.charset.StandardCharsets.UTF_8));

    private TestUsers() {
    }

    /** A request with the operator's credentials, sent preemptively (HTTP Basic). */
    public static RequestSpecification asOperator() {
        return given().auth().preemptive().basic(OPERATOR, OPERATOR_PASSWORD);
    }

    /** A request with the viewer's credentials, sent preemptively (HTTP Basic). */
    public static RequestSpecification asViewer() {
        return given().auth().preemptive().basic(VIEWER, VIEWER_PASSWORD);
    }

    /** A request without credentials. */
    public static RequestSpecification anonymous() {
        return given().auth().none();
    }

    /**
     * The same users as environment variables of a packaged service, the way a Kubernetes Secret supplies them
     * ({@code QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR}, ...).
     */
    public static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_OPERATOR", OPERATOR_PASSWORD);
        environment.put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_OPERATOR", "operator");
        environment.put("QUARKUS_SECURITY_USERS_EMBEDDED_USERS_VIEWER", VIEWER_PASSWORD);
        environment.put("QUARKUS_SECURITY_USERS_EMBEDDED_ROLES_VIEWER", "viewer");
        return environment;
    }
}
