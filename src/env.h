/*
 * env.h -- the environment variables the library reads (env.c, the only
 * file of src/ that calls getenv). Documented in docs/api.md. Not installed.
 */
#ifndef GCHOL_ENV_H
#define GCHOL_ENV_H

/* GCHOL_HOST_THREADS: the number of host threads (the caller's included)
 * that pack and unpack the pinned staging of pageable memory. Returns 1 and
 * the value in *threads when it is set (1: the caller alone; the stager
 * bounds it), else 0. */
int gchol_env_host_threads(long *threads);

/* GCHOL_HOST_STAGE: 0 when it is set to 0 (copies from and to pageable
 * memory then go straight through the driver), else 1. */
int gchol_env_host_stage(void);

#endif
