/* The browser build's GMP is mini-gmp with mini-mpq (scripts/wasm-deps.sh),
 * which lack GMP's variadic helpers; these are them, as GMP documents
 * them: each takes its numbers and a NULL after the last. */
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <gmp.h>

void mpz_inits(mpz_ptr x, ...)
{
	va_list ap;
	va_start(ap, x);
	for (; x; x = va_arg(ap, mpz_ptr))
		mpz_init(x);
	va_end(ap);
}

void mpz_clears(mpz_ptr x, ...)
{
	va_list ap;
	va_start(ap, x);
	for (; x; x = va_arg(ap, mpz_ptr))
		mpz_clear(x);
	va_end(ap);
}

void mpq_inits(mpq_ptr x, ...)
{
	va_list ap;
	va_start(ap, x);
	for (; x; x = va_arg(ap, mpq_ptr))
		mpq_init(x);
	va_end(ap);
}

void mpq_clears(mpq_ptr x, ...)
{
	va_list ap;
	va_start(ap, x);
	for (; x; x = va_arg(ap, mpq_ptr))
		mpq_clear(x);
	va_end(ap);
}

/* GMP hands its memory functions the size of the block it frees or
 * reallocates, and fray counts GMP's bytes by those sizes (its exact-odds
 * memory budget, src/core/gmp_mem.c). mini-gmp passes 0 instead, so the
 * count would only grow and every large enumeration would stop at the
 * budget. mini-gmp is built with its own setter renamed
 * (scripts/wasm-deps.sh); these keep each block's size in a header in
 * front of it and call fray's functions with the true sizes. */
void fray_mini_set_memory_functions(void *(*)(size_t), void *(*)(void *, size_t, size_t), void (*)(void *, size_t));

#define HEADER 16 /* keeps the blocks 16-byte aligned */

static void *plain_alloc(size_t n) { return malloc(n); }
static void *plain_realloc(void *p, size_t old, size_t n) { (void)old; return realloc(p, n); }
static void plain_free(void *p, size_t n) { (void)n; free(p); }

static void *(*under_alloc)(size_t) = plain_alloc;
static void *(*under_realloc)(void *, size_t, size_t) = plain_realloc;
static void (*under_free)(void *, size_t) = plain_free;

static size_t *header_of(void *p)
{
	return (size_t *)(void *)((char *)p - HEADER);
}

static void *sized_alloc(size_t n)
{
	size_t *h = under_alloc(n + HEADER);
	if (!h)
		return NULL;
	*h = n;
	return (char *)h + HEADER;
}

static void *sized_realloc(void *p, size_t old, size_t n)
{
	(void)old; /* 0 from mini-gmp: the header knows */
	if (!p)
		return sized_alloc(n);
	size_t *h = header_of(p);
	h = under_realloc(h, *h + HEADER, n + HEADER);
	if (!h)
		return NULL;
	*h = n;
	return (char *)h + HEADER;
}

static void sized_free(void *p, size_t n)
{
	(void)n;
	if (!p)
		return;
	size_t *h = header_of(p);
	under_free(h, *h + HEADER);
}

/* before main: every block mini-gmp ever makes has its header */
__attribute__((constructor)) static void install_sized(void)
{
	fray_mini_set_memory_functions(sized_alloc, sized_realloc, sized_free);
}

void mp_set_memory_functions(void *(*alloc)(size_t), void *(*re)(void *, size_t, size_t),
			     void (*fr)(void *, size_t))
{
	under_alloc = alloc ? alloc : plain_alloc;
	under_realloc = re ? re : plain_realloc;
	under_free = fr ? fr : plain_free;
}

void mp_get_memory_functions(void *(**alloc)(size_t), void *(**re)(void *, size_t, size_t),
			     void (**fr)(void *, size_t))
{
	if (alloc)
		*alloc = sized_alloc;
	if (re)
		*re = sized_realloc;
	if (fr)
		*fr = sized_free;
}
