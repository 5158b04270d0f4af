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

__extension__ typedef unsigned __int128 frayi_u128; /* GCC and Clang */

typedef struct frayi_xq {
	frayi_u128 num, den;
	mpq_ptr big; /* NULL while num / den holds the value */
} frayi_xq;

#define FRAY_XQ_ZERO ((frayi_xq){.num = 0, .den = 1, .big = NULL})

/* x += n / d (d > 0). False when memory ran out (x is then unchanged). */
bool frayi_xq_add(frayi_xq *x, frayi_u128 n, frayi_u128 d);
/* x += q. */
bool frayi_xq_add_q(frayi_xq *x, mpq_srcptr q);
/* x += a * b. */
bool frayi_xq_addmul(frayi_xq *x, const frayi_xq *a, const frayi_xq *b);
/* dst += src. */
bool frayi_xq_add_xq(frayi_xq *dst, const frayi_xq *src);
/* Frees the GMP number, if any; x is zero again. */
void frayi_xq_clear(frayi_xq *x);
/* The value as a canonical GMP rational (q initialised by the caller). */
void frayi_xq_get_q(const frayi_xq *x, mpq_t q);
/* The double nearest to the value (ties to even), as frayi_q_to_double. */
double frayi_xq_to_double(const frayi_xq *x);
/* "num/den" in lowest terms, or "num" when den is 1 (snprintf-like). */
size_t frayi_xq_str(const frayi_xq *x, char *dst, size_t cap);
bool frayi_xq_is_zero(const frayi_xq *x);

/* Helpers for machine-size fractions. */
frayi_u128 frayi_u128_gcd(frayi_u128 a, frayi_u128 b);
/* The double nearest to n / d, both below 2^128, d > 0. */
double frayi_u128_ratio(frayi_u128 n, frayi_u128 d);
/* Decimal text of v into dst (at least 40 bytes); returns its length. */
size_t frayi_u128_str(frayi_u128 v, char *dst);
/* C(n, k), false past 128 bits. */
bool frayi_binomial(unsigned n, unsigned k, frayi_u128 *out);
void frayi_u128_to_mpz(mpz_t z, frayi_u128 v);
/* false when z does not fit. */
bool frayi_mpz_to_u128(mpz_srcptr z, frayi_u128 *v);

#endif
