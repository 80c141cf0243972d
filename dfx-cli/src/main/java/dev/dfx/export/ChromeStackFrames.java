package dev.dfx.export;

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
    void write(JsonWriter gen) {
        gen.name("stackFrames").beginObject();
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            gen.name(Integer.toString(i + 1)).beginObject();
            gen.name("name").value(n.name());
            gen.name("category").value(n.file() != null ? n.file() : "[unknown]");
            if (n.parent() != 0) {
                gen.name("parent").value(Integer.toString(n.parent()));
            }
            gen.endObject();
        }
        gen.endObject();
    }
}
