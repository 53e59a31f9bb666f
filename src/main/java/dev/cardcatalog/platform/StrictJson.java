package dev.cardcatalog.platform;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.lang.reflect.Type;
import java.util.function.BiFunction;

/**
 * The reader of a request body whose every field must be one the request knows: an unknown one (a misspelled
 * {@code accept_fewer_artwork}) is refused with a 400 naming it and the fields there are
 * ({@link ProblemMappers}), rather than dropped without a word. For a resource method's body:
 * {@code @CustomDeserialization(StrictJson.class)}. The service's {@link ObjectMapper} otherwise ignores unknown
 * fields (Quarkus's default), as it must for Scryfall's objects and the Kafka commands of newer senders.
 */
public class StrictJson implements BiFunction<ObjectMapper, Type, ObjectReader> {

    @Override
    public ObjectReader apply(ObjectMapper json, Type type) {
        return json.readerFor(json.constructType(type)).with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
