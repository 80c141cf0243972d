package dev.dfx.rundir;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.List;

/**
 * What is wrong with a run.json, as one line a person can act on: the JSON syntax error with its line and column,
 * or the field (as a path such as {@code subsystems[0].lanes[2].stalls}) that is missing, null or of the wrong
 * type, without the JSON library's class names or source descriptions. The field check walks the manifest's record
 * types, so a field added to {@link RunManifest} is required without more code. Stateless.
 */
final class ManifestProblems {
    private ManifestProblems() {
    }

    /** @return what {@code e} says about the file, one line, e.g. {@code field subsystems[0].total is not a number} */
    static String describe(JacksonException e) {
        if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
            String field = path(m.getPath());
            if (e instanceof MismatchedInputException mi && mi.getTargetType() != null) {
                return "field " + field + " is not " + expected(mi.getTargetType());
            }
            return "field " + field + " cannot be read";
        }
        return JsonSyntax.describe(e);
    }

    /**
     * Checks that {@code node} has every field of record type {@code type} (snake_case names), recursively through
     * records and lists of records, and that none is null but text fields (such as {@code reason}, {@code end} or
     * an output's {@code note}): a count left out must not read as 0. Fields marked {@link OptionalField} may be
     * missing or null.
     *
     * @return {@code field PATH is missing} or {@code field PATH is null} for the first such field, else null
     */
    static String missing(JsonNode node, Class<?> type) {
        return missing(node, type, "");
    }

    private static String missing(JsonNode node, Class<?> type, String at) {
        for (RecordComponent c : type.getRecordComponents()) {
            String field = (at.isEmpty() ? "" : at + ".") + snake(c.getName());
            JsonNode v = node.get(snake(c.getName()));
            if ((v == null || v.isNull()) && c.isAnnotationPresent(OptionalField.class)) {
                continue;  // added after older run.json files were written: absent reads as unknown
            }
            if (v == null) {
                return "field " + field + " is missing";
            }
            if (v.isNull()) {
                if (c.getType() == String.class) {
                    continue;
                }
                return "field " + field + " is null";
            }
            String inner = null;
            if (c.getType().isRecord() && v.isObject()) {
                inner = missing(v, c.getType(), field);
            } else if (List.class.isAssignableFrom(c.getType()) && v.isArray()
                    && c.getGenericType() instanceof ParameterizedType p
                    && p.getActualTypeArguments()[0] instanceof Class<?> element) {
                for (int i = 0; i < v.size() && inner == null; i++) {
                    String item = field + "[" + i + "]";
                    if (v.get(i).isNull()) {
                        inner = "field " + item + " is null";
                    } else if (element.isRecord() && v.get(i).isObject()) {
                        inner = missing(v.get(i), element, item);
                    }
                }
            }
            if (inner != null) {
                return inner;
            }
        }
        return null;
    }

    private static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                b.append(b.isEmpty() ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            }
        }
        return b.toString();
    }

    private static String expected(Class<?> type) {
        if (type == long.class || type == int.class || type == double.class || Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "an object";
    }

    private static String snake(String camel) {
        StringBuilder b = new StringBuilder();
        for (char ch : camel.toCharArray()) {
            if (Character.isUpperCase(ch)) {
                b.append('_').append(Character.toLowerCase(ch));
            } else {
                b.append(ch);
            }
        }
        return b.toString();
    }
}
