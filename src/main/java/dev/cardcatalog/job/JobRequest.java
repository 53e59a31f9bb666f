package dev.cardcatalog.job;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.cardcatalog.platform.StrictBoolean;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/refreshes} and {@code POST /api/art-builds}, optional:
 * {@code {"trigger": "manual" | "scheduled" | "api", "accept_fewer_artworks": true}}. {@code trigger} is
 * {@code manual} when absent. The weekly CronJob sends {@code scheduled}, which skips a refresh of a version already
 * applied. {@code accept_fewer_artworks} (art builds only, false when absent) is the operator's consent to publish an
 * index with fewer artworks than the current one (SERVICE.md §5.8); on a refresh it is a 400 naming the field. The
 * resources read it strictly ({@code StrictJson}, {@code StrictBoolean}): a field it does not have, or a consent
 * that is not JSON {@code true} or {@code false}, is a 400 naming the field, never dropped or guessed.
 */
public record JobRequest(
        @Schema(type = SchemaType.STRING, enumeration = {"manual", "scheduled", "api"}, defaultValue = "manual",
                description = "What started the job; `scheduled` skips a refresh of a version already applied.")
        @Pattern(regexp = "manual|scheduled|api", message = "must be manual, scheduled or api") String trigger,
        @Schema(defaultValue = "false", description = "Art builds only: the operator's consent to publish an index "
                + "with fewer artworks than the current one (SERVICE.md §5.8). A 400 on a refresh.")
        @JsonDeserialize(using = StrictBoolean.class) Boolean acceptFewerArtworks) {

    JobTrigger jobTrigger() {
        return trigger == null ? JobTrigger.MANUAL : JobTrigger.fromWire(trigger).orElseThrow();
    }

    boolean acceptsFewerArtworks() {
        return Boolean.TRUE.equals(acceptFewerArtworks);
    }
}
