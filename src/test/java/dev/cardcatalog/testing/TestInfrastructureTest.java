package dev.cardcatalog.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The switch between the embedded infrastructure and Testcontainers ({@code -Ptestcontainers}). */
class TestInfrastructureTest {

    @Test
    void withoutDockerStartingAContainerFailsAtOnceSayingSo() {
        // The real path, on a machine without a Docker engine (as this project's CI): Testcontainers looks for one,
        // finds none, and the start fails before anything is pulled or waited for.
        Assumptions.assumeFalse(TestInfrastructure.dockerAvailable(), "a Docker engine answers here");
        assertThatThrownBy(TestInfrastructure::startPostgres).isInstanceOf(IllegalStateException.class)
                .hasMessage(TestInfrastructure.NO_DOCKER);
        assertThatThrownBy(TestInfrastructure::startKafka).isInstanceOf(IllegalStateException.class)
                .hasMessage(TestInfrastructure.NO_DOCKER);
    }

    @Test
    void theMessageSaysDockerIsNeededAndHowToDoWithout() {
        assertThatThrownBy(() -> TestInfrastructure.requireDocker(() -> false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("-Ptestcontainers")
                .hasMessageContaining("need a Docker engine, and Testcontainers found none")
                .hasMessageContaining("Run without -Ptestcontainers to use the embedded PostgreSQL and Kafka");
        assertThatCode(() -> TestInfrastructure.requireDocker(() -> true)).doesNotThrowAnyException();
    }

    @Test
    void embeddedIsTheDefaultAndAnUnknownChoiceIsRefused() {
        String before = System.getProperty(TestInfrastructure.PROPERTY);
        try {
            System.clearProperty(TestInfrastructure.PROPERTY);
            assertThat(TestInfrastructure.testcontainers()).isFalse();
            System.setProperty(TestInfrastructure.PROPERTY, "testcontainers");
            assertThat(TestInfrastructure.testcontainers()).isTrue();
            System.setProperty(TestInfrastructure.PROPERTY, "docker");
            assertThatThrownBy(TestInfrastructure::testcontainers).hasMessageContaining("embedded (the default)");
        } finally {
            if (before == null) {
                System.clearProperty(TestInfrastructure.PROPERTY);
            } else {
                System.setProperty(TestInfrastructure.PROPERTY, before);
            }
        }
    }
}
