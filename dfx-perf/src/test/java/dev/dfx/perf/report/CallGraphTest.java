package dev.dfx.perf.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
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
        assertThat(CallGraph.parse(List.of(value))).isEqualTo(new CallGraph(print, asked, callerOrder));
    }

    /**
     * Several -g, space-separated here, each read onto what the ones before it set (perf's callchain_param): the end
     * result must be one dfx prints; none followed by a -g without a print type has none to print with.
     */
    @ParameterizedTest(name = "-g {0}")
    @CsvSource(delimiter = '|', nullValues = "default", value = {
        "flat graph                        | true  | true  | default",
        "none graph                        | true  | true  | default",
        "none graph,0.5,caller             | true  | true  | true",
        "callee caller,none                | false | false | default",
        "caller graph                      | true  | true  | true",
        "graph,0.5,0                       | true  | true  | default",
        "0.5abc                            | true  | true  | default",
        "20 0.5                            | true  | true  | default"})
    void readsSeveralAsPerfAddsThemUp(String values, boolean print, boolean asked, Boolean callerOrder) {
        assertThat(CallGraph.parse(List.of(values.split(" ")))).isEqualTo(new CallGraph(print, asked, callerOrder));
    }

    @ParameterizedTest(name = "-g {0}")
    @CsvSource(delimiter = '|', value = {
        "20 graph        | a call-graph threshold of 20: dfx prints perf's 0.5 only (--percent-limit P hides lines and"
            + " branches under P %)",
        "0.5,1 caller    | '1': dfx prints callchains without a print limit (0, perf's default)",
        "graph flat      | 'flat' is the call-graph mode flat, which dfx does not print; expected graph or none",
        "none caller     | -g none, then -g without a print type: nothing to print the callchains with (perf: Can't"
            + " register callchain params); give -g graph",
        "none 0.5        | -g none, then -g without a print type: nothing to print the callchains with (perf: Can't"
            + " register callchain params); give -g graph"})
    void refusesAnEndResultDfxDoesNotPrint(String values, String message) {
        assertThatThrownBy(() -> CallGraph.parse(List.of(values.split(" ")))).isInstanceOf(
            IllegalArgumentException.class).hasMessage(message);
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
        "graph,0.5,10    | '10': dfx prints callchains without a print limit (0, perf's default)",
        "graph,0.5,0,1   | '1': a third number; expected a threshold, then a print limit",
        "nan             | a call-graph threshold of nan: dfx prints perf's 0.5 only (--percent-limit P hides lines and"
            + " branches under P %)",
        "0x1             | a call-graph threshold of 0x1: dfx prints perf's 0.5 only (--percent-limit P hides lines and"
            + " branches under P %)",
        "graph,x         | 'x' is neither a call-graph mode, order, sort key or value nor a number"})
    void refusesWhatDfxDoesNotPrintByName(String value, String message) {
        assertThatThrownBy(() -> CallGraph.parse(List.of(value))).isInstanceOf(IllegalArgumentException.class)
            .hasMessage(message);
    }
}
