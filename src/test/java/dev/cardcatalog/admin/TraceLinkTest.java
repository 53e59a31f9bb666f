package dev.cardcatalog.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The admin page links a job's trace only when a trace UI address is configured (card-catalog.admin.trace-url). */
class TraceLinkTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void linksTheTraceWhereTheTemplateSaysWhenOneIsConfigured() {
        assertThat(pages("https://jaeger.example.com/trace/{trace_id}").traceHref(TRACE))
                .isEqualTo("https://jaeger.example.com/trace/" + TRACE);
        assertThat(pages("http://grafana:3000/explore?traceId={trace_id}&x={trace_id}").traceHref(TRACE))
                .isEqualTo("http://grafana:3000/explore?traceId=" + TRACE + "&x=" + TRACE);
    }

    @Test
    void linksNothingWithoutATemplateOrATrace() {
        assertThat(pages(null).traceHref(TRACE)).isNull();
        assertThat(pages("https://jaeger.example.com/trace/{trace_id}").traceHref(null)).isNull();
    }

    @Test
    void neverLinksAnAddressThatIsNotHttpNorATemplateWithoutThePlaceholderNorAnIdThatIsNotOne() {
        for (String template : new String[] {"javascript:alert('{trace_id}')", "data:text/html,{trace_id}",
                "//evil.example/{trace_id}", "https://jaeger.example.com/search"}) {
            assertThat(pages(template).traceHref(TRACE)).as(template).isNull();
        }
        for (String id : new String[] {"\"><script>", "4BF92F3577B34DA6A3CE929D0E0E4736", TRACE + "0", "xyz"}) {
            assertThat(pages("https://jaeger.example.com/trace/{trace_id}").traceHref(id)).as(id).isNull();
        }
    }

    private static AdminPageBuilder pages(String traceUrl) {
        AdminConfig config = new AdminConfig() {
            @Override
            public Duration stalledAfter() {
                return Duration.ofMinutes(5);
            }

            @Override
            public Duration pollInterval() {
                return Duration.ofSeconds(2);
            }

            @Override
            public int jobsPageSize() {
                return 20;
            }

            @Override
            public Duration refreshOverdueAfter() {
                return Duration.ofDays(8);
            }

            @Override
            public Optional<String> traceUrl() {
                return Optional.ofNullable(traceUrl);
            }
        };
        return new AdminPageBuilder(null, null, config, Clock.systemUTC());
    }
}
