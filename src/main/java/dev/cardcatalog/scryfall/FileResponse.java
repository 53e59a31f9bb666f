package dev.cardcatalog.scryfall;

import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.buffer.Buffer;

/**
 * A 200 answer to a file request whose body has not been read yet.
 *
 * @param url the URL requested
 * @param contentLength the {@code Content-Length} in bytes, -1 when not given
 * @param contentEncoding the {@code Content-Encoding}, null when none (the body is passed on as it came, never decoded)
 * @param body the body, read on demand; it fails with {@link ScryfallUnavailableException} when the connection breaks
 */
public record FileResponse(String url, long contentLength, String contentEncoding, Multi<Buffer> body) {
}
