package dev.cardcatalog.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.yaml.snakeyaml.Yaml;

/**
 * The schemas of docs/asyncapi.yaml ({@code components.schemas}), to check the records the service really
 * publishes against them: payloads, and headers as an object of their last values (UTF-8 text).
 */
final class AsyncApiContract {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AsyncApiContract() {
    }

    /** The errors of {@code json} (JSON text) against {@code components.schemas.<schema>}; empty when valid. */
    static List<String> errors(String schema, String json) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", "http://json-schema.org/draft-07/schema#");
        root.put("components", document().get("components"));
        root.put("$ref", "#/components/schemas/" + schema);
        try {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(JSON.writeValueAsString(root), InputFormat.JSON)
                    .validate(json, InputFormat.JSON).stream().map(Error::toString).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The errors of a record's value against {@code payload} and of its headers against {@code headers}. */
    static List<String> errors(ConsumerRecord<String, byte[]> record, String payload, String headers) {
        List<String> errors = new java.util.ArrayList<>();
        if (payload != null) {
            errors.addAll(errors(payload, new String(record.value(), StandardCharsets.UTF_8)));
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Header header : record.headers()) {
            values.put(header.key(), header.value() == null ? null : new String(header.value(),
                    StandardCharsets.UTF_8));
        }
        try {
            errors.addAll(errors(headers, JSON.writeValueAsString(values)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return errors;
    }

    private static Map<String, Object> document() {
        try {
            return new Yaml().load(Files.readString(Path.of("docs/asyncapi.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
