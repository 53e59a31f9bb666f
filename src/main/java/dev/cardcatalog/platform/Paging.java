package dev.cardcatalog.platform;

/**
 * The {@code page} and {@code size} query parameters of a list. They are taken as text and read here, so that a
 * value that is not a whole number in range is a 400 naming the parameter (Jakarta REST answers a query parameter
 * it cannot convert with 404, Jakarta RESTful Web Services §3.2).
 *
 * @param page the page, from 1 to {@link #MAX_PAGE}
 * @param size items a page, from 1 to {@link #MAX_SIZE}
 */
public record Paging(int page, int size) {

    /** The page given when none is: 1. */
    public static final int DEFAULT_PAGE = 1;
    /** The size given when none is: 20. */
    public static final int DEFAULT_SIZE = 20;
    /** The largest page: 1,000,000 (with the largest size, an offset well within an int). */
    public static final int MAX_PAGE = 1_000_000;
    /** The largest size: 100. */
    public static final int MAX_SIZE = 100;
    /** The {@code page} parameter as the OpenAPI document describes it. */
    public static final String PAGE = "The page, from 1 to 1,000,000; 1 when absent.";
    /** The {@code size} parameter as the OpenAPI document describes it. */
    public static final String SIZE = "Items a page, from 1 to 100; 20 when absent.";

    /**
     * Reads the parameters as given, null or blank meaning the default.
     *
     * @throws ProblemException 400 {@code invalid-request} naming {@code page} or {@code size}
     */
    public static Paging of(String page, String size) {
        return new Paging(read("page", page, DEFAULT_PAGE, MAX_PAGE), read("size", size, DEFAULT_SIZE, MAX_SIZE));
    }

    /** The zero-based index of the page's first item. */
    public long offset() {
        return (long) (page - 1) * size;
    }

    private static int read(String field, String text, int absent, int max) {
        if (text == null || text.isBlank()) {
            return absent;
        }
        String trimmed = text.trim();
        if (trimmed.length() <= 7 && trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
            int value = Integer.parseInt(trimmed);
            if (value >= 1 && value <= max) {
                return value;
            }
        }
        throw ProblemException.badRequest(field, field + " must be a whole number from 1 to " + max + ", not "
                + ProblemException.quote(text) + ".");
    }
}
