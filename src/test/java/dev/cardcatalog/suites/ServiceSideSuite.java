package dev.cardcatalog.suites;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Every unit test {@link ScannerSideSuite} does not take (the catalog, jobs and retries, the Scryfall client, the
 * platform's documents, rules and security): the other half (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ServiceSideSuite.TEST_CLASSES)
@ExcludeClassNamePatterns(ScannerSideSuite.CLASSES)
public class ServiceSideSuite {

    /** The classes surefire would take by default: {@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}. */
    static final String TEST_CLASSES = "^(.+\\.Test[^.$]*|.+\\.[^.$]*(Test|Tests|TestCase))$";
}
