package dev.cardcatalog.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The traces endpoint Quarkus's OTLP recorder reads: blank (no exporter) unless a real configuration source sets
 * an endpoint; a default value is not one.
 */
class TraceExportSwitchTest {

    private static final String QUARKUS_DEFAULT = "http://localhost:4317/";

    @Test
    void noEndpointConfiguredGivesABlankTracesEndpointOverQuarkussDefault() {
        assertThat(tracesEndpoint(Map.of())).isBlank();
        assertThat(tracesEndpoint(Map.of("quarkus.otel.exporter.otlp.endpoint", ""))).isBlank();
        assertThat(tracesEndpoint(Map.of("quarkus.otel.exporter.otlp.endpoint", "  "))).isBlank();
    }

    @Test
    void anEndpointFromARealSourceLeavesTheTracesEndpointAsConfigured() {
        // the general endpoint set: the traces endpoint stays Quarkus's default, which its recorder passes over for it
        assertThat(tracesEndpoint(Map.of("quarkus.otel.exporter.otlp.endpoint", "http://collector:4318")))
                .isEqualTo(QUARKUS_DEFAULT);
        assertThat(tracesEndpoint(Map.of("quarkus.otel.exporter.otlp.traces.endpoint", "http://collector:4317")))
                .isEqualTo("http://collector:4317");
    }

    @Test
    void otherKeysPassUntouched() {
        SmallRyeConfig config = config(Map.of("quarkus.otel.exporter.otlp.protocol", "http/protobuf"));
        assertThat(config.getConfigValue("quarkus.otel.exporter.otlp.protocol").getValue()).isEqualTo("http/protobuf");
        assertThat(config.getConfigValue("quarkus.otel.exporter.otlp.endpoint").getValue()).isEqualTo(QUARKUS_DEFAULT);
    }

    private static String tracesEndpoint(Map<String, String> environment) {
        return config(environment).getConfigValue("quarkus.otel.exporter.otlp.traces.endpoint").getValue();
    }

    /** A configuration as the service sees it: Quarkus's defaults, and {@code values} from an environment source. */
    private static SmallRyeConfig config(Map<String, String> values) {
        return new SmallRyeConfigBuilder()
                .withInterceptors(new TraceExportSwitch())
                .withDefaultValue("quarkus.otel.exporter.otlp.endpoint", QUARKUS_DEFAULT)
                .withDefaultValue("quarkus.otel.exporter.otlp.traces.endpoint", QUARKUS_DEFAULT)
                .withSources(new PropertiesConfigSource(values, "environment", 300))
                .build();
    }
}
