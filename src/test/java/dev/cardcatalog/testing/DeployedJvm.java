package dev.cardcatalog.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * The service's JVM options as deploy/base/deployment.yaml runs it, for the tests and benchmarks that start the
 * packaged service as deployed: the heap cap, the serial collector (what the JVM picks on its own in that container,
 * 2 CPUs and 768 MiB, named so that it does not depend on the limits) and its survivor spaces, which hold the photos
 * being matched (docs/benchmarks.md, issue 24). ManifestsTest holds the Deployment to {@link #options(String)} at
 * {@link #HEAP}.
 */
public final class DeployedJvm {

    /** The Deployment's heap cap, as {@code -Xmx} takes it. */
    public static final String HEAP = "256m";

    private static final List<String> COLLECTOR = List.of("-XX:+UseSerialGC", "-XX:SurvivorRatio=4",
            "-XX:TargetSurvivorRatio=90");

    private DeployedJvm() {
    }

    /** The Deployment's options with the heap capped at {@code heap} (e.g. {@code 256m}) instead of its own. */
    public static List<String> options(String heap) {
        List<String> options = new ArrayList<>();
        options.add("-Xmx" + heap);
        options.addAll(COLLECTOR);
        return List.copyOf(options);
    }
}
