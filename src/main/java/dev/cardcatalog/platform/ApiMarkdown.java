package dev.cardcatalog.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operations' sections of docs/api.md, the one source of the OpenAPI document's summaries and descriptions
 * ({@link ApiDocumentFilter}). A section is a heading of level 3 that names one operation in backticks
 * ({@code ### `POST /api/refreshes`}; a query after {@code ?} is ignored) and the text up to the next heading of
 * level 3 or less. Its summary is its first sentence, without the full stop.
 */
public final class ApiMarkdown {

    /** Where the build puts a copy of docs/api.md (pom.xml's resources). */
    public static final String RESOURCE = "META-INF/card-catalog/api.md";

    private static final Pattern HEADING = Pattern.compile("^(#{1,3}) (.*)$");
    private static final Pattern OPERATION = Pattern.compile(
            "`(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS) (/[^`?\\s]*)(?:\\?[^`]*)?`");
    private static final Pattern LINK = Pattern.compile("\\]\\((?!https?:|#|mailto:)([^)\\s]+)\\)");
    private static final Pattern SENTENCE_END = Pattern.compile("[.:](?=\\s|$)");

    /** One operation's section: {@code key} is {@code "METHOD /path"}, {@code text} its Markdown. */
    public record Section(String key, String heading, String text) {

        /** The first sentence of the first paragraph, without its full stop (or colon). */
        public String summary() {
            String paragraph = text.strip().split("\\n\\s*\\n", 2)[0].replaceAll("\\s*\\n\\s*", " ");
            Matcher end = SENTENCE_END.matcher(paragraph);
            return (end.find() ? paragraph.substring(0, end.start()) : paragraph).strip();
        }

        /**
         * The text with its relative links made absolute under {@code docsUrl} (the folder docs/api.md is in, with
         * a trailing slash), so that they work wherever the document is read.
         */
        public String text(String docsUrl) {
            return LINK.matcher(text.strip()).replaceAll(m -> Matcher.quoteReplacement("](" + docsUrl + m.group(1)
                    + ")"));
        }
    }

    private ApiMarkdown() {
    }

    /** The sections of {@code markdown} by {@code "METHOD /path"}, in the order they appear. */
    public static Map<String, Section> sections(String markdown) {
        Map<String, Section> sections = new LinkedHashMap<>();
        List<String> keys = List.of();
        String heading = null;
        StringBuilder text = new StringBuilder();
        boolean fenced = false;
        for (String line : markdown.split("\\R", -1)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            }
            Matcher h = fenced ? null : HEADING.matcher(line);
            if (h != null && h.matches()) {
                add(sections, keys, heading, text);
                text.setLength(0);
                heading = h.group(2);
                keys = h.group(1).length() == 3 ? operations(heading) : List.of();
                continue;
            }
            text.append(line).append('\n');
        }
        add(sections, keys, heading, text);
        return sections;
    }

    /** The sections of the copy of docs/api.md on the class path; none when there is no copy. */
    public static Map<String, Section> sectionsOnClassPath(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(RESOURCE)) {
            return in == null ? Map.of() : sections(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operations a heading names, as {@code "METHOD /path"}. */
    static List<String> operations(String heading) {
        List<String> keys = new ArrayList<>();
        Matcher m = OPERATION.matcher(heading);
        while (m.find()) {
            keys.add(m.group(1) + " " + m.group(2));
        }
        return keys;
    }

    private static void add(Map<String, Section> sections, List<String> keys, String heading, StringBuilder text) {
        for (String key : keys) {
            if (sections.putIfAbsent(key, new Section(key, heading, text.toString())) != null) {
                throw new IllegalStateException("docs/api.md has two sections for " + key);
            }
        }
    }
}
