package dev.cardcatalog.job;

import dev.cardcatalog.art.ArtIndexIntegrityException;
import dev.cardcatalog.art.NoCatalogException;
import dev.cardcatalog.catalog.BulkFileIntegrityException;
import dev.cardcatalog.catalog.CatalogConfigurationException;
import dev.cardcatalog.catalog.NoValidRecordsException;
import dev.cardcatalog.platform.TransientFailure;
import dev.cardcatalog.scryfall.RateLimitedException;
import dev.cardcatalog.scryfall.ScryfallException;
import dev.cardcatalog.scryfall.ScryfallUnavailableException;
import java.io.UncheckedIOException;

/**
 * What a run's failure is, in one place: {@link RateLimitRetry} reads its {@link RateLimitRetry.Kind} (retry after
 * the wait asked for, back off, or fail; SERVICE.md §6.4) and {@link FailureReasons} whether a feature raised it on
 * purpose (its message is the reason) or it is unexpected (a defect or an outage, logged with its stack trace).
 */
final class FailureTaxonomy {

    /**
     * @param kind how the failure counts for the retry policy
     * @param expected true when a feature raises it on purpose with a message fit for operators
     */
    record Classification(RateLimitRetry.Kind kind, boolean expected) {
    }

    private FailureTaxonomy() {
    }

    static Classification of(Throwable failure) {
        if (failure instanceof RateLimitedException) {
            return new Classification(RateLimitRetry.Kind.RATE_LIMITED, true);
        }
        if (failure instanceof ScryfallUnavailableException || failure instanceof BulkFileIntegrityException
                || failure instanceof TransientFailure || failure instanceof JobLedger.LedgerException) {
            return new Classification(RateLimitRetry.Kind.TRANSIENT, true);
        }
        if (failure instanceof UncheckedIOException) {
            // the disk or a stream failing: worth a retry, and worth its stack trace in the log
            return new Classification(RateLimitRetry.Kind.TRANSIENT, false);
        }
        if (failure instanceof ScryfallException || failure instanceof NoValidRecordsException
                || failure instanceof CatalogConfigurationException || failure instanceof NoCatalogException
                || failure instanceof ArtIndexIntegrityException) {
            return new Classification(RateLimitRetry.Kind.PERMANENT, true);
        }
        return new Classification(RateLimitRetry.Kind.PERMANENT, false);
    }
}
