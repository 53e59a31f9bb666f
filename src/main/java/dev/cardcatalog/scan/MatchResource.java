package dev.cardcatalog.scan;

import dev.cardcatalog.art.ArtIndexStore;
import dev.cardcatalog.art.ArtMatcher;
import dev.cardcatalog.art.StoredArtPictures;
import dev.cardcatalog.catalog.ArtworkPrintings;
import dev.cardcatalog.image.ImageDecodeException;
import dev.cardcatalog.image.JpegStructure;
import dev.cardcatalog.platform.ApiAccess;
import dev.cardcatalog.platform.Problem;
import dev.cardcatalog.platform.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.logging.Log;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirements;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Matching the cards in a photo against the art index (SERVICE.md §5.9–§5.11), public:
 * {@code POST /api/art-index/matches}. A thin resource: receiving the upload here, its decoding in
 * {@link UprightPhoto}, finding and matching its cards in {@link PhotoMatch}.
 */
@PermitAll
@SecurityRequirements
@Tag(name = "Scanning")
@Path("/api/art-index/matches")
public class MatchResource {

    /** Longest side, in pixels, a capture is decoded at (larger ones are subsampled while they are read). */
    static final int MAX_DECODED_SIDE = 1024;
    /**
     * Shortest longer side, in pixels, a large JPEG capture is scaled down to while it is decoded (libjpeg-turbo's
     * DCT scaling, {@link UploadDecoder}): the height of the index's own images (Scryfall {@code small}, 146 × 204),
     * so a capture is never read coarser than what its artwork was fingerprinted from. Measured
     * ({@code ScaledDecodeBench}, docs/benchmarks.md): down to 105 pixels every capture still found its artwork
     * first and confident with the same distances; 204 keeps a margin for finer art than the generated one.
     */
    static final int SCALED_FLOOR = 204;
    /** Largest photo accepted, in bytes: the request body limit, {@code quarkus.http.limits.max-body-size}. */
    static final int MAX_BODY_BYTES = 20 * 1024 * 1024;

    private final ArtIndexStore store;
    private final ArtworkPrintings catalog;
    private final UploadDecoder decoder;
    private final MatchLimit limit;
    private final UploadAdmission admission;
    private final DecodeMemory memory;
    private final Duration deadline;
    private final Duration refusalPause;
    private final PhotoMatch photoMatch;

    public MatchResource(ArtIndexStore store, ArtworkPrintings catalog, MatchLimit limit, ScanConfig config,
            DecodeMemory memory, MeterRegistry metrics, StoredArtPictures pictures) {
        this.store = store;
        this.photoMatch = new PhotoMatch(pictures);
        this.catalog = catalog;
        this.limit = limit;
        this.memory = memory;
        this.deadline = config.uploadDeadline();
        this.refusalPause = config.refusalPause();
        if (refusalPause.isNegative()) {
            throw new IllegalArgumentException("card-catalog.art.refusal-pause must not be negative");
        }
        UploadLimits limits = UploadLimits.of(config);
        if (config.uploadScaledDecoding()) {
            this.decoder = uploadDecoder(limits); // logs which decoder serves uploads (ScaledJpegDecoder)
        } else {
            this.decoder = new UploadDecoder(MAX_BODY_BYTES, 8192, 8192L * 8192L, MAX_DECODED_SIDE, 0, limits);
            Log.info("Uploaded JPEGs are decoded by ImageIO (card-catalog.art.upload-scaled-decoding=false)");
        }
        this.admission = new UploadAdmission(limits, config.cheapUploadWork(), config.cheapUploadBytes().asLongValue(),
                decoder, metrics);
    }

    /**
     * The decoder of uploaded captures. A photo may be larger than a Scryfall small image, but no larger than the
     * request body limit. A large JPEG is decoded scaled by 1/2, 1/4 or 1/8 down to no less than
     * {@link #SCALED_FLOOR} pixels on its longer side (a 12-megapixel photo to 378 × 504), the cheapest decode and
     * the fingerprint's own area averaging; any other image is read at most 1,024 pixels on its longer side by
     * ImageIO (subsampled), far more than the fingerprint's 17 × 16 grid needs, so an 8,192 × 8,192 upload costs
     * 4 MB of pixels instead of the heap.
     */
    public static UploadDecoder uploadDecoder() {
        return uploadDecoder(UploadLimits.DEFAULTS);
    }

    /** {@link #uploadDecoder()} with these limits on what a JPEG may declare. */
    public static UploadDecoder uploadDecoder(UploadLimits limits) {
        return new UploadDecoder(MAX_BODY_BYTES, 8192, 8192L * 8192L, MAX_DECODED_SIDE, SCALED_FLOOR, limits);
    }

