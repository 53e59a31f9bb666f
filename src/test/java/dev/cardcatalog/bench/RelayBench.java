package dev.cardcatalog.bench;

import dev.cardcatalog.testing.EmbeddedKafkaBroker;
import dev.cardcatalog.testing.EmbeddedPostgresServer;
import dev.cardcatalog.testing.ServiceProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The delay relay benchmark (docs/benchmarks.md): publishes delayed commands with random due times to
 * {@code card-catalog.commands.delayed}, spread over its partitions, lets the packaged service's relay forward them,
 * and measures each one's lateness: the forwarded record's timestamp (set by the relay's producer) minus its
 * {@code not-before}. The service's command consumer is switched off, so forwarded commands are only counted.
 *
 * <p>Arguments: {@code <commands> <longest delay, seconds>}.
 */
public final class RelayBench {

    private RelayBench() {
    }

    public static void main(String[] args) throws Exception {
        int commands = Integer.parseInt(args[0]);
        int maxDelaySeconds = Integer.parseInt(args[1]);
        EmbeddedPostgresServer postgres = EmbeddedPostgresServer.shared();
        EmbeddedKafkaBroker kafka = EmbeddedKafkaBroker.shared();
        Map<String, String> config = ServiceProcess.infrastructure(postgres, kafka, null);
        config.put("card-catalog.data-dir", Path.of("target/bench/relay-data").toAbsolutePath().toString());
        config.put("mp.messaging.incoming.commands-in.enabled", "false");
        Path log = Path.of("target/bench/relay-service.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Files.deleteIfExists(log);
        Random random = new Random(20261129);
        Map<String, Long> due = new HashMap<>();
        try (ServiceProcess service = ServiceProcess.start(0, List.of("-Xmx256m"), config, log, Duration.ofMinutes(3));
                KafkaProducer<String, String> producer = producer(kafka);
                KafkaConsumer<String, String> consumer = consumer(kafka)) {
            consumer.subscribe(List.of("card-catalog.commands"));
            consumer.poll(Duration.ofSeconds(2)); // joined before anything is forwarded
            long start = System.currentTimeMillis();
            for (int i = 0; i < commands; i++) {
                String jobId = UUID.randomUUID().toString();
                long notBefore = start + 2_000 + (long) (random.nextDouble() * (maxDelaySeconds - 2) * 1000);
                due.put(jobId, notBefore);
                ProducerRecord<String, String> record = new ProducerRecord<>("card-catalog.commands.delayed",
                        "refresh-" + random.nextInt(1_000), "{\"type\":\"refresh\",\"jobId\":\"" + jobId + "\"}");
                record.headers().add("retry-count", "1".getBytes(StandardCharsets.US_ASCII));
                record.headers().add("not-before", Long.toString(notBefore).getBytes(StandardCharsets.US_ASCII));
                producer.send(record);
            }
            producer.flush();
            System.out.printf("published %d delayed commands due within %d s (service pid %d)%n", commands,
                    maxDelaySeconds, service.pid());
            List<Long> lateness = new ArrayList<>();
            long deadline = System.currentTimeMillis() + (maxDelaySeconds + 60) * 1000L;
            while (lateness.size() < commands && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, String> forwarded : consumer.poll(Duration.ofMillis(500))) {
                    String value = forwarded.value();
                    String jobId = value.substring(value.indexOf("\"jobId\":\"") + 9, value.indexOf("\"}"));
                    Long notBefore = due.remove(jobId);
                    if (notBefore != null) {
                        lateness.add(forwarded.timestamp() - notBefore);
                    }
                }
            }
            Collections.sort(lateness);
            long early = lateness.stream().filter(l -> l < 0).count();
            System.out.printf("forwarded %d of %d; early: %d%n", lateness.size(), commands, early);
            System.out.printf("lateness: min %d ms, p50 %d ms, p99 %d ms, max %d ms%n", lateness.get(0),
                    percentile(lateness, 0.50), percentile(lateness, 0.99), lateness.get(lateness.size() - 1));
        }
        kafka.close();
        postgres.close();
        System.exit(0);
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
    }

    private static KafkaProducer<String, String> producer(EmbeddedKafkaBroker kafka) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        return new KafkaProducer<>(props);
    }

    private static KafkaConsumer<String, String> consumer(EmbeddedKafkaBroker kafka) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "relay-bench");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return new KafkaConsumer<>(props);
    }
}
