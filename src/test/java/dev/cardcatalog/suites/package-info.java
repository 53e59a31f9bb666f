/**
 * The unit tests in two suites, which surefire runs side by side in two JVMs ({@code unit.forks} in the pom), each
 * with its own PostgreSQL, broker, stand-in and data directory ({@code TestData.perJvm}).
 *
 * <p>Each JVM builds and starts the application of every test profile its classes use, which is most of a
 * profile's cost, so the split is by profile: {@link ScannerSideSuite} takes the classes of the art, admin-page and
 * upload profiles ({@link ScannerSideSuite#CLASSES}), with the plain tests of the art and scan packages, and
 * {@link ServiceSideSuite} every other test class. That keeps the two halves about equally long and every profile
 * but the default in one JVM. {@code SuitesTest} checks both rules: every test class in exactly one suite, every
 * profile's classes in one. A new class of one of {@code ScannerSideSuite}'s profiles goes into its {@code CLASSES};
 * move a profile when one half grows much longer than the other ({@code bench/suite-bench.sh} lists the per-class
 * times).
 */
package dev.cardcatalog.suites;
