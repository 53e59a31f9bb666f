package dev.cardcatalog.catalog;

import java.util.UUID;

/** A bulk file record that is not valid JSON or lacks a required field; counted as malformed and skipped. */
class MalformedCardException extends Exception {

    private final UUID id;

    MalformedCardException(String reason, UUID id) {
        super(reason, null, false, false);
        this.id = id;
    }

    /** The card id the record names, when it could be read; null otherwise. */
    UUID id() {
        return id;
    }
}
