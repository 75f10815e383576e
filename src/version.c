/*
 * version.c -- the version of the library as built (from the file VERSION,
 * through the generated gchol_version.h): a program can compare it with the
 * GCHOL_VERSION_* macros of the header it was compiled against.
 */
#include "gchol.h"

const char *gchol_version(void)
{
    return GCHOL_VERSION_STRING;
}

void gchol_version_numbers(int *major, int *minor, int *patch)
{
    if (major)
        *major = GCHOL_VERSION_MAJOR;
    if (minor)
        *minor = GCHOL_VERSION_MINOR;
    if (patch)
        *patch = GCHOL_VERSION_PATCH;
}
