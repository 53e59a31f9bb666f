package dev.cardcatalog.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * An OTLP/HTTP trace receiver in the test JVM, an in-memory span exporter for service processes: it answers
 * {@code POST /v1/traces} with protobuf bodies ({@code ExportTraceServiceRequest} of opentelemetry-proto, gzip or
 * not) and keeps every span. Point a service at it with Quarkus's standard keys,
 * {@code QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:<port>} and
 * {@code QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf}.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** A span as exported: ids in lower-case hex, the parent's empty for a root span. */
    public record ExportedSpan(String traceId, String spanId, String parentSpanId, String name, String kind,
            Map<String, String> attributes, List<String> events, Map<String, String> resource) {

        public boolean isRoot() {
            return parentSpanId.isEmpty();
        }
    }

    private final HttpServer server;
    private final List<ExportedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    /** Starts a receiver on a free port of the loopback interface. */
    public static OtlpReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            OtlpReceiver receiver = new OtlpReceiver(server);
            server.createContext("/v1/traces", receiver::export);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The base address to give as {@code quarkus.otel.exporter.otlp.endpoint}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far. */
    public List<ExportedSpan> spans() {
        return List.copyOf(spans);
    }

    /** The spans of one trace received so far. */
    public List<ExportedSpan> trace(String traceId) {
        return spans.stream().filter(span -> span.traceId().equals(traceId)).toList();
    }

    /** The content types of the export requests received (to check the protocol). */
    public List<String> contentTypes() {
        return List.copyOf(contentTypes);
    }

    /** The span {@code id}, when received. */
    public Optional<ExportedSpan> span(String id) {
        return spans.stream().filter(span -> span.spanId().equals(id)).findFirst();
    }

    /** Whether {@code ancestor} is {@code span} itself or one of its ancestors, by the parents received. */
    public boolean descends(ExportedSpan span, ExportedSpan ancestor) {
        ExportedSpan current = span;
        for (int depth = 0; current != null && depth < 1000; depth++) {
            if (current.spanId().equals(ancestor.spanId())) {
                return true;
            }
            current = current.isRoot() ? null : span(current.parentSpanId()).orElse(null);
        }
        return false;
    }

    /** Export requests this receiver could not read, with why: a test fails on any. */
    public List<String> failures() {
        return List.copyOf(failures);
    }

    private void export(HttpExchange exchange) throws IOException {
        try {
            receive(exchange);
        } catch (Throwable e) {
            failures.add(e.toString());
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        }
    }

    private void receive(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            contentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
            InputStream body = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
            for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
                Map<String, String> resource = attributes(resourceSpans.getResource().getAttributesList());
                for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
                    for (io.opentelemetry.proto.trace.v1.Span span : scopeSpans.getSpansList()) {
                        List<String> events = new ArrayList<>();
                        span.getEventsList().forEach(event -> events.add(event.getName()));
                        spans.add(new ExportedSpan(hex(span.getTraceId().toByteArray()),
                                hex(span.getSpanId().toByteArray()), hex(span.getParentSpanId().toByteArray()),
                                span.getName(), span.getKind().name(), attributes(span.getAttributesList()), events,
                                resource));
                    }
                }
            }
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        }
    }

    private static Map<String, String> attributes(List<KeyValue> values) {
        Map<String, String> map = new LinkedHashMap<>();
        for (KeyValue value : values) {
            map.put(value.getKey(), text(value.getValue()));
        }
        return map;
    }

    private static String text(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case INT_VALUE -> Long.toString(value.getIntValue());
            case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
            default -> value.toString();
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
