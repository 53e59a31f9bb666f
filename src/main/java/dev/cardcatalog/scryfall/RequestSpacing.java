package dev.cardcatalog.scryfall;

import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Set;

/**
 * The spacing between requests to api.scryfall.com, shared by every caller in the process (SERVICE.md §3.1,
 * Scryfall's rate-limits page: 10 requests a second, 2 for the search-like endpoints). A caller reserves the next
 * free slot and waits until it; the slots are handed out in order, so concurrent callers queue fairly.
 */
@Singleton
public class RequestSpacing {

    /** Endpoints Scryfall limits to 2 requests a second. */
    static final Set<String> SEARCH_PATHS = Set.of("/cards/search", "/cards/named", "/cards/random",
            "/cards/collection");

    private final long apiNanos;
    private final long searchNanos;
    private final long fileNanos;
    private long nextApi;
    private long nextSearch;
    private long nextFile;

    public RequestSpacing(ScryfallConfig config) {
        this.apiNanos = config.apiSpacing().toNanos();
        this.searchNanos = config.searchSpacing().toNanos();
        this.fileNanos = config.fileSpacing().toNanos();
        long now = System.nanoTime();
        nextApi = now;
        nextSearch = now;
        nextFile = now;
    }

    /**
     * Reserves the next slot for an API request to {@code path} and returns how long to wait for it (zero when
     * the slot is now). A search-like path waits for both its own spacing and the API's.
     */
    public synchronized Duration reserveApi(String path) {
        long now = System.nanoTime();
        long slot = Math.max(now, nextApi);
        boolean search = SEARCH_PATHS.contains(path);
        if (search) {
            slot = Math.max(slot, nextSearch);
            nextSearch = slot + searchNanos;
        }
        nextApi = slot + apiNanos;
        return Duration.ofNanos(slot - now);
    }

    /** Reserves the next slot for a bulk file or image request (no spacing unless configured). */
    public synchronized Duration reserveFile() {
        long now = System.nanoTime();
        long slot = Math.max(now, nextFile);
        nextFile = slot + fileNanos;
        return Duration.ofNanos(slot - now);
    }
}