    /**
     * One artwork near a card of the photo, with its active printings.
     *
     * @param illustrationId the artwork (Scryfall {@code illustration_id})
     * @param distance       Hamming distance in bits, 0–1,024: the smallest over the card's query fingerprints
     * @param confident      true only for the first artwork of a card whose {@code status} is {@code confident}
     *                       ({@link MatchStatus}); false for every other item, so a client that reads the first
     *                       item's {@code confident} is never told confident for a card that is not in the index
     * @param rotation       how far the photo, as displayed (its EXIF orientation applied), is turned clockwise to
     *                       show the card upright, to the nearest quarter turn: 0, 90, 180 or 270 degrees. For a
     *                       photo that is the card (a guide crop), the turn it matched at, one of the turns tried for
     *                       the photo's shape ({@link CaptureQueries#turnsFor}), the smallest on a tie
     * @param printings      the artwork's active printings
     */
    public record MatchView(UUID illustrationId, int distance, boolean confident, int rotation,
            List<Printing> printings) {
    }

    /**
     * A printing of a matched artwork.
     *
     * @param imageSmallUri the {@code small} image of the face the artwork is on (of the card when {@code face} is
     *                      null)
     * @param face          the face the artwork is on when the card's faces have their own images; null when the
     *                      artwork is the card's one image (a card without faces, or whose faces share one image:
     *                      split, flip, adventure)
     */
    public record Printing(UUID id, String name, String set, String collectorNumber, String lang,
            @Schema(nullable = true) String imageSmallUri, @Schema(nullable = true) Face face) {
    }

    /**
     * A face of a card (SERVICE.md §5.1).
     *
     * @param index its index in the card's {@code card_faces}, from 0 (the front)
     * @param name  its {@code name}
     */
    public record Face(int index, String name) {
    }

    /**
     * A point of the photo.
     *
     * @param x pixels from the photo's left edge, as displayed (its EXIF orientation applied)
     * @param y pixels from its top edge
     */
    public record Corner(double x, double y) {
    }

    /**
     * A card found in the photo (SERVICE.md §5.10).
     *
     * @param corners its four corners in the photo's pixels as displayed: top-left, top-right, bottom-right,
     *                bottom-left of the card as it reads upright (for a photo that is the card, the photo's corners
     *                in that order)
     * @param status  {@code confident}, {@code ambiguous} (two or more artworks are close) or {@code unknown} (none
     *                is), by the rule of {@link MatchStatus}
     * @param matches its nearest artworks, nearest first (the second look's choice first), at most 10
     */
    public record CardView(List<Corner> corners, MatchStatus status, List<MatchView> matches) {
    }

    /**
     * The answer to a match.
     *
     * @param index   the art index file matched against
     * @param matches the first card's nearest artworks ({@code cards[0].matches}), where clients before cards were
     *                found read them; empty when no card is found
     * @param cards   the cards found, in reading order (rows from the top, each from the left); empty when none is
     */
    public record MatchesView(String index, List<MatchView> matches, List<CardView> cards) {
    }

