package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.smallrye.reactive.messaging.kafka.fault.KafkaDeadLetterQueue;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/asyncapi.yaml is a checked contract (SERVICE.md §9): valid AsyncAPI 3.0.0 by the specification's own JSON
 * Schema (from {@code @asyncapi/specs}, in test resources with its licence); its topics and headers are exactly the
 * ones the code uses; and its command schema accepts and refuses the parser's own cases as the parser does.
 */
class AsyncApiDocumentTest {

    private static final Path DOCUMENT = Path.of("docs/asyncapi.yaml");
    private static final String SPECIFICATION = "/asyncapi/asyncapi-3.0.0-without-id.schema.json";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The parser's reading: repeated members are refused, not read as the last one. */
    private static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    @Test
    void isValidAsyncApi300() {
        List<Error> errors = specification().validate(json(document()), InputFormat.JSON);

        assertThat(errors).as("errors against the AsyncAPI 3.0.0 schema").isEmpty();
    }

    @Test
    void theSpecificationSchemaRefusesADocumentWithMistakes() {
        // the check above can fail: the same document with a mistake of each kind is refused
        Map<String, Object> noInfo = document();
        noInfo.remove("info");
        Map<String, Object> unknownMember = document();
        unknownMember.put("topics", Map.of());
        Map<String, Object> badAddress = document();
        child(child(badAddress, "channels"), "commands").put("address", 42);
        Map<String, Object> badAction = document();
        child(child(badAction, "operations"), "receiveCommand").put("action", "consume");
        for (Map<String, Object> wrong : List.of(noInfo, unknownMember, badAddress, badAction)) {
            assertThat(specification().validate(json(wrong), InputFormat.JSON)).isNotEmpty();
        }
    }

    @Test
    void describesExactlyTheTopicsTheServiceUses() throws IOException {
        Properties config = applicationProperties();
        Set<String> topics = new TreeSet<>();
        for (String name : config.stringPropertyNames()) {
            if (name.startsWith("card-catalog.topics.")) {
                topics.add(config.getProperty(name));
            }
        }
        // every channel of the service is one of those topics
        for (String name : config.stringPropertyNames()) {
            if (name.startsWith("mp.messaging.") && (name.endsWith(".topic"))) {
                assertThat(config.getProperty(name)).as(name).matches("\\$\\{card-catalog\\.topics\\.[a-z]+}");
            }
        }
        Set<String> described = new TreeSet<>();
        child(document(), "channels").values().forEach(channel -> described.add((String) ((Map<?, ?>) channel)
                .get("address")));

        assertThat(topics).hasSize(4);
        assertThat(described).isEqualTo(topics);
    }

    @Test
    void describesExactlyTheHeadersTheServiceUses() throws IOException {
        Set<String> used = new TreeSet<>();
        used.addAll(constants(CommandHeaders.class, ""));
        used.addAll(JobTracing.PROPAGATION);
        used.add(DeadLetterValueSerializer.TRUNCATED_HEADER);
        // both consumers nack into the dead-letter topic through SmallRye's strategy, which writes its headers
        Properties config = applicationProperties();
        for (String channel : List.of("commands-in", "delayed-in")) {
            assertThat(config.getProperty("mp.messaging.incoming." + channel + ".failure-strategy"))
                    .isEqualTo("dead-letter-queue");
        }
        used.addAll(constants(KafkaDeadLetterQueue.class, "DEAD_LETTER_"));

        Set<String> described = new TreeSet<>();
        child(child(document(), "components"), "schemas").forEach((name, schema) -> {
            if (name.endsWith("Headers")) {
                described.addAll(child(castMap(schema), "properties").keySet());
            }
        });

        assertThat(used).contains("retry-count", "not-before", "retry-after-asked", "retry-reason", "traceparent",
                "dead-letter-reason");
        assertThat(described).isEqualTo(used);
    }

