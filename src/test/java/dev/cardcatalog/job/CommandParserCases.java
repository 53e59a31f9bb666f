package dev.cardcatalog.job;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The command parser's accept and refuse cases (SERVICE.md §6.2), one list for {@link CommandParserTest}, which runs
 * them through {@link CommandParser}, and for {@code AsyncApiDocumentTest}, which runs them through the command
 * schema of docs/asyncapi.yaml: the document says what the parser does.
 */
final class CommandParserCases {

    /** A record value, and the member a refusal names (null for an accepted value). */
    record Case(String label, byte[] value, String names) {
        static Case accepted(String json) {
            return new Case(json, json.getBytes(StandardCharsets.UTF_8), null);
        }

        static Case refused(String json, String names) {
            return new Case(json, json.getBytes(StandardCharsets.UTF_8), names);
        }
    }

    private static final String ID = "0d6f3c1e-5b7a-4c1e-9e2a-2f4a5c6d7e8f";

    static final List<Case> ACCEPTED = List.of(
            Case.accepted("{\"type\":\"refresh\"}"),
            Case.accepted("{\"type\":\"art-build\"}"),
            Case.accepted("{\"type\":\"refresh\",\"jobId\":\"" + ID + "\",\"trigger\":\"api\"}"),
            Case.accepted("{\"type\":\"refresh\",\"jobId\":\"" + ID.toUpperCase(java.util.Locale.ROOT) + "\"}"),
            Case.accepted("{\"type\":\"refresh\",\"trigger\":\"scheduled\"}"),
            Case.accepted("{\"type\":\"art-build\",\"trigger\":\"manual\"}"),
            Case.accepted("{\"type\":\"refresh\",\"jobId\":null,\"trigger\":null}"),
            Case.accepted("{\"type\":\"art-build\",\"note\":{\"from\":[\"another\",\"service\"]},\"n\":1}"),
            Case.accepted("{\"type\":\"art-build\",\"acceptFewerArtworks\":true}"),
            Case.accepted("{\"type\":\"art-build\",\"acceptFewerArtworks\":false}"),
            Case.accepted("{\"type\":\"art-build\",\"acceptFewerArtworks\":null}"),
            Case.accepted("{\"type\":\"refresh\",\"acceptFewerArtworks\":false}"),
            Case.accepted(" \n{ \"trigger\" : \"api\" , \"type\" : \"refresh\" }\t"),
            Case.accepted("{\"type\":\"refresh\",\"pad\":\"" + "x".repeat(60_000) + "\"}"));

    static final List<Case> REFUSED = List.of(
            // not a JSON object
            Case.refused("", "value"),
            Case.refused("not json", "JSON"),
            Case.refused("[\"refresh\"]", "object"),
            Case.refused("\"refresh\"", "object"),
            Case.refused("42", "object"),
            Case.refused("null", "object"),
            Case.refused("{\"type\":\"refresh\",\"type\":\"art-build\"}", "type"),
            Case.refused("{\"type\":\"refresh\"", "JSON"),
            new Case("not UTF-8", new byte[] {'{', '"', 't', 'y', 'p', 'e', '"', ':', '"', (byte) 0xff, '"', '}'},
                    "UTF-8"),
            Case.refused("{\"type\":\"refresh\",\"pad\":\"" + "x".repeat(70_000) + "\"}", "bytes"),
            // type
            Case.refused("{}", "type"),
            Case.refused("{\"trigger\":\"manual\"}", "type"),
            Case.refused("{\"type\":null}", "type"),
            Case.refused("{\"type\":\"polish\"}", "type"),
            Case.refused("{\"type\":\"REFRESH\"}", "type"),
            Case.refused("{\"type\":1}", "type"),
            Case.refused("{\"type\":[\"refresh\"]}", "type"),
            Case.refused("{\"type\":{\"kind\":\"refresh\"}}", "type"),
            // jobId
            Case.refused("{\"type\":\"refresh\",\"jobId\":\"42\"}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":42}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":\"0-0-0-0-0\"}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":\"" + ID.replace("-", "") + "\"}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":\"" + ID + " \"}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":\"{" + ID + "}\"}", "jobId"),
            Case.refused("{\"type\":\"refresh\",\"jobId\":[\"" + ID + "\"]}", "jobId"),
            // trigger
            Case.refused("{\"type\":\"refresh\",\"trigger\":\"weekly\"}", "trigger"),
            Case.refused("{\"type\":\"refresh\",\"trigger\":\"API\"}", "trigger"),
            Case.refused("{\"type\":\"refresh\",\"trigger\":true}", "trigger"),
            Case.refused("{\"type\":\"refresh\",\"trigger\":[\"api\"]}", "trigger"),
            // acceptFewerArtworks (SERVICE.md §5.8)
            Case.refused("{\"type\":\"art-build\",\"acceptFewerArtworks\":\"true\"}", "acceptFewerArtworks"),
            Case.refused("{\"type\":\"art-build\",\"acceptFewerArtworks\":1}", "acceptFewerArtworks"),
            Case.refused("{\"type\":\"art-build\",\"acceptFewerArtworks\":[true]}", "acceptFewerArtworks"),
            Case.refused("{\"type\":\"refresh\",\"acceptFewerArtworks\":true}", "acceptFewerArtworks"),
            Case.refused("{\"type\":\"art-build\",\"accept_fewer_artworks\":true}", "accept_fewer_artworks"),
            Case.refused("{\"type\":\"art-build\",\"accept_fewer_artworks\":false}", "accept_fewer_artworks"));

    private CommandParserCases() {
    }
}
