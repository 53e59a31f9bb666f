package dev.cardcatalog.platform;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.examples.Example;
import org.eclipse.microprofile.openapi.models.media.MediaType;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;

/**
 * Completes the OpenAPI document at build time (SERVICE.md §9), so that what it says comes from where it is decided:
 * <ul>
 *   <li><b>Words</b>: each operation's {@code summary} and {@code description} are its section of docs/api.md
 *       ({@link ApiMarkdown}), whose relative links are made absolute under the project's docs.</li>
 *   <li><b>Security</b>: the roles are the resource's {@code @RolesAllowed}, which Quarkus puts in a requirement of
 *       the {@value #BASIC} scheme (its own, from its configuration); the same roles are also offered with the
 *       {@value #BEARER} scheme added here (a JWT, where tokens are on). An operation with no requirement is public ({@code @PermitAll}): its {@code security} is set empty, so
 *       no client sends credentials. The roles are also said in words at the end of the description.</li>
 *   <li><b>Problem answers</b>: an operation names the problem types it answers in its {@code x-problems} extension
 *       ({@code @Operation(extensions = @Extension(name = "x-problems", value = "job-in-flight kafka-unavailable"))}), by the last segment of
 *       their {@code type}. Each is an example of the catalogue in META-INF/openapi.yaml
 *       ({@code components/examples}), whose {@code status} says which answer it belongs to; every operation also
 *       answers {@code not-acceptable} (an {@code Accept} without its media type) and {@code internal-error}, and a
 *       protected one {@code unauthorized} and {@code forbidden}. Each status
 *       becomes one {@code application/problem+json} response: a {@code Problem} whose {@code type} is one of its
 *       types, their examples, {@code Retry-After} when they carry {@code retry_after}, {@code WWW-Authenticate} on
 *       a 401 (they replace the bare 401 and 403 Quarkus adds). A catalogue entry no operation names is left out
 *       of the document.</li>
 * </ul>
 * <p>Every POST's 400 also says that a form without the CSRF token is refused, without a body.
 *
 * <p>An {@code x-problems} entry that is not in the catalogue, or a status declared both by the resource and by its
 * problems, fails the build.
 */
@OpenApiFilter(stages = OpenApiFilter.RunStage.BUILD)
public class ApiDocumentFilter implements OASFilter {

    /** The HTTP Basic scheme's name in {@code components/securitySchemes}. */
    public static final String BASIC = "basic";
    /** The bearer token scheme's name. */
    public static final String BEARER = "bearer";
    /** The extension that names an operation's problem types. */
    public static final String PROBLEMS = "x-problems";

