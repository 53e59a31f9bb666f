package dev.cardcatalog.suites;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.junit.ArchTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The three suites surefire runs (see the package): every unit-test class is in exactly one, and every test profile
 * but the default is used in one only, so that one JVM builds it.
 */
class SuitesTest {

    static final Path TEST_CLASSES = Path.of("target/test-classes");
    static final Pattern TEST_NAMES = Pattern.compile(ServiceSuite.TEST_CLASSES);
    /** The suites that name their classes; {@link ServiceSuite} takes the rest. */
    static final Map<String, Pattern> NAMED = Map.of(
            "ArtAndScanSuite", Pattern.compile(ArtAndScanSuite.CLASSES),
            "RetriesSuite", Pattern.compile(RetriesSuite.CLASSES));

    @Test
    void everyTestClassIsInExactlyOneSuite() throws IOException {
        List<Class<?>> classes = testClasses();
        assertThat(classes).as("test classes found under %s", TEST_CLASSES).hasSizeGreaterThan(50)
                .contains(SuitesTest.class).extracting(Class::getName).contains("dev.cardcatalog.PackageArrowsTest");
        List<String> inNone = new ArrayList<>();
        for (Class<?> type : classes) {
            String name = type.getName();
            if (!name.endsWith("IT") && !TEST_NAMES.matcher(name).matches()) {
                inNone.add(name);
            }
            List<String> naming = NAMED.entrySet().stream().filter(e -> e.getValue().matcher(name).matches())
                    .map(Map.Entry::getKey).toList();
            assertThat(naming).as("the suites that name %s", name).hasSizeLessThan(2);
            if (!naming.isEmpty()) {
                assertThat(name).as("a class %s names is a test class by name", naming).matches(TEST_NAMES);
            }
        }
        assertThat(inNone).as("test classes no suite takes (name them *Test, or *IT for failsafe)").isEmpty();
    }

    @Test
    void everyTestProfileButTheDefaultIsInOneSuite() throws IOException {
        Map<String, Set<String>> suitesOfProfile = new TreeMap<>();
        for (Class<?> type : testClasses()) {
            TestProfile profile = type.getAnnotation(TestProfile.class);
            if (profile != null) {
                suitesOfProfile.computeIfAbsent(profile.value().getSimpleName(), p -> new TreeSet<>())
                        .add(suite(type.getName()));
            }
        }
        assertThat(suitesOfProfile).as("the suites that use each profile").hasSizeGreaterThan(5)
                .allSatisfy((profile, suites) -> assertThat(suites)
                        .as("%s's classes (put them all in one suite: a named suite's CLASSES, or none)", profile)
                        .hasSize(1));
    }

    @Test
    void theSuitesTakeTestClassesByName() {
        assertThat(Stream.of("dev.cardcatalog.art.ArtBuildTest", "dev.cardcatalog.x.TestThing",
                "dev.cardcatalog.x.ThingTests", "dev.cardcatalog.x.ThingTestCase"))
                .allMatch(name -> TEST_NAMES.matcher(name).matches());
        assertThat(Stream.of("dev.cardcatalog.it.BrokerOutageIT", "dev.cardcatalog.suites.ServiceSuite",
                "dev.cardcatalog.bench.StageTimes", "dev.cardcatalog.x.Thing$Test", "dev.cardcatalog.x.Latest"))
                .noneMatch(name -> TEST_NAMES.matcher(name).matches());
        assertThat(suite("dev.cardcatalog.scan.PhotoMatchTest")).isEqualTo("ArtAndScanSuite");
        assertThat(suite("dev.cardcatalog.platform.OperationsMetricsTest")).isEqualTo("ArtAndScanSuite");
        assertThat(suite("dev.cardcatalog.art.SmallerIndexConsentTest")).isEqualTo("RetriesSuite");
        assertThat(suite("dev.cardcatalog.job.CancelFlowTest")).isEqualTo("RetriesSuite");
        assertThat(suite("dev.cardcatalog.admin.AdminPageBrowserTest")).isEqualTo("ServiceSuite");
        assertThat(suite("dev.cardcatalog.job.CommandFlowTest")).isEqualTo("ServiceSuite");
        assertThat(suite("dev.cardcatalog.platform.MonitoringTest")).isEqualTo("ServiceSuite");
        assertThat(suite("dev.cardcatalog.scan.finder.CardFinderTest")).isEqualTo("ServiceSuite");
        assertThat(suite("dev.cardcatalog.scan.PhotoMatchRulesTest")).isEqualTo("ServiceSuite");
        assertThat(suite("dev.cardcatalog.scan.finder.CannyEdgesTest")).isEqualTo("ArtAndScanSuite");
        assertThat(suite("dev.cardcatalog.scan.CardWarpTest")).isEqualTo("ArtAndScanSuite");
        assertThat(suite("dev.cardcatalog.image.ImageDecoderTest")).isEqualTo("ArtAndScanSuite");
        assertThat(suite("dev.cardcatalog.PackageArrowsTest")).isEqualTo("ServiceSuite");
    }

    static String suite(String className) {
        return NAMED.entrySet().stream().filter(e -> e.getValue().matcher(className).matches()).map(Map.Entry::getKey)
                .findFirst().orElse("ServiceSuite");
    }

    /**
     * The top-level classes under target/test-classes with a JUnit Jupiter test method, or an ArchUnit rule
     * ({@code @ArchTest}), which ArchUnit's engine runs inside the same suites.
     */
    static List<Class<?>> testClasses() throws IOException {
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TEST_CLASSES)) {
            List<Path> topLevel = files.filter(f -> f.toString().endsWith(".class") && !f.toString().contains("$"))
                    .toList();
            for (Path file : topLevel) {
                String name = TEST_CLASSES.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> type = load(name);
                if (Arrays.stream(type.getDeclaredMethods()).anyMatch(SuitesTest::isTest)
                        || Arrays.stream(type.getDeclaredFields()).anyMatch(SuitesTest::isArchTest)
                        || Arrays.stream(type.getDeclaredMethods()).anyMatch(SuitesTest::isArchTest)) {
                    found.add(type);
                }
            }
        }
        return found;
    }

    static boolean isTest(Method method) {
        return Arrays.stream(method.getAnnotations()).anyMatch(a -> a.annotationType().getName()
                .matches("org\\.junit\\.jupiter\\.(api\\.(Test|RepeatedTest|TestFactory|TestTemplate)"
                        + "|params\\.ParameterizedTest)"));
    }

    static boolean isArchTest(AnnotatedElement member) {
        return member.isAnnotationPresent(ArchTest.class);
    }

    static Class<?> load(String name) {
        try {
            return Class.forName(name, false, SuitesTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new AssertionError("cannot load " + name, e);
        }
    }
}
