perf record -o - -a -e timer:hrtimer_start,timer:timer_start,workqueue:workqueue_execute_start -- sleep 0.3 > timer-ps.pipe.data
