perf record -N -q -e cpu-clock -F 999 -g -o symwork-g.data -- ./symwork 400
