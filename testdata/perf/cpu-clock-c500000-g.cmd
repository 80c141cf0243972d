perf record -N -q -o cpu11.data -e cpu-clock -c 500000 -g -- ./renamer 20000000 && mv cpu11.data cpu-clock-c500000-g.data
