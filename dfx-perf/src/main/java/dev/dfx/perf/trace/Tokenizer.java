package dev.dfx.perf.trace;

/**
 * Splits format text into tokens by libtraceevent's rules ({@code __read_token}): items are runs of
 * letters, digits and '_'; {@code ( ) ,} are delimiters; strings are double- or single-quoted; the
 * two-character operators {@code -> && || << >> == != <= >= ++ --} are one token. Spaces and newlines are
 * skipped by {@link #next()} and returned by {@link #nextRaw()}. Not thread-safe.
 */
final class Tokenizer {
    private final String s;
    private int pos;

    Tokenizer(String s) {
        this.s = s;
    }

    /** @return the next token that is not a space or newline */
    Token next() {
        Token t;
        do {
            t = nextRaw();
        } while (t.kind() == Token.Kind.SPACE || t.kind() == Token.Kind.NEWLINE);
        return t;
    }

    /** @return the next token that is not a space; newlines are returned ({@code read_token}) */
    Token nextKeepNewline() {
        Token t;
        do {
            t = nextRaw();
        } while (t.kind() == Token.Kind.SPACE);
        return t;
    }

    /** @return the next token without consuming it */
    Token peek() {
        int save = pos;
        Token t = next();
        pos = save;
        return t;
    }

    /** @return the next token, spaces and newlines included */
    Token nextRaw() {
        if (pos >= s.length()) {
            return Token.END;
        }
        char c = s.charAt(pos);
        Token.Kind kind = kindOf(c);
        int start = pos++;
        switch (kind) {
            case NEWLINE:
                return new Token(kind, "\n");
            case SPACE:
                return new Token(kind, " ");
            case DELIM:
                return new Token(kind, String.valueOf(c));
            case ITEM:
                while (pos < s.length() && kindOf(s.charAt(pos)) == Token.Kind.ITEM) {
                    pos++;
                }
                return new Token(kind, s.substring(start, pos));
            case DQUOTE:
            case SQUOTE:
                return quoted(c, kind);
            case OP:
                return new Token(kind, op(c, start));
            default:
                return new Token(Token.Kind.NONE, String.valueOf(c));
        }
    }

    private Token quoted(char quote, Token.Kind kind) {
        StringBuilder sb = new StringBuilder();
        char last = 0;
        while (pos < s.length()) {
            char c = s.charAt(pos++);
            if (c == quote && last != '\\') {
                return new Token(kind, sb.toString());
            }
            sb.append(c);
            // a doubled backslash does not escape the quote after it
            last = (c == '\\' && last == '\\') ? 0 : c;
        }
        return new Token(kind, sb.toString());
    }

    private String op(char c, int start) {
        char n = pos < s.length() ? s.charAt(pos) : 0;
        switch (c) {
            case '-':
                if (n == '>') {
                    pos++;
                    return "->";
                }
                return doubled(c, n, start);
            case '+', '|', '&', '>', '<':
                return doubled(c, n, start);
            case '!', '=':
                if (n == '=') {
                    pos++;
                }
                return s.substring(start, pos);
            default:
                return String.valueOf(c);
        }
    }

    private String doubled(char c, char n, int start) {
        if (n == c) {
            pos++;
            if (c == '<' || c == '>') {
                equalsAfter();
            }
        } else {
            equalsAfter();
        }
        return s.substring(start, pos);
    }

    private void equalsAfter() {
        if (pos < s.length() && s.charAt(pos) == '=') {
            pos++;
        }
    }

    private static Token.Kind kindOf(char c) {
        if (c == '\n') {
            return Token.Kind.NEWLINE;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b) {
            return Token.Kind.SPACE;
        }
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
            return Token.Kind.ITEM;
        }
        if (c == '\'') {
            return Token.Kind.SQUOTE;
        }
        if (c == '"') {
            return Token.Kind.DQUOTE;
        }
        if (c < 0x20 || c > 0x7e) {
            return Token.Kind.NONE;
        }
        if (c == '(' || c == ')' || c == ',') {
            return Token.Kind.DELIM;
        }
        return Token.Kind.OP;
    }

    /** @return the unread rest of the text */
    String rest() {
        return s.substring(Math.min(pos, s.length()));
    }
}
