package dev.cardcatalog.catalog;

import java.io.IOException;

/** A bulk file that cannot be read as a whole: not the shape its bulk-data item says, or cut short. */
public class BulkFileFormatException extends IOException {
    public BulkFileFormatException(String message) {
        super(message);
    }
}
