package dev.cardcatalog.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * Points the service under test at the JVM's real infrastructure: the embedded PostgreSQL, the embedded KRaft
 * broker and the Scryfall stand-in, each started once per test JVM, and the JVM's own data directory
 * ({@link TestData#DATA_DIR}).
 */
public class CardCatalogTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        ScryfallStandIn standIn = ScryfallStandIn.shared();
        Map<String, String> config = new HashMap<>(ServiceProcess.infrastructure(postgres, kafka, standIn));
        config.put("card-catalog.data-dir", TestData.DATA_DIR.toString());
        return config;
    }

    @Override
    public void stop() {
        // the servers live as long as the JVM: other test classes use them too
    }
}
