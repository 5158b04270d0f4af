/* The context: allocator hook, first-failure message, version, status names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"

static void *default_alloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, size);
}

bool frayi_ctx_mallocs(const fray_ctx *ctx)
{
	return ctx->alloc == default_alloc;
}

FRAY_API fray_ctx *fray_ctx_new(fray_alloc_fn alloc, void *ud)
{
	if (!alloc)
		alloc = default_alloc;
	fray_ctx *ctx = alloc(ud, NULL, sizeof *ctx);
	if (!ctx)
		return NULL;
	memset(ctx, 0, sizeof *ctx);
	ctx->alloc = alloc;
	ctx->ud = ud;
	return ctx;
}

FRAY_API void fray_ctx_free(fray_ctx *ctx)
{
	if (ctx)
		ctx->alloc(ctx->ud, ctx, 0);
}

FRAY_API const char *fray_ctx_message(const fray_ctx *ctx)
{
	return ctx ? ctx->msg : "no context";
}

FRAY_API fray_status fray_ctx_status(const fray_ctx *ctx)
{
	return ctx ? ctx->status : FRAY_ERR_INPUT;
}

FRAY_API const char *fray_ctx_input(const fray_ctx *ctx)
{
	return ctx && ctx->status != FRAY_OK && ctx->input[0] ? ctx->input : NULL;
}

void frayi_ctx_note_read(fray_ctx *ctx, int fd)
{
	struct stat st;
	if (ctx->nread < FRAY_CTX_MAX_READ && fstat(fd, &st) == 0) {
		ctx->read[ctx->nread].dev = (uint64_t)st.st_dev;
		ctx->read[ctx->nread].ino = (uint64_t)st.st_ino;
		ctx->nread++;
	}
}

FRAY_API bool fray_ctx_has_read(const fray_ctx *ctx, const char *path)
{
	struct stat st;
	if (!ctx || !path || stat(path, &st) != 0)
		return false;
	for (unsigned i = 0; i < ctx->nread; i++)
		if (ctx->read[i].dev == (uint64_t)st.st_dev && ctx->read[i].ino == (uint64_t)st.st_ino)
			return true;
	return false;
}

FRAY_API void fray_ctx_clear(fray_ctx *ctx)
{
	if (!ctx)
		return;
	ctx->status = FRAY_OK;
	ctx->msg[0] = '\0';
	ctx->input[0] = '\0';
}

void *frayi_alloc(fray_ctx *ctx, size_t size)
{
	return ctx->alloc(ctx->ud, NULL, size ? size : 1);
}

void *frayi_calloc(fray_ctx *ctx, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return NULL;
	size_t bytes = n * size;
	void *p = frayi_alloc(ctx, bytes);
	if (p)
		memset(p, 0, bytes ? bytes : 1);
	return p;
}

void *frayi_realloc(fray_ctx *ctx, void *ptr, size_t size)
{
	return ctx->alloc(ctx->ud, ptr, size ? size : 1);
}

void frayi_dealloc(fray_ctx *ctx, void *ptr)
{
	if (ptr)
		ctx->alloc(ctx->ud, ptr, 0);
}

char *frayi_strdup(fray_ctx *ctx, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = frayi_alloc(ctx, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

fray_status frayi_fail(fray_ctx *ctx, fray_status s, const char *fmt, ...)
{
	if (ctx->status != FRAY_OK)
		return s;
	ctx->status = s;
	ctx->input[0] = '\0'; /* about no one input */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
	va_end(ap);
	return s;
}

fray_status frayi_fail_input(fray_ctx *ctx, fray_status s, const char *input, const char *fmt, ...)
{
	if (ctx->status != FRAY_OK)
		return s;
	ctx->status = s;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
	va_end(ap);
	/* a name that does not fit is no name: never a cut one */
	ctx->input[0] = '\0';
	if (input && strlen(input) < sizeof ctx->input)
		memcpy(ctx->input, input, strlen(input) + 1);
	return s;
}

fray_status frayi_nomem(fray_ctx *ctx)
{
	return frayi_fail(ctx, FRAY_ERR_NOMEM, "out of memory");
}

size_t frayi_grow(size_t cap, size_t need, size_t elem)
{
	size_t n = cap ? cap : 8;
	while (n < need) {
		if (n > ((size_t)-1 / 2) / elem)
			return 0;
		n *= 2;
	}
	if (n > (size_t)-1 / elem)
		return 0;
	return n;
}

FRAY_API const char *fray_version(void)
{
	return FRAY_VERSION_STRING;
}

FRAY_API const char *fray_status_str(fray_status s)
{
	switch (s) {
	case FRAY_OK: return "ok";
	case FRAY_ERR_NOMEM: return "out of memory";
	case FRAY_ERR_INPUT: return "bad input";
	case FRAY_ERR_LIMIT: return "limit exceeded";
	case FRAY_ERR_IO: return "input/output error";
	case FRAY_ERR_POLICY: return "policy could not answer";
	case FRAY_ERR_INTERNAL: return "internal error";
	case FRAY_ERR_BUDGET: return "budget reached";
	}
	return "unknown status";
}
