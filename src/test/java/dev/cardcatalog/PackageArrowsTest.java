package dev.cardcatalog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The arrows between the packages (SERVICE.md §2, STYLE.md "Layout"), checked on the compiled classes of
 * src/main, not the tests: each feature uses only the packages its arrows point to, so they all point one way; the
 * decoding ({@code image}) and the card finder ({@code scan.finder}) are plain Java, free of Quarkus and Jakarta; and
 * no two top-level packages use each other, however indirectly. A new top-level package fails the first rule until
 * it has its row.
 */
@AnalyzeClasses(packages = "dev.cardcatalog",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class PackageArrowsTest {

    /** The frameworks plain Java code does without. */
    private static final String[] FRAMEWORKS = {"io.quarkus..", "jakarta..", "io.smallrye..", "io.vertx.."};

    /**
     * Who may use whom, one row a package: {@code job} drives {@code catalog} and {@code art}, which call
     * {@code scryfall}; {@code scan} uses {@code art} and {@code catalog}'s printings and nothing uses {@code scan};
     * nothing uses {@code job} but the admin page, which reads its ledger and submits through it; {@code art} and
     * {@code scan} decode with {@code image}, which uses nothing of ours but {@code platform}; {@code scan} finds
     * cards with its {@code scan.finder}, which uses nothing of ours but {@code image} (never {@code scan}: the
     * deadline it checks is its own {@code Deadline}, which the upload's implements); {@code platform} uses no
     * feature.
     */
    @ArchTest
    static final ArchRule eachPackageUsesOnlyThePackagesItsArrowsPointTo = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("platform").definedBy("dev.cardcatalog.platform..")
            .layer("image").definedBy("dev.cardcatalog.image..")
            .layer("scryfall").definedBy("dev.cardcatalog.scryfall..")
            .layer("catalog").definedBy("dev.cardcatalog.catalog..")
            .layer("art").definedBy("dev.cardcatalog.art..")
            .layer("scan").definedBy("dev.cardcatalog.scan")
            .layer("finder").definedBy("dev.cardcatalog.scan.finder..")
            .layer("job").definedBy("dev.cardcatalog.job..")
            .layer("admin").definedBy("dev.cardcatalog.admin..")
            .whereLayer("platform").mayNotAccessAnyLayer()
            .whereLayer("image").mayOnlyAccessLayers("platform")
            .whereLayer("scryfall").mayOnlyAccessLayers("platform")
            .whereLayer("catalog").mayOnlyAccessLayers("scryfall", "platform")
            .whereLayer("art").mayOnlyAccessLayers("catalog", "scryfall", "image", "platform")
            .whereLayer("scan").mayOnlyAccessLayers("art", "catalog", "finder", "image", "platform")
            .whereLayer("finder").mayOnlyAccessLayers("image")
            .whereLayer("job").mayOnlyAccessLayers("catalog", "art", "scryfall", "platform")
            .whereLayer("admin").mayOnlyAccessLayers("job", "art", "platform")
            .because("the arrows of SERVICE.md §2 point one way");

    @ArchTest
    static final ArchRule imageIsPlainJava = noClasses().that().resideInAPackage("dev.cardcatalog.image..")
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("decoding is used by art/ and scan/ alike and runs anywhere, without the container");

    @ArchTest
    static final ArchRule finderIsPlainJava = noClasses().that().resideInAPackage("dev.cardcatalog.scan.finder..")
            .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
            .because("finding cards in a photo is plain Java over BoofCV (STYLE.md, scan/finder/)");

    /** What the finder is made of: itself, the decoded image, BoofCV and the libraries under it, and the JDK. */
    @ArchTest
    static final ArchRule finderUsesOnlyBoofCvAndTheJdk = classes().that()
            .resideInAPackage("dev.cardcatalog.scan.finder..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dev.cardcatalog.scan.finder..",
                    "dev.cardcatalog.image..", "boofcv..", "georegression..", "org.ddogleg..", "org.ejml..", "java..")
            .because("the finder runs anywhere the photo's pixels are, without the service around it");

    @ArchTest
    static final ArchRule topLevelPackagesAreFreeOfCycles = slices().matching("dev.cardcatalog.(*)..")
            .should().beFreeOfCycles();
}