    /**
     * Matches the cards in a photo (JPEG or PNG) against the current index (SERVICE.md §5.9–§5.11): each card found
     * ({@link PhotoMatch}: its outline found, warped upright, fingerprinted at the turns that could show it upright)
     * with its corners, its status and its 10 nearest artworks by the smallest Hamming distance over its query
     * fingerprints; a photo that is itself the card (a guide crop) as before, the whole photo at the turns its
     * shape allows. 400 when the body is not an image; 404 before the first build; 503 with {@code Retry-After}
     * when more photos are being matched than {@link MatchLimit} lets in. The upload has been received whole before
     * this method runs ({@link MatchUploads}: 408 when it is slower than the upload timeout, 503 when too many are
     * being received), so {@code body} is read from memory and a slow upload holds no turn.
     *
     * <p>What an upload may cost (SERVICE.md §7), in order: its markers are walked before it takes a turn
     * ({@link UploadAdmission}: 400 for what no camera writes or what declares too much work or memory); it waits
     * for a turn of its pool, cheap or expensive ({@link MatchLimit}); with the turn it reserves the memory its
     * header says it needs ({@link DecodeMemory}: 503 at once when it does not fit); then its decoding and matching
     * have {@code card-catalog.art.upload-deadline} together ({@link UploadDeadline}: 422 past it). A refused
     * upload's answer (400 or 422) is sent {@code card-catalog.art.refusal-pause} later, by a timer
     * ({@link #refused}).
     */
    @POST
    @Consumes({"image/jpeg", "image/png", MediaType.APPLICATION_OCTET_STREAM})
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking
    // The operation's answers (SERVICE.md §9), given by this class, by MatchUploads (408, 413, 503 before this
    // method runs) and by MatchLimit (503); the problem answers are META-INF/openapi.yaml's components/responses.
    @Operation(operationId = "matchPhoto", summary = "Matches the cards in a photo against the art index",
            description = """
            Matches the cards in a JPEG or PNG photo against the art index. The answer lists every card found, in \
            reading order (rows from the top, each from the left), with its `corners` in the photo's pixels as \
            displayed (EXIF applied), its `status` (`confident`, `ambiguous` or `unknown`) and its 10 nearest \
            artworks, each with its Hamming distance, whether it is confident, its `rotation` and its printings \
            (each saying which `face` the artwork is on). `matches` repeats the first card's nearest artworks for \
            clients written before cards were found; a photo with no card in it is 200 with none. `index` names \
            the index matched against.

            Send the photo as the body, as `image/jpeg`, `image/png` or `application/octet-stream`, at most 20 MiB, \
            received whole within 10 s (`card-catalog.art.upload-timeout`). What a photo may cost is bounded: one \
            that no camera writes, or that declares too much work or memory, is refused from its markers (400); \
            one that takes longer than its deadline to decode and match is 422 `upload-too-costly`; and a replica \
            that is receiving or matching as many photos as it takes answers 503 `service-busy` with \
            `Retry-After`. 404 before the first art build.

            """ + ApiAccess.PUBLIC)
    @APIResponse(responseCode = "200", description = "The index matched against and the cards found, in reading "
            + "order, each with its corners, its status and its nearest artworks, nearest first (a card made "
            + "confident by the second look: the artwork it chose first).",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(implementation = MatchesView.class)))
    @APIResponse(responseCode = "400", ref = "InvalidPhoto")
    @APIResponse(responseCode = "404", ref = "NotFound")
    @APIResponse(responseCode = "406", ref = "NotAcceptable")
    @APIResponse(responseCode = "408", ref = "RequestTimeout")
    @APIResponse(responseCode = "413", ref = "BodyTooLarge")
    @APIResponse(responseCode = "415", ref = "UnsupportedMediaType")
    @APIResponse(responseCode = "422", ref = "UploadTooCostly")
    @APIResponse(responseCode = "500", ref = "InternalError")
    @APIResponse(responseCode = "503", ref = "ServiceBusy")
    @RequestBody(description = "The photo: a JPEG or PNG of a card, at most 20 MiB (20,971,520 bytes, "
            + "`quarkus.http.limits.max-body-size`), received whole within 10 s (`card-catalog.art.upload-timeout`).",
            required = true, content = {
                @Content(mediaType = "image/jpeg", schema = @Schema(type = SchemaType.STRING, format = "binary",
                        maxLength = MAX_BODY_BYTES)),
                @Content(mediaType = "image/png", schema = @Schema(type = SchemaType.STRING, format = "binary",
                        maxLength = MAX_BODY_BYTES)),
                @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM, schema = @Schema(type = SchemaType.STRING,
                        format = "binary", maxLength = MAX_BODY_BYTES))})
    // the body is MatchUploads' (received whole, copied once); a body parameter would have Quarkus REST copy it
    public Uni<MatchesView> match(@Context RoutingContext request) {
        return matched(request, this::artIndex);
    }

    /**
     * {@link #match}, against the warm-up's index of drawn artworks instead of the art index: the warm-up's own
     * requests over HTTP ({@link WarmUpRequests}). Only those reach it: {@link MatchUploads} answers 404 to any
     * request without the token before its body is read. Not in the OpenAPI document.
     */
    @POST
    @Path("warm-up")
    @Consumes({"image/jpeg", "image/png", MediaType.APPLICATION_OCTET_STREAM})
    @Produces(MediaType.APPLICATION_JSON)
    @Blocking
    @Operation(hidden = true)
    public Uni<MatchesView> warmUp(@Context RoutingContext request) {
        return matched(request, MatchResource::warmUpIndex);
    }

    /** An index to match against and its file name: the art index, or the warm-up's. */
    private record Index(String fileName, ArtMatcher matcher) {
    }

    /** The warm-up's index of drawn artworks ({@link MatchWarmUp#index}, drawn once a process). */
    private static Index warmUpIndex() {
        return new Index(WarmUpRequests.INDEX, MatchWarmUp.index());
    }

    /** The current art index; 404 before the first build. */
    private Index artIndex() {
        ArtIndexStore.LoadedIndex loaded = store.matcher().orElseThrow(() -> ProblemException.notFound(
                "There is no art index yet: it is written by the first art build (POST /api/art-builds)."));
        return new Index(loaded.index().fileName(), loaded.matcher());
    }

    private Uni<MatchesView> matched(RoutingContext request, Supplier<Index> index) {
        try {
            byte[] upload = received(request);
            UploadCost cost = admission.admit(upload);
            return Uni.createFrom().item(limit.run(cost.expensive(), () -> {
                try (DecodeMemory.Reservation reserved = memory.reserve(cost.memoryBytes())) {
                    return admission.counted(() -> matchUpload(upload, cost.jpeg(), index,
                            UploadDeadline.after(deadline)));
                }
            }));
        } catch (ProblemException e) {
            return refused(e);
        }
    }

    /**
     * The failed answer {@code e}: a refusal of the upload itself (400, or 422 past its deadline) after the
     * refusal pause, on a timer that holds no thread and no turn, so that refusals sent back to back cannot keep the
     * cores; any other (404, 503) at once.
     */
    private Uni<MatchesView> refused(ProblemException e) {
        int status = e.problem().status();
        if (refusalPause.isZero() || (status != 400 && status != 422)) {
            return Uni.createFrom().failure(e);
        }
        return Uni.createFrom().voidItem().onItem().delayIt().by(refusalPause)
                .onItem().transformToUni(paused -> Uni.createFrom().failure(e));
    }

    /** The upload, already in memory ({@link MatchUploads#body}); 400 when it is empty. */
    private static byte[] received(RoutingContext request) {
        byte[] body = MatchUploads.body(request);
        if (body.length == 0) {
            throw ProblemException.badRequest("body",
                    "The body is empty (0 bytes): send a JPEG or PNG photo of a card as the request body.");
        }
        return body;
    }

    private MatchesView matchUpload(byte[] body, JpegStructure walked, Supplier<Index> index,
            UploadDeadline deadline) {
        Index loaded = index.get();
        UprightPhoto photo;
        try {
            photo = UprightPhoto.decode(body, walked, decoder, deadline);
        } catch (ImageDecodeException e) {
            throw new ProblemException(Problem.of("invalid-image", "Not an image", 400,
                    "The body is not a JPEG or PNG image that can be read: " + e.getMessage()).with("field", "body"));
        }
        List<PhotoMatch.Found> found = photoMatch.match(photo, loaded.matcher(), deadline);
        return answer(loaded.fileName(), found);
    }

    /**
     * The cards of {@code body} as an upload's are found and matched, by the same decoder and {@link PhotoMatch},
     * against {@code matcher}, without a deadline, a turn or the art index: {@link MatchWarmUp}'s rehearsal.
     *
     * @throws ImageDecodeException if the decoder refuses the body
     */
    List<PhotoMatch.Found> rehearse(byte[] body, ArtMatcher matcher)
            throws ImageDecodeException {
        return photoMatch.match(UprightPhoto.decode(body, decoder, UploadDeadline.none()), matcher,
                UploadDeadline.none());
    }

    /** The answer for the cards found: their printings read in one query. */
    private MatchesView answer(String index, List<PhotoMatch.Found> found) {
        Map<UUID, List<Printing>> printings = printings(found.stream()
                .flatMap(card -> card.nearest().stream().map(PhotoMatch.Item::artworkId)).distinct().toList());
        List<CardView> cards = new ArrayList<>();
        for (PhotoMatch.Found card : found) {
            List<MatchView> matches = new ArrayList<>();
            for (PhotoMatch.Item item : card.nearest()) {
                boolean confident = matches.isEmpty() && card.status() == MatchStatus.CONFIDENT;
                matches.add(new MatchView(item.artworkId(), item.distance(), confident, item.rotation(),
                        printings.getOrDefault(item.artworkId(), List.of())));
            }
            List<Corner> corners = new ArrayList<>(4);
            for (int k = 0; k < 4; k++) {
                corners.add(new Corner(round(card.corners().x(k)), round(card.corners().y(k))));
            }
            cards.add(new CardView(List.copyOf(corners), card.status(), List.copyOf(matches)));
        }
        return new MatchesView(index, cards.isEmpty() ? List.of() : cards.get(0).matches(), List.copyOf(cards));
    }

    /** A coordinate to a tenth of a pixel. */
    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private Map<UUID, List<Printing>> printings(List<UUID> artworks) {
        Map<UUID, List<Printing>> printings = new LinkedHashMap<>();
        catalog.printingsOf(artworks).forEach((artwork, rows) -> printings.put(artwork, rows.stream()
                .map(p -> new Printing(p.id(), p.name(), p.setCode(), p.collectorNumber(), p.lang(), p.imageSmallUri(),
                        p.face() == null ? null : new Face(p.face(), p.faceName())))
                .toList()));
        return printings;
    }
}
