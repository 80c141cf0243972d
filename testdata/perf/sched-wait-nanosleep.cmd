perf record -e sched:sched_switch,sched:sched_wakeup,sched:sched_process_wait,syscalls:sys_enter_clock_nanosleep -o sched-wait-nanosleep.data -- sh -c 'for i in 1 2 3; do /bin/true; done; sleep 1'
