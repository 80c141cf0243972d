package dev.dfx.export;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code stackFrames} dictionary of a Chrome trace (Trace Event Format, "Stack frames"): a tree of frames, each
 * {@code {"name", "category", "parent"}} under its id, so that a stack is the id of its innermost frame. Frames
 * with the same caller, name and DSO share one id; ids are 1, 2, 3, ... in order of first use. Not thread-safe.
 */
final class ChromeStackFrames {
    private record Node(int parent, String name, String file) {
    }

    private final Map<Node, Integer> ids = new HashMap<>();
    private final List<Node> nodes = new ArrayList<>();

    /** @return the id of the innermost frame of {@code frames} (outermost first), adding the frames not seen yet */
    int id(List<SampledStack.Frame> frames) {
        int parent = 0;
        for (SampledStack.Frame f : frames) {
            Node n = new Node(parent, f.function(), f.file());
            Integer id = ids.get(n);
            if (id == null) {
                nodes.add(n);
                id = nodes.size();
                ids.put(n, id);
            }
            parent = id;
        }
        return parent;
    }

    /** @return frames so far */
    int size() {
        return nodes.size();
    }

    /** Writes the field {@code "stackFrames": {...}} into the open object. */
    void write(JsonGenerator gen) throws IOException {
        gen.writeObjectFieldStart("stackFrames");
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            gen.writeObjectFieldStart(Integer.toString(i + 1));
            gen.writeStringField("name", n.name());
            gen.writeStringField("category", n.file() != null ? n.file() : "[unknown]");
            if (n.parent() != 0) {
                gen.writeStringField("parent", Integer.toString(n.parent()));
            }
            gen.writeEndObject();
        }
        gen.writeEndObject();
    }
}
