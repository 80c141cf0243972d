package dev.dfx.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code -g}'s value read as perf's {@code __parse_callchain_report_opt} reads it (perf 6.1): each expected value
 * worked out by hand from its rules (words in any order, a prefix names the first word it starts, {@code none} ends
 * the list, the first number is the threshold).
 */
class CallGraphTest {
    @ParameterizedTest(name = "-g {0}")
    @CsvSource(delimiter = '|', nullValues = "default", value = {
        "graph                             | true  | true  | default",
        "graph,0.5,caller,function,percent | true  | true  | true",
        "caller                            | true  | true  | true",
        "callee                            | true  | true  | false",
        "graph,callee                      | true  | true  | false",
        "callee,graph,0.5                  | true  | true  | false",
        "g                                 | true  | true  | default",
        "c                                 | true  | true  | true",
        "calle                             | true  | true  | true",
        "GRAPH,Caller                      | true  | true  | true",
        "graph,,callee                     | true  | true  | false",
        "''                                | true  | true  | default",
        "fu,pe                             | true  | true  | default",
        "none                              | false | false | default",
        "n                                 | false | false | default",
        "none,fractal,nonsense             | false | false | default",
        "caller,none                       | false | false | default"})
    void readsWhatPerfReads(String value, boolean print, boolean asked, Boolean callerOrder) {
        assertThat(CallGraph.parse(value)).isEqualTo(new CallGraph(print, asked, callerOrder));
    }

    @ParameterizedTest(name = "-g {0}")
    @CsvSource(delimiter = '|', value = {
        "fractal         | 'fractal' is the call-graph mode fractal, which dfx does not print; expected graph or none",
        "f               | 'f' is the call-graph mode flat, which dfx does not print; expected graph or none",
        "fo              | 'fo' is the call-graph mode folded, which dfx does not print; expected graph or none",
        "graph,address   | 'address' is the call-graph sort key address, which dfx does not print; expected function",
        "graph,b         | 'b' is the call-graph sort key branch, which dfx does not print; expected function",
        "graph,period    | 'period' is the call-graph value period, which dfx does not print; expected percent",
        "graph,1         | a call-graph threshold of 1: dfx prints perf's 0.5 only (--percent-limit P hides lines and"
            + " branches under P %)",
        "graph,0.5,10    | '10': dfx prints callchains without a print limit",
        "graph,x         | 'x' is neither a call-graph mode, order, sort key or value nor a number"})
    void refusesWhatDfxDoesNotPrintByName(String value, String message) {
        assertThatThrownBy(() -> CallGraph.parse(value)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage(message);
    }
}
