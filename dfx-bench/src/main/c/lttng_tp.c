/* The probe provider of lttng_tp.h: the one translation unit that creates the probes and defines the tracepoints. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "lttng_tp.h"
