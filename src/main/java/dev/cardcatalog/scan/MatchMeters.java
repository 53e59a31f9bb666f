package dev.cardcatalog.scan;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The match endpoint's request timers on {@code /q/metrics} from the start: Quarkus's {@code http.server.requests}
 * for {@code POST} {@value MatchUploads#PATH}, answered 200 and 503, registered at 0 when the service starts. Quarkus
 * makes a timer at a route's first request, so the dashboard's match latency and 503 panels
 * ({@code deploy/monitoring/}) had no series until a photo came, and an {@code increase()} of the 503s would miss
 * the first. The tags are the ones Quarkus gives the timer ({@code method}, {@code outcome}, {@code status},
 * {@code uri}), so the requests count into these same series; MonitoringTest checks both.
 */
@ApplicationScoped
public class MatchMeters {

    /** Quarkus's name of the HTTP server request timer ({@code quarkus.micrometer.binder.http-server}). */
    static final String HTTP_SERVER_REQUESTS = "http.server.requests";

    void register(@Observes StartupEvent start, MeterRegistry metrics) {
        timer(metrics, "200", "SUCCESS");
        timer(metrics, "503", "SERVER_ERROR");
    }

    private static void timer(MeterRegistry metrics, String status, String outcome) {
        Timer.builder(HTTP_SERVER_REQUESTS)
                .description("HTTP server request processing time")
                .tag("method", "POST")
                .tag("outcome", outcome)
                .tag("status", status)
                .tag("uri", MatchUploads.PATH)
                .register(metrics);
    }
}
