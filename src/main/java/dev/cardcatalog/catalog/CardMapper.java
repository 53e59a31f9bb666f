package dev.cardcatalog.catalog;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps one Scryfall card object (the bytes of one bulk file record) to a {@link MappedCard}, with a streaming
 * parser that reads only the fields the catalog maps and skips the rest, so unknown fields and new layouts never
 * fail a record (Scryfall's card object; SERVICE.md §4 card mapping).
 *
 * <p>Required: {@code id} (a UUID), {@code name}, {@code lang}, {@code layout}, {@code set},
 * {@code collector_number} (strings) and {@code games} (an array). A record missing one, or not a single valid
 * JSON object, is malformed. Not thread-safe (it reuses a digest); one per reader.
 *
 * <p>The mapped text columns hold what PostgreSQL text can: U+0000 (which a JSON <code>&#92;u0000</code> escape
 * yields) and unpaired surrogates (a lone <code>&#92;ud800</code> escape, which the JSON reader accepts) become U+FFFD
 * in them. The stored object and the content digest are the record's bytes as the file had them, escapes included.
 */
final class CardMapper {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Pattern ID = Pattern.compile(
            "\"id\"\\s*:\\s*\"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\"");
    private static final Pattern MARKS = Pattern.compile("\\p{M}+");
    private static final char REPLACEMENT = (char) 0xFFFD;

    private final MessageDigest sha256;

    CardMapper() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** Maps a record; throws {@link MalformedCardException} naming the reason and, when readable, the id. */
    MappedCard map(byte[] json) throws MalformedCardException {
        return map(json, 0);
    }

    /**
     * Maps record number {@code line} (from 1) of a file; throws {@link MalformedCardException} naming the reason
     * and, when readable, the id.
     */
    MappedCard map(byte[] json, long line) throws MalformedCardException {
        Fields f = new Fields();
        try (JsonParser parser = FACTORY.createParser(json)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new MalformedCardException("not a JSON object", idIn(json));
            }
            readCard(parser, f);
            if (parser.nextToken() != null) {
                throw new MalformedCardException("text after the card object", f.idOrNull());
            }
        } catch (IOException e) {
            throw new MalformedCardException("not valid JSON: " + firstLine(e.getMessage()),
                    f.id != null ? f.idOrNull() : idIn(json));
        }
        UUID id = f.idOrNull();
        if (f.id == null) {
            throw new MalformedCardException("no id", null);
        }
        if (id == null) {
            throw new MalformedCardException("id is not a UUID: " + f.id, null);
        }
        for (String[] required : new String[][] {{"name", f.name}, {"lang", f.lang}, {"layout", f.layout},
                {"set", f.set}, {"collector_number", f.collectorNumber}}) {
            if (required[1] == null || required[1].isEmpty()) {
                throw new MalformedCardException("no " + required[0], id);
            }
        }
        if (f.games == null) {
            throw new MalformedCardException("no games", id);
        }
        boolean paper = f.games.contains("paper") && !f.digital;
        FaceFields front = f.faces.isEmpty() ? null : f.faces.get(0);
        UUID illustration = uuid(front != null && front.illustrationId != null ? front.illustrationId
                : f.illustrationId);
        String small = front != null && front.imageSmall != null ? front.imageSmall : f.imageSmall;
        UUID oracle = uuid(f.oracleId != null ? f.oracleId : front == null ? null : front.oracleId);
        StringBuilder names = new StringBuilder(searchKey(f.name));
        for (FaceFields face : f.faces) {
            if (face.name != null) {
                names.append('\n').append(searchKey(face.name));
            }
        }
        List<MappedCard.FaceImage> faceImages = new ArrayList<>(0);
        for (int k = 0; k < f.faces.size(); k++) {
            FaceFields face = f.faces.get(k);
            if (face.ownImages) {
                faceImages.add(new MappedCard.FaceImage(k, face.name == null ? f.name : face.name,
                        uuid(face.illustrationId), face.imageSmall));
            }
        }
        return new MappedCard(id, oracle, f.name, names.toString(), f.lang, f.layout,
                f.set.toLowerCase(Locale.ROOT), f.collectorNumber, date(f.releasedAt), illustration, small, paper,
                digest(json), json, line, List.copyOf(faceImages));
    }

    private static void readCard(JsonParser parser, Fields f) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "id" -> f.id = string(parser, value);
                case "oracle_id" -> f.oracleId = string(parser, value);
                case "name" -> f.name = string(parser, value);
                case "lang" -> f.lang = string(parser, value);
                case "layout" -> f.layout = string(parser, value);
                case "set" -> f.set = string(parser, value);
                case "collector_number" -> f.collectorNumber = string(parser, value);
                case "released_at" -> f.releasedAt = string(parser, value);
                case "illustration_id" -> f.illustrationId = string(parser, value);
                case "digital" -> f.digital = value == JsonToken.VALUE_TRUE;
                case "games" -> f.games = strings(parser, value);
                case "image_uris" -> f.imageSmall = small(parser, value);
                case "card_faces" -> readFaces(parser, value, f.faces);
                default -> parser.skipChildren();
            }
        }
        if (parser.currentToken() != JsonToken.END_OBJECT) {
            throw new IOException("unexpected " + parser.currentToken());
        }
    }

    private static void readFaces(JsonParser parser, JsonToken value, List<FaceFields> faces) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            parser.skipChildren();
            return;
        }
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                // kept as an empty face, so that the faces after it keep their index in card_faces
                parser.skipChildren();
                faces.add(new FaceFields());
                continue;
            }
            FaceFields face = new FaceFields();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken token = parser.nextToken();
                switch (field) {
                    case "name" -> face.name = string(parser, token);
                    case "illustration_id" -> face.illustrationId = string(parser, token);
                    case "oracle_id" -> face.oracleId = string(parser, token);
                    case "image_uris" -> {
                        face.ownImages = token == JsonToken.START_OBJECT;
                        face.imageSmall = small(parser, token);
                    }
                    default -> parser.skipChildren();
                }
            }
            faces.add(face);
        }
    }

    private static String small(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        String small = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken token = parser.nextToken();
            if (field.equals("small")) {
                small = string(parser, token);
            } else {
                parser.skipChildren();
            }
        }
        return small;
    }

    private static String string(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return storable(parser.getText());
        }
        parser.skipChildren();
        return null;
    }

    /** {@code text} with U+0000 and unpaired surrogates (which PostgreSQL text cannot hold) replaced by U+FFFD. */
    static String storable(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean bad;
            if (c == 0) {
                bad = true;
            } else if (Character.isHighSurrogate(c)) {
                bad = i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
                if (!bad) {
                    if (out != null) {
                        out.append(c).append(text.charAt(i + 1));
                    }
                    i++;
                    continue;
                }
            } else {
                bad = Character.isLowSurrogate(c);
            }
            if (bad && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                out.append(bad ? REPLACEMENT : c);
            }
        }
        return out == null ? text : out.toString();
    }

    private static List<String> strings(JsonParser parser, JsonToken value) throws IOException {
        if (value != JsonToken.START_ARRAY) {
            parser.skipChildren();
            return null;
        }
        List<String> values = new ArrayList<>(4);
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() == JsonToken.VALUE_STRING) {
                values.add(parser.getText());
            } else {
                parser.skipChildren();
            }
        }
        return values;
    }

    private byte[] digest(byte[] json) {
        byte[] full = sha256.digest(json);
        return java.util.Arrays.copyOf(full, 16);
    }

    /**
     * The form names are searched by: NFD-decomposed, combining marks removed, ligatures spelled out, lower case.
     * "Æther Vial" and "Lim-Dûl's Vault" become "aether vial" and "lim-dul's vault".
     */
    static String searchKey(String name) {
        String decomposed = Normalizer.normalize(name, Normalizer.Form.NFD);
        String plain = MARKS.matcher(decomposed).replaceAll("");
        return plain.replace("Æ", "Ae").replace("æ", "ae").replace("Œ", "Oe").replace("œ", "oe")
                .toLowerCase(Locale.ROOT);
    }

    private static UUID idIn(byte[] json) {
        int length = Math.min(json.length, 4096);
        Matcher matcher = ID.matcher(new String(json, 0, length, StandardCharsets.UTF_8));
        return matcher.find() ? uuid(matcher.group(1)) : null;
    }

    private static UUID uuid(String text) {
        if (text == null || text.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static LocalDate date(String text) {
        if (text == null) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static final class Fields {
        String id;
        String oracleId;
        String name;
        String lang;
        String layout;
        String set;
        String collectorNumber;
        String releasedAt;
        String illustrationId;
        String imageSmall;
        boolean digital;
        List<String> games;
        final List<FaceFields> faces = new ArrayList<>(2);

        UUID idOrNull() {
            return uuid(id);
        }
    }

    private static final class FaceFields {
        /** Whether the face has its own {@code image_uris} (its own picture), with or without a {@code small}. */
        boolean ownImages;
        String name;
        String illustrationId;
        String oracleId;
        String imageSmall;
    }
}
