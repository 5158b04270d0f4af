/* Private: exact non-negative rationals that stay in machine integers while
 * they fit and move to GMP only past that (issue #16: "integer weights").
 * Odds are sums of products of small fractions (1/6, C(10,2) / C(40,5));
 * nearly all of them fit in 128 bits, and GMP's numbers cost two mallocs
 * and a gcd per operation. An xq holds num / den unreduced (den > 0) until
 * it is read; big, when set, holds the value instead. */
#ifndef FRAY_XQ_H
#define FRAY_XQ_H

#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

__extension__ typedef unsigned __int128 fray_u128; /* GCC and Clang */

typedef struct fray_xq {
	fray_u128 num, den;
	mpq_ptr big; /* NULL while num / den holds the value */
} fray_xq;

#define FRAY_XQ_ZERO ((fray_xq){.num = 0, .den = 1, .big = NULL})

/* x += n / d (d > 0). False when memory ran out (x is then unchanged). */
bool fray_xq_add(fray_xq *x, fray_u128 n, fray_u128 d);
/* x += q. */
bool fray_xq_add_q(fray_xq *x, mpq_srcptr q);
/* x += a * b. */
bool fray_xq_addmul(fray_xq *x, const fray_xq *a, const fray_xq *b);
/* dst += src. */
bool fray_xq_add_xq(fray_xq *dst, const fray_xq *src);
/* Frees the GMP number, if any; x is zero again. */
void fray_xq_clear(fray_xq *x);
/* The value as a canonical GMP rational (q initialised by the caller). */
void fray_xq_get_q(const fray_xq *x, mpq_t q);
/* The double nearest to the value (ties to even), as fray_q_to_double. */
double fray_xq_to_double(const fray_xq *x);
/* "num/den" in lowest terms, or "num" when den is 1 (snprintf-like). */
size_t fray_xq_str(const fray_xq *x, char *dst, size_t cap);
bool fray_xq_is_zero(const fray_xq *x);

/* Helpers for machine-size fractions. */
fray_u128 fray_u128_gcd(fray_u128 a, fray_u128 b);
/* The double nearest to n / d, both below 2^128, d > 0. */
double fray_u128_ratio(fray_u128 n, fray_u128 d);
/* Decimal text of v into dst (at least 40 bytes); returns its length. */
size_t fray_u128_str(fray_u128 v, char *dst);
/* C(n, k), false past 128 bits. */
bool fray_binomial(unsigned n, unsigned k, fray_u128 *out);
void fray_u128_to_mpz(mpz_t z, fray_u128 v);
/* false when z does not fit. */
bool fray_mpz_to_u128(mpz_srcptr z, fray_u128 *v);

#endif
