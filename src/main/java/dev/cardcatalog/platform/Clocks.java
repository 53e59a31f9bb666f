package dev.cardcatalog.platform;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * The clock every time-based rule reads. Production uses UTC system time; tests replace the bean to move time
 * without sleeping.
 */
public class Clocks {

    @Produces
    @Singleton
    @io.quarkus.arc.DefaultBean
    public Clock clock() {
        return Clock.systemUTC();
    }
}
