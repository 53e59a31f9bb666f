package dev.cardcatalog.testing;

import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.MatrixParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Every Jakarta REST route the service's code declares, read from its compiled classes: the resource classes
 * ({@code @Path}) under {@code dev.cardcatalog} and their methods with an HTTP method. What the routes are, whatever
 * the OpenAPI document shows of them (it leaves the pages for people out).
 */
public final class JaxRsRoutes {

    /** Parameter types Quarkus REST injects rather than reads from the body. */
    private static final Set<String> INJECTED = Set.of("io.vertx.ext.web.RoutingContext",
            "io.vertx.core.http.HttpServerRequest", "io.vertx.core.http.HttpServerResponse",
            "jakarta.ws.rs.core.SecurityContext", "jakarta.ws.rs.core.UriInfo", "jakarta.ws.rs.core.HttpHeaders",
            "jakarta.ws.rs.core.Request");
    private static final Set<Class<? extends Annotation>> NOT_BODY = Set.of(PathParam.class, QueryParam.class,
            HeaderParam.class, CookieParam.class, FormParam.class, MatrixParam.class, BeanParam.class, Context.class);

    /**
     * A route: {@code path} as the OpenAPI document writes it ({@code /api/jobs/{id}}), the class and method that
     * serve it, and the media type of its body when it reads one (the first it consumes).
     */
    public record Route(String method, String path, Class<?> resource, String javaMethod, Optional<String> bodyType) {

        public String key() {
            return method + " " + path;
        }
    }

    private JaxRsRoutes() {
    }

    /** The routes, ordered by path and method. */
    public static List<Route> all() {
        List<Route> routes = new ArrayList<>();
        for (Class<?> type : resourceClasses()) {
            String base = type.getAnnotation(Path.class).value();
            for (Method method : type.getMethods()) {
                Optional<String> verb = Stream.of(method.getAnnotations())
                        .map(a -> a.annotationType().getAnnotation(HttpMethod.class)).filter(h -> h != null)
                        .map(HttpMethod::value).findFirst();
                if (verb.isEmpty()) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                routes.add(new Route(verb.get(), join(base, sub == null ? "" : sub.value()), type, method.getName(),
                        bodyType(type, method)));
            }
        }
        routes.sort(Comparator.comparing(Route::path).thenComparing(Route::method));
        return routes;
    }

    private static Optional<String> bodyType(Class<?> type, Method method) {
        boolean body = false;
        for (Parameter parameter : method.getParameters()) {
            boolean annotated = Stream.of(parameter.getAnnotations())
                    .anyMatch(a -> NOT_BODY.contains(a.annotationType()));
            if (!annotated && !INJECTED.contains(parameter.getType().getName())) {
                body = true;
            }
        }
        if (!body) {
            return Optional.empty();
        }
        Consumes consumes = method.getAnnotation(Consumes.class) != null ? method.getAnnotation(Consumes.class)
                : type.getAnnotation(Consumes.class);
        return Optional.of(consumes == null ? "application/json" : consumes.value()[0]);
    }

    /** {@code /api/jobs} and {@code {id: [0-9a-f-]+}/cancel} → {@code /api/jobs/{id}/cancel}. */
    static String join(String base, String sub) {
        String path = ("/" + base + "/" + sub).replaceAll("/+", "/");
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path.replaceAll("\\{\\s*([^}:\\s]+)\\s*(:[^}]*)?}", "{$1}");
    }

    private static List<Class<?>> resourceClasses() {
        java.nio.file.Path root = Paths.get("target", "classes");
        var source = dev.cardcatalog.platform.Problem.class.getProtectionDomain().getCodeSource();
        try {
            if (source != null && source.getLocation() != null
                    && Files.isDirectory(Paths.get(source.getLocation().toURI()))) {
                root = Paths.get(source.getLocation().toURI());
            }
        } catch (URISyntaxException | IllegalArgumentException e) {
            // not a file location: the build's classes directory, as above
        }
        java.nio.file.Path classes = root.resolve("dev/cardcatalog");
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("the service's classes are not a directory here: " + root);
        }
        List<Class<?>> types = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(classes)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace(java.io.File.separatorChar, '.');
                name = name.substring(0, name.length() - ".class".length());
                if (name.contains("$")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, JaxRsRoutes.class.getClassLoader());
                if (type.isAnnotationPresent(Path.class)) {
                    types.add(type);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
        return types;
    }
}
