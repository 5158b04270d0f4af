/* Status codes returned by every fallible fray call.
 * The enum is append-only: a number, once given, never changes meaning. */
#ifndef FRAY_STATUS_H
#define FRAY_STATUS_H

typedef enum fray_status {
	FRAY_OK = 0,
	FRAY_ERR_NOMEM = 1,   /* the allocator returned NULL */
	FRAY_ERR_INPUT = 2,   /* bad input: syntax, type, range, unknown name,
				 a named file that is not there or is a folder */
	FRAY_ERR_LIMIT = 3,   /* a documented limit was exceeded */
	FRAY_ERR_IO = 4,      /* a file could not be read or written (the
				 machine's failure, not the name's) */
	FRAY_ERR_POLICY = 5,  /* a policy could not answer (script ran out, ...) */
	FRAY_ERR_INTERNAL = 6, /* a bug in fray; please report it */
	FRAY_ERR_BUDGET = 7   /* a resource budget (memory) was reached: the
				 input is fine, the work too big to finish */
} fray_status;

/* A short English name for s ("bad input"); static storage, never NULL. */
const char *fray_status_str(fray_status s);

#endif
