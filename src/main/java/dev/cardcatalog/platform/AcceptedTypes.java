package dev.cardcatalog.platform;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The media types the service's operations take as their body, for a 415's detail: Quarkus REST refuses a body of
 * another type before any resource method is chosen, and says nothing of what the operation takes. Read once, on
 * first use, from the resource classes (the CDI beans annotated {@code @Path}): each method's HTTP method, its path
 * template (a parameter {@code {name}} matching one path segment) and its {@code @Consumes}, or its class's.
 * Thread-safe.
 */
@ApplicationScoped
public class AcceptedTypes {

    private static final Pattern PARAMETER = Pattern.compile("\\{[^}]*}");

    private record Operation(String method, Pattern path, List<String> types) {
    }

    private final BeanManager beans;
    private volatile List<Operation> operations;

    AcceptedTypes(BeanManager beans) {
        this.beans = beans;
    }

    /**
     * The media types the operations at {@code method} and {@code path} take, in the order their {@code @Consumes}
     * names them, without repeats.
     *
     * @param method an HTTP method, any case
     * @param path   the request's path, as {@code UriInfo#getPath()} gives it
     * @return the types; empty when no operation there declares any (then any type is taken, or none is routed)
     */
    public List<String> at(String method, String path) {
        Set<String> types = new LinkedHashSet<>();
        String normalised = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        for (Operation operation : operations()) {
            if (operation.method().equalsIgnoreCase(method) && operation.path().matcher(normalised).matches()) {
                types.addAll(operation.types());
            }
        }
        return List.copyOf(types);
    }

    /**
     * The sentence a 415 says: the types in {@code types} as "a, b or c". Null when there are none.
     */
    public static String sentence(List<String> types) {
        if (types.isEmpty()) {
            return null;
        }
        String list = types.size() == 1 ? types.get(0)
                : String.join(", ", types.subList(0, types.size() - 1)) + " or " + types.get(types.size() - 1);
        return "This operation takes a body of type " + list + ".";
    }

    private List<Operation> operations() {
        List<Operation> known = operations;
        if (known == null) {
            known = read();
            operations = known;
        }
        return known;
    }

    private List<Operation> read() {
        List<Operation> found = new ArrayList<>();
        for (Bean<?> bean : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Class<?> type = bean.getBeanClass();
            Path root = type.getAnnotation(Path.class);
            if (root == null) {
                continue;
            }
            for (Method method : type.getMethods()) {
                String http = httpMethod(method);
                Consumes consumes = method.isAnnotationPresent(Consumes.class) ? method.getAnnotation(Consumes.class)
                        : type.getAnnotation(Consumes.class);
                if (http == null || consumes == null) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                String template = join(root.value(), sub == null ? "" : sub.value());
                List<String> types = Arrays.stream(consumes.value()).flatMap(v -> Arrays.stream(v.split(",")))
                        .map(String::trim).filter(v -> !v.isEmpty()).map(v -> v.toLowerCase(Locale.ROOT)).toList();
                found.add(new Operation(http, pattern(template), types));
            }
        }
        return List.copyOf(found);
    }

    private static String httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (http != null) {
                return http.value();
            }
        }
        return null;
    }

    /** {@code /a} and {@code b/} as {@code /a/b}: one slash between, one at the start, none at the end. */
    static String join(String root, String sub) {
        String joined = "/" + root + "/" + sub;
        joined = joined.replaceAll("/+", "/");
        return joined.length() > 1 && joined.endsWith("/") ? joined.substring(0, joined.length() - 1) : joined;
    }

    /** The template as a pattern: its literal parts quoted, each parameter one path segment. */
    static Pattern pattern(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher parameter = PARAMETER.matcher(template);
        int at = 0;
        while (parameter.find()) {
            regex.append(Pattern.quote(template.substring(at, parameter.start()))).append("[^/]+");
            at = parameter.end();
        }
        regex.append(Pattern.quote(template.substring(at)));
        return Pattern.compile(regex.toString());
    }
}
