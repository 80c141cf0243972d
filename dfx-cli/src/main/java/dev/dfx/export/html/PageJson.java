package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;

/**
 * JSON that may sit inside the page's {@code <script type="application/json">} element: {@code <}, {@code >} and
 * {@code &} are written as {@code \u003c}-style escapes, so no string of the run (a thread name, a file path, an
 * argument) can end the element or open a comment. Stateless; the mapper is thread-safe.
 */
final class PageJson {
    /** Reads and writes the page's JSON. */
    static final ObjectMapper MAPPER = new ObjectMapper();

    private static final CharacterEscapes HTML_SAFE = new CharacterEscapes() {
        private final int[] codes = standardAsciiEscapesForJSON();

        {
            codes['<'] = ESCAPE_STANDARD;
            codes['>'] = ESCAPE_STANDARD;
            codes['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    };

    private PageJson() {
    }

    /** @return a generator writing UTF-8 page-safe JSON to {@code out}; closing it does not close {@code out} */
    static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator g = MAPPER.getFactory().createGenerator(out);
        g.setCharacterEscapes(HTML_SAFE);
        g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        return g;
    }
}
