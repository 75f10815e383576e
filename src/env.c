/*
 * env.c -- the environment variables of the library (env.h); the only file
 * of src/ that reads the environment. Each is read when it is used.
 */
#include "env.h"

#include <stdlib.h>

int gchol_env_host_threads(long *threads)
{
    const char *v = getenv("GCHOL_HOST_THREADS");
    if (v == NULL) return 0;
    *threads = atol(v);
    return 1;
}

int gchol_env_host_stage(void)
{
    const char *v = getenv("GCHOL_HOST_STAGE");
    return !(v && atoi(v) == 0);
}
