/* cxxinline.cpp: a CPU-bound C++ program for the inlined-frame tests, built with -g -O2: std::sort with a lambda
 * (the comparator and libstdc++'s partition helpers inlined into the recursive __introsort_loop), a class template
 * whose member function is inlined into main, and a function template taking a lambda. binutils' addr2line names
 * such functions by DW_AT_name (operator(), get) or by the symbol table, depending on the questions asked before.
 * Argument: rounds (default 200). */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace ns {
template <typename T> struct Box {
    T v;
    T get(int k) const {
        T s{};
        for (int i = 0; i < k; i++) {
            s += v * (T) i;
        }
        return s;
    }
};
}

template <typename F> __attribute__((noinline)) double apply(F f, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += f(i);
    }
    return s;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 200;
    double total = 0;
    for (int r = 0; r < rounds; r++) {
        std::vector<int> v(20000);
        std::iota(v.begin(), v.end(), r);
        std::sort(v.begin(), v.end(), [](int a, int b) { return (a * 31) % 1000 < (b * 31) % 1000; });
        ns::Box<double> b{1.5};
        total += b.get(20000);
        ns::Box<long> c{3};
        total += c.get(10000);
        total += apply([&](int i) { return i * 0.5 + v[i % v.size()]; }, 50000);
    }
    printf("%f\n", total);
    return 0;
}
