/* fray version: compile-time macros and the run-time check. */
#ifndef FRAY_VERSION_H
#define FRAY_VERSION_H

#define FRAY_VERSION_MAJOR 0
#define FRAY_VERSION_MINOR 1
#define FRAY_VERSION_PATCH 0
#define FRAY_VERSION_STRING "0.1.0"

/* The version of the library linked at run time ("0.1.0"); static storage. */
const char *fray_version(void);

#endif
