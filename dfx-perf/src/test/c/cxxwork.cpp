/* cxxwork.cpp: a CPU-bound C++ program for the demangling tests: namespaced member functions, a class template,
 * a lambda, a constructor and destructor, std::map and std::string from libstdc++, so a cpu-clock profile holds
 * mangled names of many shapes. Argument: milliseconds to run (default 300). */
#include <chrono>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace ns {
template <class T> struct Box {
    T v;
    __attribute__((noinline)) T get(int k) const {
        volatile T s = v;
        for (int i = 0; i < k; i++) {
            s = s + v;
        }
        return s;
    }
};

struct Iter {
    int n;
    __attribute__((noinline)) explicit Iter(int x) : n(x) {}
    __attribute__((noinline)) ~Iter() { n = 0; }
    __attribute__((noinline)) long advance_and_next();
};

long Iter::advance_and_next() {
    volatile long s = 0;
    for (int i = 0; i < n; i++) {
        s += i;
    }
    return s;
}
}  // namespace ns

__attribute__((noinline)) long work(std::vector<int>& v, std::map<std::string, int>& m) {
    long s = 0;
    for (int x : v) {
        s += x;
    }
    for (auto& p : m) {
        s += p.second + static_cast<long>(p.first.size());
    }
    return s;
}

int main(int argc, char** argv) {
    long ms = argc > 1 ? std::atol(argv[1]) : 300;
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    ns::Box<double> b{1.5};
    std::vector<int> v(1000, 1);
    std::map<std::string, int> m;
    for (int i = 0; i < 100; i++) {
        m[std::to_string(i)] = i;
    }
    auto spin = [&](int k) __attribute__((noinline)) { return b.get(k); };
    long s = 0;
    while (std::chrono::steady_clock::now() < end) {
        ns::Iter it(2000);
        s += it.advance_and_next();
        s += static_cast<long>(spin(100));
        s += work(v, m);
    }
    return s == 42;
}
