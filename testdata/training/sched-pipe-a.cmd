perf record -e 'sched:*' -a -o sched-pipe-a.data -- perf bench sched pipe -l 2000
