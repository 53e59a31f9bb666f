package dev.cardcatalog.job;

import dev.cardcatalog.art.ArtConfig;
import dev.cardcatalog.art.ArtIndexFile;
import dev.cardcatalog.art.ArtIndexStore;
import io.quarkus.logging.Log;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * After an upgrade to a newer art index format ({@link ArtIndexFile#FORMAT_VERSION}), starts the art build that
 * replaces the index of the older format, which every replica of the new version ignores (docs/operations.md): at
 * start, when the art build is enabled, an older-format index is kept and none of the current format, one art build
 * is queued. Replicas starting together queue one between them (a second is refused while one is in flight).
 */
@ApplicationScoped
public class ArtIndexUpgrade {

    /** The job's {@code source}. */
    public static final String SOURCE = "art index format upgrade";

    private final ArtConfig artConfig;
    private final ArtIndexStore store;
    private final JobLedger ledger;
    private final CommandPublisher publisher;
    private final JobConfig config;

    public ArtIndexUpgrade(ArtConfig artConfig, ArtIndexStore store, JobLedger ledger, CommandPublisher publisher,
            JobConfig config) {
        this.artConfig = artConfig;
        this.store = store;
        this.ledger = ledger;
        this.publisher = publisher;
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        if (!artConfig.enabled()) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                startBuildIfOlderFormat();
            } catch (RuntimeException e) {
                Log.warnf("could not check the art index's format (%s); start an art build to replace an index of "
                        + "an older format", e.getMessage());
            }
        }, "art-index-upgrade");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Queues an art build when only an index of an older format is kept.
     *
     * @return the queued build's id; empty when none was needed, or one is in flight already
     */
    public Optional<UUID> startBuildIfOlderFormat() {
        if (!store.onlyOlderFormat()) {
            return Optional.empty();
        }
        JobLedger.JobRecord build;
        try {
            build = ledger.createQueued(JobKind.ART_BUILD, JobTrigger.MANUAL, SOURCE);
        } catch (JobInFlightException e) {
            Log.infof("the art index is of an older format; art-build job %s, in flight, replaces it", e.inFlight());
            return Optional.empty();
        }
        try {
            publisher.publish(build.command(), 0, List.of()).await().atMost(config.publishTimeout());
            Log.infof("the art index is of an older format than format %d: art-build job %s queued to replace it",
                    ArtIndexFile.FORMAT_VERSION, build.id());
            return Optional.of(build.id());
        } catch (RuntimeException e) {
            String reason = "the command could not be published to Kafka: " + e.getMessage();
            Log.warnf("art-build job %s (%s) failed: %s", build.id(), SOURCE, reason);
            ledger.failUnpublished(build.id(), reason);
            return Optional.empty();
        }
    }
}