    @Test
    void theKeysAndEnumerationsAreTheServicesOwn() {
        Map<String, Object> schemas = child(child(document(), "components"), "schemas");
        List<String> kinds = Arrays.stream(JobKind.values()).map(JobKind::wire).toList();
        List<Object> triggers = new ArrayList<>(Arrays.stream(JobTrigger.values()).map(JobTrigger::wire).toList());
        triggers.add(null);

        assertThat(castList(child(schemas, "jobKind").get("enum"))).containsExactlyInAnyOrderElementsOf(kinds);
        Map<String, Object> command = child(child(schemas, "command"), "properties");
        assertThat(castList(child(command, "type").get("enum"))).containsExactlyInAnyOrderElementsOf(kinds);
        assertThat(castList(child(command, "trigger").get("enum"))).containsExactlyInAnyOrderElementsOf(triggers);
        Map<String, Object> messages = child(child(document(), "components"), "messages");
        for (String message : List.of("command", "delayedCommand")) {
            assertThat(castList(child(child(child(child(messages, message), "bindings"), "kafka"), "key").get("enum")))
                    .as("the key of a " + message).containsExactlyInAnyOrderElementsOf(kinds);
        }
    }

    @Test
    void theCommandSchemaAcceptsWhatTheParserAcceptsAndRefusesWhatItRefuses() {
        Map<String, Object> message = child(child(child(document(), "components"), "messages"), "command");
        int maxBytes = (Integer) message.get("x-max-bytes");
        assertThat(maxBytes).isEqualTo(CommandParser.MAX_COMMAND_BYTES);
        Map<String, Object> commandSchema = new LinkedHashMap<>(
                child(child(child(document(), "components"), "schemas"), "command"));
        commandSchema.put("$schema", "http://json-schema.org/draft-07/schema#");
        Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                .getSchema(json(commandSchema), InputFormat.JSON);

        List<CommandParserCases.Case> all = new ArrayList<>(CommandParserCases.ACCEPTED);
        all.addAll(CommandParserCases.REFUSED);
        assertThat(all).hasSizeGreaterThan(30);
        for (CommandParserCases.Case each : all) {
            boolean parserAccepts = parserAccepts(each.value());
            assertThat(parserAccepts).as("the parser on %s", CommandParserTest.abbreviated(each.label()))
                    .isEqualTo(each.names() == null);
            assertThat(documentAccepts(each.value(), maxBytes, schema))
                    .as("the document on %s", CommandParserTest.abbreviated(each.label())).isEqualTo(parserAccepts);
        }
    }

    /** What the document says a command is: UTF-8 JSON within x-max-bytes, one object, valid by the schema. */
    private static boolean documentAccepts(byte[] value, int maxBytes, Schema schema) {
        if (value.length > maxBytes) {
            return false;
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
            if (STRICT.readTree(text) == null) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        return schema.validate(text, InputFormat.JSON).isEmpty();
    }

    private static boolean parserAccepts(byte[] value) {
        try {
            CommandParser.parse(value);
            return true;
        } catch (InvalidCommandException e) {
            return false;
        }
    }

    private static Schema specification() {
        try (InputStream in = AsyncApiDocumentTest.class.getResourceAsStream(SPECIFICATION)) {
            assertThat(in).as(SPECIFICATION).isNotNull();
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
                    .getSchema(new String(in.readAllBytes(), StandardCharsets.UTF_8), InputFormat.JSON);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> document() {
        try {
            return new Yaml().load(Files.readString(DOCUMENT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties applicationProperties() throws IOException {
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            properties.load(reader);
        }
        return properties;
    }

    /** The values of the public static String constants of {@code type} whose names start with {@code prefix}. */
    private static Set<String> constants(Class<?> type, String prefix) {
        Set<String> values = new HashSet<>();
        for (Field field : type.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class
                    && field.getName().startsWith(prefix)) {
                try {
                    values.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        assertThat(values).as("constants of " + type.getSimpleName()).isNotEmpty();
        return values;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> child(Map<String, Object> map, String key) {
        assertThat(map).containsKey(key);
        return castMap(map.get(key));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> castList(Object value) {
        return (List<Object>) value;
    }
}
