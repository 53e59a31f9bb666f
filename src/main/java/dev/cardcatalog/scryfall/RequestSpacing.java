package dev.cardcatalog.scryfall;

import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Set;

/**
 * The spacing between requests to api.scryfall.com, shared by every caller in the process (SERVICE.md §3.1,
 * Scryfall's rate-limits page: 10 requests a second, 2 for the search-like endpoints). A caller waits on a timer
 * (never a blocked thread) until the spacing since the previous request has passed, then goes.
 *
 * <p>Scryfall counts arrivals, so the gap is measured between requests on the wire: a caller takes its slot once its
 * connection is set up (connection set-up, a TLS handshake or a cold client's first use cannot eat into the gap),
 * and reports {@link #sentApi} (and the like) when the request has been written, which moves the next slot to the
 * spacing after that; {@code ScryfallClient} reports an API request again when its answer arrives, since the
 * request reached Scryfall somewhere between the two.
 */
@Singleton
public class RequestSpacing {

    /** Endpoints Scryfall limits to 2 requests a second. */
    static final Set<String> SEARCH_PATHS = Set.of("/cards/search", "/cards/named", "/cards/random",
            "/cards/collection");

    private final long apiNanos;
    private final long searchNanos;
    private final long fileNanos;
    private final long imageNanos;
    private long nextApi;
    private long nextSearch;
    private long nextFile;
    private long nextImage;

    private final java.util.function.LongSupplier nanoClock;

    @jakarta.inject.Inject
    public RequestSpacing(ScryfallConfig config) {
        this(config, System::nanoTime);
    }

    /** With a clock of its own, in nanoseconds: for tests. */
    RequestSpacing(ScryfallConfig config, java.util.function.LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.apiNanos = config.apiSpacing().toNanos();
        this.searchNanos = config.searchSpacing().toNanos();
        this.fileNanos = config.fileSpacing().toNanos();
        this.imageNanos = config.imageSpacing().toNanos();
        long now = nanoClock.getAsLong();
        nextApi = now;
        nextSearch = now;
        nextFile = now;
        nextImage = now;
    }

    /**
     * Waits until an API request to {@code path} may go, and takes the slot: completes when at least the spacing has
     * passed since the previous API request was let go (and, for a search-like path, since the previous search-like
     * one). The slot is taken when the wait ends, not when it starts, so a late timer never lets two requests
     * closer together than the spacing.
     */
    public Uni<Void> awaitApi(String path) {
        boolean search = SEARCH_PATHS.contains(path);
        return Uni.createFrom().deferred(() -> {
            long wait = tryTake(search, Lane.API);
            return wait == 0 ? Uni.createFrom().voidItem()
                    : Uni.createFrom().voidItem().onItem().delayIt().by(timer(wait))
                            .chain(() -> awaitApi(path));
        });
    }

    /** Waits until a bulk file request may go (no spacing unless configured) and takes the slot. */
    public Uni<Void> awaitFile() {
        return Uni.createFrom().deferred(() -> {
            long wait = tryTake(false, Lane.FILE);
            return wait == 0 ? Uni.createFrom().voidItem()
                    : Uni.createFrom().voidItem().onItem().delayIt().by(timer(wait))
                            .chain(this::awaitFile);
        });
    }

    /** Waits until an image request may go ({@code image-spacing} apart) and takes the slot. */
    public Uni<Void> awaitImage() {
        return Uni.createFrom().deferred(() -> {
            long wait = tryTake(false, Lane.IMAGE);
            return wait == 0 ? Uni.createFrom().voidItem()
                    : Uni.createFrom().voidItem().onItem().delayIt().by(timer(wait))
                            .chain(this::awaitImage);
        });
    }

    enum Lane { API, FILE, IMAGE }

    /**
     * A request that took its slot is now written to its connection: the next request of the lane (and, for a
     * search-like path, the next search-like one) goes no sooner than the spacing after now.
     */
    public void sentApi(String path) {
        sent(SEARCH_PATHS.contains(path), Lane.API);
    }

    /** A bulk file request is written to its connection. */
    public void sentFile() {
        sent(false, Lane.FILE);
    }

    /** An image request is written to its connection. */
    public void sentImage() {
        sent(false, Lane.IMAGE);
    }

    synchronized void sent(boolean search, Lane lane) {
        long now = nanoClock.getAsLong();
        switch (lane) {
            case FILE -> nextFile = Math.max(nextFile, now + fileNanos);
            case IMAGE -> nextImage = Math.max(nextImage, now + imageNanos);
            case API -> {
                nextApi = Math.max(nextApi, now + apiNanos);
                if (search) {
                    nextSearch = Math.max(nextSearch, now + searchNanos);
                }
            }
        }
    }

    /**
     * A timer's delay for a wait in nanoseconds: whole milliseconds, rounded up, and at least one. Timers shorter
     * than a millisecond are not run by the scheduler Quarkus gives Mutiny (a Vert.x timer needs 1 ms at least): a
     * call that waited a few hundred nanoseconds never woke up.
     */
    static Duration timer(long waitNanos) {
        return Duration.ofMillis(Math.max(1, (waitNanos + 999_999) / 1_000_000));
    }

    /** Takes the slot and returns 0 when it is free now; otherwise returns how long until it may be, in ns. */
    synchronized long tryTake(boolean search, Lane lane) {
        long now = nanoClock.getAsLong();
        long earliest = switch (lane) {
            case FILE -> nextFile;
            case IMAGE -> nextImage;
            case API -> search ? Math.max(nextApi, nextSearch) : nextApi;
        };
        if (now < earliest) {
            return earliest - now;
        }
        if (lane == Lane.FILE) {
            nextFile = now + fileNanos;
        } else if (lane == Lane.IMAGE) {
            nextImage = now + imageNanos;
        } else {
            nextApi = now + apiNanos;
            if (search) {
                nextSearch = now + searchNanos;
            }
        }
        return 0;
    }
}
