package dev.dfx.runtime;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import dev.dfx.runtime.graph.ArgInfo;
import dev.dfx.runtime.probe.ArgView;
import java.util.Arrays;
import java.util.List;

/** One task argument: a tensor region with a role, or a scalar. Immutable once its task is submitted. */
final class Arg implements ArgView {
    private static final int[] NO_DIMS = new int[0];
    private final int index;
    private final ArgRole role;
    private final ArgKind kind;
    private final Dtype dtype;
    private final Region region;
    private final long scalarBits;
    private boolean marked;
    private int version;

    private Arg(int index, ArgRole role, ArgKind kind, Dtype dtype, Region region, long scalarBits) {
        this.index = index;
        this.role = role;
        this.kind = kind;
        this.dtype = dtype;
        this.region = region;
        this.scalarBits = scalarBits;
    }

    static Arg tensor(int index, ArgRole role, Region region) {
        return new Arg(index, role, ArgKind.TENSOR, Dtype.FLOAT32, region, 0);
    }

    static Arg scalar(int index, Dtype dtype, long bits) {
        return new Arg(index, ArgRole.INPUT, ArgKind.SCALAR, dtype, null, bits);
    }

    void mark() {
        marked = true;
    }

    /** Orchestrator, at submit: the tensor's write count before this task. */
    void setVersion(int v) {
        version = v;
    }

    Region region() {
        return region;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public ArgRole role() {
        return role;
    }

    @Override
    public ArgKind kind() {
        return kind;
    }

    @Override
    public Dtype dtype() {
        return dtype;
    }

    @Override
    public boolean marked() {
        return marked;
    }

    @Override
    public int tensorId() {
        return region == null ? 0 : region.tensor().id();
    }

    @Override
    public String tensorName() {
        return region == null ? "" : region.tensor().name();
    }

    @Override
    public int tensorVersion() {
        return version;
    }

    @Override
    public long tensorNumel() {
        return region == null ? 0 : region.tensor().numel();
    }

    @Override
    public long startOffset() {
        return region == null ? 0 : region.offset();
    }

    @Override
    public int ndims() {
        return region == null ? 0 : region.ndims();
    }

    @Override
    public int[] shape() {
        return region == null ? NO_DIMS : region.shapeArray();
    }

    @Override
    public int[] strides() {
        return region == null ? NO_DIMS : region.tensor().stridesArray();
    }

    @Override
    public long numel() {
        return region == null ? 1 : region.numel();
    }

    @Override
    public float[] data() {
        return region == null ? null : region.tensor().data();
    }

    @Override
    public long scalarBits() {
        return scalarBits;
    }

    ArgInfo info() {
        return new ArgInfo(index, kind, role, tensorId(), tensorName(), version, startOffset(), boxed(shape()),
                boxed(strides()));
    }

    private static List<Integer> boxed(int[] a) {
        return Arrays.stream(a).boxed().toList();
    }
}
