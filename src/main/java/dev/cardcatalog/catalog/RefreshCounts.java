package dev.cardcatalog.catalog;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counts of one refresh pass (SERVICE.md §4.8).
 * <ul>
 *   <li>{@code seen}: valid paper cards in the configured languages (each id once);</li>
 *   <li>{@code inserted}, {@code updated} (content digest changed), {@code restored} (retired, seen again),
 *       {@code retired} (active, not seen in this complete pass);</li>
 *   <li>{@code malformed}: records that are not valid JSON or lack a required field, skipped (one that names its
 *       card still keeps that card from being retired);</li>
 *   <li>{@code skipped}: valid records of other languages, digital-only or not paper;</li>
 *   <li>{@code duplicates}: repeats of an id already seen in this pass, written once;</li>
 *   <li>{@code sets}: sets loaded.</li>
 * </ul>
 */
public final class RefreshCounts {

    long seen;
    long inserted;
    long updated;
    long retired;
    long restored;
    long malformed;
    long skipped;
    long duplicates;
    long sets;

    public long seen() {
        return seen;
    }

    public long inserted() {
        return inserted;
    }

    public long updated() {
        return updated;
    }

    public long retired() {
        return retired;
    }

    public long restored() {
        return restored;
    }

    public long malformed() {
        return malformed;
    }

    /** The counts by name, in a fixed order, for the run record and the {@code catalog-refreshed} event. */
    public Map<String, Long> asMap() {
        Map<String, Long> map = new LinkedHashMap<>();
        map.put("seen", seen);
        map.put("inserted", inserted);
        map.put("updated", updated);
        map.put("retired", retired);
        map.put("restored", restored);
        map.put("malformed", malformed);
        map.put("skipped", skipped);
        map.put("duplicates", duplicates);
        map.put("sets", sets);
        return map;
    }
}
