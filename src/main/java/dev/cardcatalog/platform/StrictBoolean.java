package dev.cardcatalog.platform;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import java.io.IOException;

/**
 * A request's boolean field read as JSON's {@code true} or {@code false} and nothing else: Jackson would otherwise
 * take {@code 1}, {@code 0} or {@code "true"} for one. Anything else is a {@code MismatchedInputException} for a
 * {@code Boolean}, a 400 that says the field must be true or false ({@link ProblemMappers}). For a request record's
 * component: {@code @JsonDeserialize(using = StrictBoolean.class)}; {@code null} and an absent field stay null.
 */
public class StrictBoolean extends StdScalarDeserializer<Boolean> {

    public StrictBoolean() {
        super(Boolean.class);
    }

    @Override
    public Boolean deserialize(JsonParser parser, DeserializationContext context) throws IOException {
        return switch (parser.currentToken()) {
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> (Boolean) context.handleUnexpectedToken(Boolean.class, parser);
        };
    }
}
