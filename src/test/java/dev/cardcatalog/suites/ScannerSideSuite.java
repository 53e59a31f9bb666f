package dev.cardcatalog.suites;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The unit tests of the art index, the scanner's match, uploads and the admin page, which use the {@code ArtProfile},
 * {@code AdminPageProfile}, {@code MatchLimitProfile} and {@code UploadTimeoutProfile} profiles: one of the two
 * halves (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ScannerSideSuite.CLASSES)
public class ScannerSideSuite {

    /**
     * This suite's classes: every test class of the art, scan and admin packages but one of the retry profile's, and
     * the art profile's classes elsewhere.
     */
    static final String CLASSES = "dev\\.cardcatalog\\.("
            + "(art|scan|admin)\\.(?!SmallerIndexConsentTest$)[^.$]*Test"
            + "|platform\\.(GeneratedClient|OperationsMetrics)Test"
            + "|scryfall\\.ScryfallImageTest)";
}
