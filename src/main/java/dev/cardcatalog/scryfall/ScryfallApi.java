package dev.cardcatalog.scryfall;

import io.quarkus.rest.client.reactive.Url;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.ClientHeaderParam;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Scryfall's API as a reactive REST client. Every request carries the configured User-Agent and
 * {@code Accept: application/json} (Scryfall answers 400 otherwise). Answers are returned as they came, whatever
 * the status: {@link ScryfallClient} owns the mapping of statuses to values and exceptions, and the retries.
 */
@RegisterRestClient(configKey = "scryfall")
@ClientHeaderParam(name = "User-Agent", value = "${card-catalog.scryfall.user-agent}")
interface ScryfallApi {

    /** GET of an API URL: a path of the configured base URL, or a {@code next_page} link Scryfall gave. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    Uni<RestResponse<String>> get(@Url String url);
}
