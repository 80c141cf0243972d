perf record -q -z -m 1 -e sched:sched_switch,sched:sched_wakeup -o sched-lost-m1-z.data -- perf bench sched pipe -l 2000 > /dev/null
