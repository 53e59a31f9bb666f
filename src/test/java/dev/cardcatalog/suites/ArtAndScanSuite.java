package dev.cardcatalog.suites;

import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * The art index, the scanner's match and uploads: the classes of {@code ArtProfile}, {@code MatchLimitProfile} and
 * {@code UploadTimeoutProfile}, and the plain tests of the art, image, scan (with its finder) and admin packages but
 * the longest (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ArtAndScanSuite.CLASSES)
public class ArtAndScanSuite {

    /**
     * This suite's classes, by name: every test class of the art, image, scan, scan.finder and admin packages but
     * those of another suite's profiles and the longest plain ones, and the art profile's classes elsewhere. The
     * plain ones run in {@link ServiceSuite} (the finder's two, the pages', the capture's, the scaled decoding's) and
     * in {@link RetriesSuite} (the matcher's exhaustive comparisons), the suites that were shorter than this one
     * (bench/suite-bench.sh).
     */
    static final String CLASSES = "dev\\.cardcatalog\\.("
            + "(art|image|scan|scan\\.finder|admin)\\.(?!SmallerIndexConsentTest$|ArtMatcherTest$"
            + "|AdminPageBrowserTest$|CardFinderTest$|PhotoMatchRulesTest$"
            + "|CardsThatLookLikePagesTest$|CaptureMatchingTest$|ScaledJpegDecodingTest$)[^.$]*Test"
            + "|platform\\.(GeneratedClient|OperationsMetrics)Test"
            + "|scryfall\\.ScryfallImageTest)";
}
