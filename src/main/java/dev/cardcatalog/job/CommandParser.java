package dev.cardcatalog.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * Reads a command record's value strictly (SERVICE.md §6.2, §6.3). A value that is not UTF-8 JSON, not an object,
 * has no or an unknown {@code type}, a {@code jobId} that is not a UUID, or an unknown {@code trigger} is refused
 * with a reason naming the member. A missing {@code trigger} means {@code api} (another service). An
 * {@code acceptFewerArtworks} that is not a boolean, or true on a {@code refresh}, is refused; so is the API's
 * spelling {@code accept_fewer_artworks}, which would otherwise be ignored and the consent silently lost.
 */
final class CommandParser {

    /** Strict about repeated members: {"type":"refresh","type":"art-build"} is refused, not read as its last. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

    /** The largest command read: 64 KiB (a command is a few hundred bytes). */
    static final int MAX_COMMAND_BYTES = DeadLetterValueSerializer.MAX_VALUE_BYTES;

    private CommandParser() {
    }

    static Command parse(byte[] value) {
        if (value == null || value.length == 0) {
            throw new InvalidCommandException("empty record value: a command is a JSON object");
        }
        if (value.length > MAX_COMMAND_BYTES) {
            throw new InvalidCommandException("the record value is " + value.length + " bytes, over the "
                    + MAX_COMMAND_BYTES + " a command may have");
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidCommandException("the record value is not UTF-8 text");
        }
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new InvalidCommandException("the record value is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidCommandException("the record value is not JSON");
        }
        if (node == null || !node.isObject()) {
            throw new InvalidCommandException("the record value is JSON but not an object");
        }
        JsonNode type = node.get("type");
        if (type == null || type.isNull()) {
            throw new InvalidCommandException("type is missing (refresh or art-build)");
        }
        if (!type.isTextual() || JobKind.fromWire(type.asText()).isEmpty()) {
            throw new InvalidCommandException("type " + type + " is unknown (refresh or art-build)");
        }
        UUID jobId = null;
        JsonNode id = node.get("jobId");
        if (id != null && !id.isNull()) {
            if (!id.isTextual()) {
                throw new InvalidCommandException("jobId is not a UUID string");
            }
            try {
                jobId = UUID.fromString(id.asText());
            } catch (IllegalArgumentException e) {
                throw new InvalidCommandException("jobId " + id + " is not a UUID");
            }
            if (!jobId.toString().equalsIgnoreCase(id.asText())) {
                throw new InvalidCommandException("jobId " + id + " is not a UUID");
            }
        }
        String trigger = JobTrigger.API.wire();
        JsonNode triggerNode = node.get("trigger");
        if (triggerNode != null && !triggerNode.isNull()) {
            if (!triggerNode.isTextual() || JobTrigger.fromWire(triggerNode.asText()).isEmpty()) {
                throw new InvalidCommandException("trigger " + triggerNode + " is unknown (manual, scheduled or api)");
            }
            trigger = triggerNode.asText();
        }
        if (node.has("accept_fewer_artworks")) {
            throw new InvalidCommandException("accept_fewer_artworks is not a command member: a command names its"
                    + " members in camelCase (acceptFewerArtworks)");
        }
        Boolean acceptFewer = null;
        JsonNode consent = node.get("acceptFewerArtworks");
        if (consent != null && !consent.isNull()) {
            if (!consent.isBoolean()) {
                throw new InvalidCommandException("acceptFewerArtworks " + consent + " is not true or false");
            }
            if (consent.booleanValue() && !JobKind.ART_BUILD.wire().equals(type.asText())) {
                throw new InvalidCommandException("acceptFewerArtworks is for art-build commands only");
            }
            acceptFewer = consent.booleanValue() ? Boolean.TRUE : null;
        }
        return new Command(type.asText(), jobId, trigger, acceptFewer);
    }
}
