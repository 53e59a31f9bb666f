package dev.cardcatalog.suites;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Retries, rate limits, quiet windows and the Scryfall client's waits: the classes of {@code ShortRetryProfile} and
 * {@code ShortLockoutProfile}, and the matcher's plain tests, which even the suites out (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(RetriesSuite.CLASSES)
public class RetriesSuite {

    /** This suite's classes, by name. */
    static final String CLASSES = "dev\\.cardcatalog\\.("
            + "job\\.(CancelFlow|RetryFlow|RetryPolicyFlow|TraceContextFlow)Test"
            + "|art\\.(SmallerIndexConsent|ArtMatcher)Test"
            + "|scryfall\\.(ScryfallClient|QuietWindow)Test)";
}
