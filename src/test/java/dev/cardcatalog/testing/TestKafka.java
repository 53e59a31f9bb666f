package dev.cardcatalog.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** A plain Kafka producer and consumer on the embedded broker, as another service would use them. */
public final class TestKafka {

    private TestKafka() {
    }

    /** Sends a record and waits for the broker to take it; returns its offset. */
    public static long send(String topic, String key, byte[] value, Map<String, String> headers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafkaBroker.shared().bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, text) -> record.headers().add(new RecordHeader(name,
                    text.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
            return producer.send(record).get().offset();
        } catch (Exception e) {
            throw new IllegalStateException("could not send to " + topic, e);
        }
    }

    /** Sends a record whose header values are raw bytes (binary, not UTF-8); returns its offset. */
    public static long sendRaw(String topic, String key, byte[] value, Map<String, byte[]> headers) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafkaBroker.shared().bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, bytes) -> record.headers().add(new RecordHeader(name, bytes)));
            return producer.send(record).get().offset();
        } catch (Exception e) {
            throw new IllegalStateException("could not send to " + topic, e);
        }
    }

    public static long send(String topic, String key, String value) {
        return send(topic, key, value.getBytes(java.nio.charset.StandardCharsets.UTF_8), Map.of());
    }

    /**
     * Deletes every record now on {@code topics}, so that commands an earlier test left behind (a process killed
     * before committing its offset, a delayed command not yet due) never reach the next test's instances. A
     * consumer group whose committed offset falls below the new log start begins at the log start.
     */
    public static void discardRecords(String... topics) {
        Properties props = new Properties();
        props.put(org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                EmbeddedKafkaBroker.shared().bootstrapServers());
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(props)) {
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> latest = new java.util.HashMap<>();
            java.util.Set<String> existing = admin.listTopics().names().get();
            List<String> present = java.util.Arrays.stream(topics).filter(existing::contains).toList();
            for (var description : admin.describeTopics(present).allTopicNames().get().values()) {
                description.partitions().forEach(p -> latest.put(
                        new TopicPartition(description.name(), p.partition()),
                        org.apache.kafka.clients.admin.OffsetSpec.latest()));
            }
            Map<TopicPartition, org.apache.kafka.clients.admin.RecordsToDelete> upTo = new java.util.HashMap<>();
            admin.listOffsets(latest).all().get().forEach((partition, info) -> upTo.put(partition,
                    org.apache.kafka.clients.admin.RecordsToDelete.beforeOffset(info.offset())));
            admin.deleteRecords(upTo).all().get();
        } catch (Exception e) {
            throw new IllegalStateException("could not empty " + String.join(", ", topics), e);
        }
    }

    /** The records on {@code topic} whose value is {@code value} (UTF-8), read from the beginning. */
    public static List<ConsumerRecord<String, byte[]>> withValue(String topic, String value) {
        return readAll(topic, Duration.ofSeconds(2)).stream()
                .filter(r -> value.equals(new String(r.value(), java.nio.charset.StandardCharsets.UTF_8)))
                .toList();
    }

    /** Waits (at most {@code within}) for a record on {@code topic} whose value is {@code value}; returns it. */
    public static ConsumerRecord<String, byte[]> awaitValue(String topic, String value, Duration within) {
        @SuppressWarnings("unchecked")
        ConsumerRecord<String, byte[]>[] found = new ConsumerRecord[1];
        org.awaitility.Awaitility.await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> {
            List<ConsumerRecord<String, byte[]>> records = withValue(topic, value);
            found[0] = records.isEmpty() ? null : records.get(0);
            return found[0] != null;
        });
        return found[0];
    }

    /** The last header {@code name} of a record as UTF-8 text; null when absent. */
    public static String header(ConsumerRecord<String, byte[]> record, String name) {
        org.apache.kafka.common.header.Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every record on {@code topic} now, read from the beginning by a fresh consumer group. */
    public static List<ConsumerRecord<String, byte[]>> readAll(String topic, Duration wait) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafkaBroker.shared().bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + wait.toNanos();
            boolean assigned = false;
            while (System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                if (!consumer.assignment().isEmpty()) {
                    assigned = true;
                    Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
                    boolean caughtUp = end.entrySet().stream()
                            .allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
                    if (caughtUp) {
                        break;
                    }
                }
            }
            if (!assigned) {
                return records;
            }
        }
        return records;
    }
}
