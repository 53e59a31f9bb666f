package dev.cardcatalog.job;

import java.util.List;

/** A page of jobs, newest first: {@code page} from 1, {@code size} jobs a page, {@code total} matching jobs. */
public record JobPage(List<JobView> items, int page, int size, long total) {
}
