/* Files compiled into the library or the binary (cmake/embed.cmake). */
#ifndef FRAY_COMMON_EMBEDDED_H
#define FRAY_COMMON_EMBEDDED_H

#include <stddef.h>

typedef struct embedded_file {
	const char *path;              /* relative to the source tree */
	const unsigned char *bytes;    /* NUL after the last byte */
	size_t len;
} embedded_file;

/* The shipped examples (examples/), so a service that reads no files can
 * still offer them; the table ends with a NULL path. */
extern const embedded_file frayi_shipped_examples[];

#endif
