package dev.cardcatalog.suites;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The art index, the scanner's match and uploads: the classes of {@code ArtProfile}, {@code MatchLimitProfile} and
 * {@code UploadTimeoutProfile}, and the plain tests of the art, scan and admin packages (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ArtAndScanSuite.CLASSES)
public class ArtAndScanSuite {

    /**
     * This suite's classes, by name: every test class of the art, scan and admin packages but those of another
     * suite's profiles, and the art profile's classes elsewhere.
     */
    static final String CLASSES = "dev\\.cardcatalog\\.("
            + "(art|scan|admin)\\.(?!SmallerIndexConsentTest$|AdminPageBrowserTest$)[^.$]*Test"
            + "|platform\\.(GeneratedClient|OperationsMetrics)Test"
            + "|scryfall\\.ScryfallImageTest)";
}
