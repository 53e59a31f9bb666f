package dev.cardcatalog.platform;

/**
 * The last paragraph of each operation's description in the OpenAPI document: who may call it, in words, as its
 * {@code @SecurityRequirement}s say it to programs (the schemes {@code basic} and {@code bearer} of
 * META-INF/openapi.yaml, each enough) and as its {@code @RolesAllowed} or {@code @PermitAll} enforces it
 * (SERVICE.md §7). OpenApiDocumentTest holds the three to the access rules.
 */
public final class ApiAccess {

    /** An operation anyone may call ({@code @PermitAll}, {@code security: []}). */
    public static final String PUBLIC = "**Access**: public, no credentials.";
    /** An operation for the roles {@code viewer} and {@code operator}. */
    public static final String VIEWER = "**Access**: role `viewer` or `operator` (HTTP Basic, or a bearer token where "
            + "tokens are on).";
    /** An operation for the role {@code operator}. */
    public static final String OPERATOR = "**Access**: role `operator` (HTTP Basic, or a bearer token where tokens "
            + "are on).";

    private ApiAccess() {
    }
}
