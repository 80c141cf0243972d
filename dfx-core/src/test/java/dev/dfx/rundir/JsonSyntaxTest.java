package dev.dfx.rundir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonSyntaxTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Lines and columns counted by hand, 1-based, where the parser stopped: on an unexpected character, just past a word it does not know or past the end. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x | line 1, column 2: not valid JSON (found 'x', expected a JSON value)",
        "{\\n  garbage | line 2, column 3: not valid JSON (found 'g', expected a field name in double quotes)",
        "{\"a\": 1 x | line 1, column 9: not valid JSON (found 'x', expected ',' or '}')",
        "[1 x | line 1, column 4: not valid JSON (found 'x', expected ',' or ']')",
        "{\"a\" 1} | line 1, column 6: not valid JSON (found '1', expected ':' after the field name)",
        "{\\n \"a\": [1, | line 2, column 10: not valid JSON (the file ends early, expected ']' to close the array)",
        "{\"a\": 1 | line 1, column 8: not valid JSON (the file ends early, expected '}' to close the object opened at"
            + " line 1, column 1)"})
    void namesLineColumnAndWhatWasExpected(String text, String line) {
        JacksonException e = catchThrowableOfType(JacksonException.class,
                () -> JSON.readTree(text.replace("\\n", "\n")));
        assertThat(JsonSyntax.describe(e)).isEqualTo(line);
    }
}
