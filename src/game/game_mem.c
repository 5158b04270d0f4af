/* The game's memory through its context's allocator (issue 30): blocks,
 * and text streams whose text grows there. A stream is a stdio FILE (the
 * printers write with fprintf) made by fopencookie and unbuffered, so the
 * only memory the C library takes for it is the FILE itself, freed when
 * it closes; every byte of its text is the context's. */
#define _GNU_SOURCE /* fopencookie */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../core/internal.h"

void *frayi_game_alloc(fray_ctx *ctx, size_t size)
{
	return frayi_alloc(ctx, size);
}

void *frayi_game_calloc(fray_ctx *ctx, size_t n, size_t size)
{
	return frayi_calloc(ctx, n, size);
}

void frayi_game_dealloc(fray_ctx *ctx, void *p)
{
	if (p)
		frayi_dealloc(ctx, p);
}

static ssize_t out_write(void *cookie, const char *data, size_t n)
{
	game_out *o = cookie;
	if (o->failed)
		return -1;
	if (o->len + n + 1 > o->cap) {
		size_t cap = frayi_grow(o->cap, o->len + n + 1, 1);
		char *buf = cap ? frayi_realloc(o->ctx, o->buf, cap) : NULL;
		if (!buf) {
			o->failed = true;
			return -1;
		}
		o->buf = buf;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, data, n);
	o->len += n;
	o->buf[o->len] = '\0';
	return (ssize_t)n;
}

FILE *frayi_out_open(game_out *o, fray_ctx *ctx)
{
	*o = (game_out){.ctx = ctx};
	cookie_io_functions_t io = {.write = out_write};
	FILE *f = fopencookie(o, "w", io);
	if (f && setvbuf(f, NULL, _IONBF, 0) != 0) {
		fclose(f);
		f = NULL;
	}
	return f;
}

int frayi_out_close(game_out *o, FILE *f, char **text, size_t *len)
{
	*text = NULL;
	if (len)
		*len = 0;
	bool ok = f && fclose(f) == 0 && !o->failed;
	if (ok && !o->buf) { /* nothing written: the empty text */
		o->buf = frayi_alloc(o->ctx, 1);
		ok = o->buf != NULL;
		if (ok)
			o->buf[0] = '\0';
	}
	if (!ok) {
		frayi_game_dealloc(o->ctx, o->buf);
		*o = (game_out){.ctx = o->ctx};
		return FRAY_ERR_NOMEM;
	}
	*text = o->buf;
	if (len)
		*len = o->len;
	*o = (game_out){.ctx = o->ctx};
	return FRAY_OK;
}

int frayi_out_give(fray_ctx *ctx, char *text, char **out)
{
	*out = NULL;
	if (!text)
		return FRAY_ERR_NOMEM;
	if (frayi_ctx_mallocs(ctx)) {
		*out = text;
		return FRAY_OK;
	}
	/* the caller frees with free(): a copy from malloc, as the catalogue
	 * gives its texts */
	size_t n = strlen(text) + 1;
	*out = malloc(n);
	if (*out)
		memcpy(*out, text, n);
	frayi_dealloc(ctx, text);
	return *out ? FRAY_OK : FRAY_ERR_NOMEM;
}
