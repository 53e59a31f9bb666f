package dev.cardcatalog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** The command parser on its accept and refuse cases ({@link CommandParserCases}), shared with the AsyncAPI test. */
class CommandParserTest {

    @Test
    void acceptsEveryCommandOfTheAcceptedCases() {
        for (CommandParserCases.Case accepted : CommandParserCases.ACCEPTED) {
            assertThatCode(() -> CommandParser.parse(accepted.value())).as(accepted.label())
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void refusesEveryRecordOfTheRefusedCasesNamingWhatIsWrong() {
        for (CommandParserCases.Case refused : CommandParserCases.REFUSED) {
            InvalidCommandException e = catchThrowableOfType(InvalidCommandException.class,
                    () -> CommandParser.parse(refused.value()));
            assertThat(e).as(abbreviated(refused.label())).isNotNull();
            assertThat(e.getMessage()).as(abbreviated(refused.label())).contains(refused.names());
        }
    }

    @Test
    void readsTheMembersOfAValidCommand() {
        Command command = CommandParser.parse(("{\"type\":\"art-build\",\"jobId\":"
                + "\"0D6F3C1E-5B7A-4C1E-9E2A-2F4A5C6D7E8F\",\"trigger\":\"scheduled\"}").getBytes());

        assertThat(command.kind()).isEqualTo(JobKind.ART_BUILD);
        assertThat(command.jobId()).hasToString("0d6f3c1e-5b7a-4c1e-9e2a-2f4a5c6d7e8f");
        assertThat(command.jobTrigger()).isEqualTo(JobTrigger.SCHEDULED);
        assertThat(CommandParser.parse("{\"type\":\"refresh\"}".getBytes()).jobTrigger()).isEqualTo(JobTrigger.API);
    }

    static String abbreviated(String label) {
        return label.length() <= 120 ? label : label.substring(0, 120) + "…";
    }
}
