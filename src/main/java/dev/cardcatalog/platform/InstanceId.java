package dev.cardcatalog.platform;

import jakarta.inject.Singleton;
import java.lang.management.ManagementFactory;
import java.util.UUID;

/** This process's name in the ledger: host, pid and a random suffix, so a restarted process is a new owner. */
@Singleton
public class InstanceId {

    private final String value;

    public InstanceId() {
        String runtime = ManagementFactory.getRuntimeMXBean().getName();
        this.value = runtime + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
