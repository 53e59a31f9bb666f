/**
 * The unit tests in three suites, which surefire runs side by side, one per JVM ({@code unit.forks} in the pom), each
 * JVM with its own PostgreSQL, broker, stand-in and data directory ({@code TestData.perJvm}).
 *
 * <p>A JVM builds and starts the application of every test profile its classes use, which is most of a profile's
 * cost, so the split is by profile: {@link ArtAndScanSuite} and {@link RetriesSuite} name their classes
 * ({@code CLASSES}), and {@link ServiceSuite} takes every other test class. That keeps the three about equally long
 * (about five minutes each on a quiet 2-core machine) and every profile but the default in one JVM; plain tests
 * (no profile) may go to any suite to even them out. {@code SuitesTest}
 * checks both rules: every test class in exactly one suite, and every profile's classes in one. A new class of one of
 * the named suites' profiles goes into that suite's {@code CLASSES}; move a profile when one suite grows much longer
 * than the others ({@code bench/suite-bench.sh} lists the per-class times).
 */
package dev.cardcatalog.suites;
