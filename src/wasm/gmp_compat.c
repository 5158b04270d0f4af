/* The browser build's GMP is mini-gmp with mini-mpq (scripts/wasm-deps.sh),
 * which lack GMP's variadic helpers; these are them, as GMP documents
 * them: each takes its numbers and a NULL after the last. */
#include <stdarg.h>
#include <stddef.h>
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