    private static final String PROBLEM_SCHEMA = "#/components/schemas/Problem";
    private static final String DOCS = "/blob/main/docs/";
    /**
     * The bearer scheme, added here rather than in META-INF/openapi.yaml: Quarkus's security filter supports one
     * scheme (basic, from its configuration) and warns at every build when it sees two.
     */
    static final String BEARER_DESCRIPTION = "A bearer JWT, accepted only where the operators have switched tokens on "
            + "(`QUARKUS_OIDC_TENANT_ENABLED=true` with the issuer's key or provider: docs/operations.md#security). The "
            + "roles are the token's `groups` claim. Without it a bearer token is refused (401).";
    /** The 400 of a POST sent as a form without the CSRF token. */
    static final String FORM_REFUSAL = "A body sent as an HTML form (`application/x-www-form-urlencoded` or "
            + "`multipart/form-data`) without the admin page's CSRF token is refused by the CSRF filter with a 400 "
            + "without a body, where the operation takes no body (an operation that takes one answers 415 first): "
            + "send JSON, or no body.";

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Map<String, ApiMarkdown.Section> sections = ApiMarkdown.sectionsOnClassPath(loader());
        String docsUrl = ConfigProvider.getConfig().getOptionalValue("card-catalog.project-url", String.class)
                .orElse("https://github.com/card-catalog/card-catalog") + DOCS;
        Components components = openAPI.getComponents();
        components.addSecurityScheme(BEARER, OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("bearer").bearerFormat("JWT").description(BEARER_DESCRIPTION));
        Map<String, Example> catalogue = components == null || components.getExamples() == null ? Map.of()
                : components.getExamples();
        Set<String> named = new LinkedHashSet<>();
        if (openAPI.getPaths() != null && openAPI.getPaths().getPathItems() != null) {
            openAPI.getPaths().getPathItems().forEach((path, item) -> item.getOperations().forEach((method, op) -> {
                String key = method.name() + " " + path;
                ApiMarkdown.Section section = sections.get(key);
                StringBuilder description = new StringBuilder();
                if (section != null) {
                    op.setSummary(section.summary());
                    description.append(section.text(docsUrl));
                }
                List<String> roles = roles(op);
                List<String> problems = new ArrayList<>(problems(op));
                if (roles.isEmpty()) {
                    op.setSecurity(new ArrayList<>());
                    append(description, "**Access**: public, no credentials.");
                } else {
                    op.setSecurity(new ArrayList<>(List.of(requirement(BASIC, roles), requirement(BEARER, roles))));
                    append(description, "**Access**: " + (roles.size() == 1 ? "role `" + roles.get(0) + "`"
                            : "role " + String.join(" or ", roles.stream().map(r -> "`" + r + "`").toList()))
                            + " (HTTP Basic, or a bearer token where tokens are on).");
                    // Quarkus adds a bare 401 and 403 to every protected operation; these are the real ones
                    if (op.getResponses() != null) {
                        op.getResponses().removeAPIResponse("401");
                        op.getResponses().removeAPIResponse("403");
                    }
                    problems.add("unauthorized");
                    problems.add("forbidden");
                }
                problems.add("not-acceptable");
                problems.add("internal-error");
                op.setDescription(description.toString());
                addProblems(key, op, problems, catalogue);
                if (method == PathItem.HttpMethod.POST) {
                    addFormRefusal(op);
                }
                named.addAll(problems);
            }));
        }
        if (!catalogue.isEmpty()) {
            Map<String, Example> used = new TreeMap<>(catalogue);
            used.keySet().retainAll(named);
            components.setExamples(used);
        }
    }

    /** The roles of the operation's Basic requirement (Quarkus's, from {@code @RolesAllowed}); empty when public. */
    private static List<String> roles(Operation op) {
        if (op.getSecurity() == null) {
            return List.of();
        }
        Set<String> roles = new LinkedHashSet<>();
        for (SecurityRequirement requirement : op.getSecurity()) {
            List<String> scopes = requirement.getScheme(BASIC);
            if (scopes != null) {
                roles.addAll(scopes);
            }
        }
        return new ArrayList<>(roles);
    }

    private static SecurityRequirement requirement(String scheme, List<String> roles) {
        return OASFactory.createSecurityRequirement().addScheme(scheme, new ArrayList<>(roles));
    }

    /** The problem types the operation names in {@value #PROBLEMS}; the extension is removed. */
    private static List<String> problems(Operation op) {
        Object value = op.getExtensions() == null ? null : op.getExtensions().get(PROBLEMS);
        if (value == null) {
            return List.of();
        }
        op.removeExtension(PROBLEMS);
        List<String> slugs = new ArrayList<>();
        if (value instanceof List<?> list) {
            list.forEach(v -> slugs.add(String.valueOf(v).strip()));
        } else {
            slugs.addAll(Arrays.stream(String.valueOf(value).split("[\\s,]+")).filter(s -> !s.isEmpty()).toList());
        }
        return slugs;
    }

    private static void addProblems(String key, Operation op, List<String> slugs, Map<String, Example> catalogue) {
        Map<Integer, List<String>> byStatus = new TreeMap<>();
        for (String slug : new LinkedHashSet<>(slugs)) {
            Example example = catalogue.get(slug);
            if (example == null || !(example.getValue() instanceof Map<?, ?> value)) {
                throw new IllegalStateException(key + " names the problem type " + slug + ", which is not in the "
                        + "catalogue (components/examples of META-INF/openapi.yaml)");
            }
            int status = Integer.parseInt(String.valueOf(value.get("status")));
            byStatus.computeIfAbsent(status, s -> new ArrayList<>()).add(slug);
        }
        APIResponses responses = op.getResponses() == null ? OASFactory.createAPIResponses() : op.getResponses();
        Map<String, APIResponse> all = new TreeMap<>(Comparator.naturalOrder());
        if (responses.getAPIResponses() != null) {
            all.putAll(responses.getAPIResponses());
        }
        all.forEach((status, response) -> {
            if (response.getExtensions() != null && response.getExtensions().containsKey(PROBLEMS)) {
                throw new IllegalStateException(key + " names its problems on its " + status + " answer: name them "
                        + "in @Operation(extensions = @Extension(name = \"" + PROBLEMS + "\", ...))");
            }
        });
        byStatus.forEach((status, types) -> {
            if (all.containsKey(String.valueOf(status))) {
                throw new IllegalStateException(key + " declares " + status + " itself and by its problems " + types
                        + ": declare it one way");
            }
            all.put(String.valueOf(status), response(types, catalogue));
        });
        responses.setAPIResponses(new LinkedHashMap<>(all));
        op.setResponses(responses);
    }

    /**
     * Quarkus's CSRF filter is global: a POST sent as an HTML form without the admin page's token is refused on every
     * endpoint, with a 400 without a body (docs/api.md#access). Said on the 400 of every POST, made when it has none.
     */
    private static void addFormRefusal(Operation op) {
        APIResponse refusal = op.getResponses().getAPIResponse("400");
        if (refusal == null) {
            refusal = OASFactory.createAPIResponse().description("");
            Map<String, APIResponse> all = new TreeMap<>(op.getResponses().getAPIResponses());
            all.put("400", refusal);
            op.getResponses().setAPIResponses(new LinkedHashMap<>(all));
        }
        StringBuilder description = new StringBuilder(refusal.getDescription() == null ? ""
                : refusal.getDescription());
        append(description, FORM_REFUSAL);
        refusal.setDescription(description.toString());
    }

    /** One status's answer: a Problem of one of {@code types}, with their examples and headers. */
    private static APIResponse response(List<String> types, Map<String, Example> catalogue) {
        MediaType problem = OASFactory.createMediaType().schema(problemOf(types));
        StringBuilder description = new StringBuilder();
        boolean retryAfter = false;
        int status = 0;
        for (String slug : types) {
            Example example = catalogue.get(slug);
            Map<?, ?> value = (Map<?, ?>) example.getValue();
            status = Integer.parseInt(String.valueOf(value.get("status")));
            retryAfter |= value.containsKey("retry_after");
            problem.addExample(slug, OASFactory.createExample().ref(slug));
            append(description, "`" + slug + "`: " + Optional.ofNullable(example.getSummary()).orElse(""));
        }
        APIResponse response = OASFactory.createAPIResponse().description(description.toString())
                .content(OASFactory.createContent().addMediaType(Problem.MEDIA_TYPE, problem));
        if (retryAfter) {
            response.addHeader("Retry-After", OASFactory.createHeader().ref("Retry-After"));
        }
        if (status == 401) {
            response.addHeader("WWW-Authenticate", OASFactory.createHeader().ref("WWW-Authenticate"));
        }
        return response;
    }

    /** A Problem whose {@code type} is one of the types named. */
    private static Schema problemOf(List<String> slugs) {
        Schema type = OASFactory.createSchema().addType(Schema.SchemaType.STRING);
        if (slugs.size() == 1) {
            type.setConstValue(Problem.TYPE_BASE + slugs.get(0));
        } else {
            type.setEnumeration(new ArrayList<>(slugs.stream().map(s -> (Object) (Problem.TYPE_BASE + s)).toList()));
        }
        return OASFactory.createSchema()
                .addAllOf(OASFactory.createSchema().ref(PROBLEM_SCHEMA))
                .addAllOf(OASFactory.createSchema().addProperty("type", type));
    }

    private static void append(StringBuilder text, String paragraph) {
        if (!text.isEmpty()) {
            text.append("\n\n");
        }
        text.append(paragraph);
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : ApiDocumentFilter.class.getClassLoader();
    }
}
