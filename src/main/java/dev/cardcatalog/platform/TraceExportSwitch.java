package dev.cardcatalog.platform;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;

/**
 * Export is off until an OTLP endpoint is configured (SERVICE.md §9). Quarkus's OTLP exporter otherwise sends to
 * its default, {@code http://localhost:4317/}, and logs a failure for every batch when nothing listens there
 * (quarkusio/quarkus#35306, #44200: an empty endpoint falls back to that default).
 *
 * <p>So when neither {@code quarkus.otel.exporter.otlp.traces.endpoint} nor
 * {@code quarkus.otel.exporter.otlp.endpoint} is set by a real configuration source (application.properties, an
 * environment variable such as {@code QUARKUS_OTEL_EXPORTER_OTLP_ENDPOINT}, a system property), this interceptor
 * answers a blank traces endpoint, which Quarkus's recorder reads as "no exporter": no span is sent, no connection
 * is made, nothing is logged. Spans are still made, so trace context still flows through Kafka and the logs carry
 * the ids. Registered in {@code META-INF/services/io.smallrye.config.ConfigSourceInterceptor}.
 */
@Priority(Priorities.APPLICATION)
public class TraceExportSwitch implements ConfigSourceInterceptor {

    static final String TRACES_ENDPOINT = "quarkus.otel.exporter.otlp.traces.endpoint";
    static final String ENDPOINT = "quarkus.otel.exporter.otlp.endpoint";
    /** Ordinals at or below this are defaults (Quarkus's and SmallRye's default-value sources), not configuration. */
    private static final int DEFAULTS = 0;

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (!TRACES_ENDPOINT.equals(name) || configured(value) || configured(context.proceed(ENDPOINT))) {
            return value;
        }
        ConfigValue blank = value != null ? value : ConfigValue.builder().withName(name).build();
        return blank.withValue(" ").withConfigSourceName("card-catalog: no OTLP endpoint configured, no export");
    }

    static boolean configured(ConfigValue value) {
        return value != null && value.getValue() != null && !value.getValue().isBlank()
                && value.getConfigSourceOrdinal() > DEFAULTS;
    }
}
