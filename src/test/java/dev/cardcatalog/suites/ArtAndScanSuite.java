package dev.cardcatalog.suites;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The art index, the scanner's match and uploads: the classes of {@code ArtProfile}, {@code MatchLimitProfile} and
 * {@code UploadTimeoutProfile}, and the plain tests of the art, image, scan and admin packages but the four longest
 * (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ArtAndScanSuite.CLASSES)
public class ArtAndScanSuite {

    /**
     * This suite's classes, by name: every test class of the art, image, scan and admin packages but those of another
     * suite's profiles and the four longest plain ones, and the art profile's classes elsewhere. The plain ones run in
     * {@link ServiceSuite}, which was about a minute shorter than this one (the finder's and the matcher's tests, some
     * 30 s; bench/suite-bench.sh).
     */
    static final String CLASSES = "dev\\.cardcatalog\\.("
            + "(art|image|scan|admin)\\.(?!SmallerIndexConsentTest$|AdminPageBrowserTest$|CardFinderTest$"
            + "|CardsThatLookLikePagesTest$|CaptureMatchingTest$|ScaledJpegDecodingTest$)[^.$]*Test"
            + "|platform\\.(GeneratedClient|OperationsMetrics)Test"
            + "|scryfall\\.ScryfallImageTest)";
}
