package dev.cardcatalog.suites;

import org.junit.platform.suite.api.ExcludeClassNamePatterns;
import org.junit.platform.suite.api.IncludeClassNamePatterns;
import org.junit.platform.suite.api.SelectPackages;
import org.junit.platform.suite.api.Suite;

/**
 * Every test class the other two suites do not take: the catalog, jobs and commands, the admin page in the browser,
 * the platform's documents, rules, metrics and security (the default profile, {@code AdminPageProfile},
 * {@code FreshInstanceProfile}, {@code ProductionSecurityProfile}), the longest plain tests of the finder and
 * the matcher ({@link ArtAndScanSuite#CLASSES}), and any new class (see the package).
 */
@Suite
@SelectPackages("dev.cardcatalog")
@IncludeClassNamePatterns(ServiceSuite.TEST_CLASSES)
@ExcludeClassNamePatterns({ArtAndScanSuite.CLASSES, RetriesSuite.CLASSES})
public class ServiceSuite {

    /** The classes surefire would take by default: {@code Test*}, {@code *Test}, {@code *Tests}, {@code *TestCase}. */
    static final String TEST_CLASSES = "^(.+\\.Test[^.$]*|.+\\.[^.$]*(Test|Tests|TestCase))$";
}
