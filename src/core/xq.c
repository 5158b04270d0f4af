/* Exact rationals in 128-bit integers, with GMP past that (xq.h). */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "dist_internal.h"
#include "xq.h"

static int bitlen(frayi_u128 v)
{
	uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
	if (hi)
		return 128 - __builtin_clzll(hi);
	return lo ? 64 - __builtin_clzll(lo) : 0;
}

static int ctz(frayi_u128 v)
{
	uint64_t lo = (uint64_t)v;
	return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(v >> 64));
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	int shift = __builtin_ctzll(a | b);
	a >>= __builtin_ctzll(a);
	do {
		b >>= __builtin_ctzll(b);
		if (a > b) {
			uint64_t t = a;
			a = b;
			b = t;
		}
		b -= a;
	} while (b);
	return a << shift;
}

frayi_u128 frayi_u128_gcd(frayi_u128 a, frayi_u128 b)
{
	if (a == 0)
		return b;
	if (b == 0)
		return a;
	/* one remainder brings a 128-bit number down beside a 64-bit one
	 * (the common case: a product's small factor against a big one),
	 * and the rest is in 64 bits */
	if (a >> 64 && !(b >> 64))
		a %= b;
	else if (b >> 64 && !(a >> 64))
		b %= a;
	if (!((a | b) >> 64))
		return gcd64((uint64_t)a, (uint64_t)b);
	int shift = ctz(a | b);
	a >>= ctz(a);
	do {
		b >>= ctz(b);
		if (a > b) {
			frayi_u128 t = a;
			a = b;
			b = t;
		}
		b -= a;
	} while (b);
	return a << shift;
}

/* Long division to 56 quotient bits and a sticky bit, then rounding to 53
 * bits, nearest and ties to even: the same double as GMP's exact value
 * rounded (checked against frayi_q_to_double in tests/core). */
double frayi_u128_ratio(frayi_u128 n, frayi_u128 d)
{
	if (n == 0)
		return 0.0;
	if (n >> 53 == 0 && d >> 53 == 0)
		return (double)(uint64_t)n / (double)(uint64_t)d; /* both exact: one rounding */
	int e = bitlen(n) - bitlen(d);
	frayi_u128 num = e >= 0 ? n : n << -e;
	frayi_u128 den = e >= 0 ? d << e : d;
	uint64_t q = 0;
	bool carry = false;
	for (int i = 0; i < 56; i++) {
		bool bit = carry || num >= den;
		if (bit)
			num -= den; /* wraps back into range when carry was set */
		q = q << 1 | bit;
		carry = num >> 127;
		num <<= 1;
	}
	bool sticky = num != 0 || carry;
	int drop = bitlen(q) - 53;
	uint64_t mant = q >> drop, rest = q & ((1ull << drop) - 1), half = 1ull << (drop - 1);
	if (rest > half || (rest == half && (sticky || (mant & 1))))
		mant++;
	return ldexp((double)mant, e - 55 + drop);
}

/* The digits by 64-bit divisions: a 128-bit one only to split off 19
 * digits at a time while v is past 64 bits (in wasm32 each 128-bit
 * division is a software call: two a digit were a tenth of an answer's
 * time in the browser, issue 45). */
size_t frayi_u128_str(frayi_u128 v, char *dst)
{
	char tmp[40];
	size_t n = 0;
	while (v >> 64) {
		frayi_u128 q = v / 10000000000000000000u;
		uint64_t low = (uint64_t)(v - q * 10000000000000000000u);
		for (int i = 0; i < 19; i++, low /= 10)
			tmp[n++] = (char)('0' + (int)(low % 10));
		v = q;
	}
	uint64_t w = (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + (int)(w % 10));
		w /= 10;
	} while (w);
	for (size_t i = 0; i < n; i++)
		dst[i] = tmp[n - 1 - i];
	dst[n] = '\0';
	return n;
}

/* By words, not through unsigned long: that is 32 bits where the library
 * runs in WebAssembly (wasm32), and a cast would drop the high half. */
void frayi_u128_to_mpz(mpz_t z, frayi_u128 v)
{
	uint64_t words[2] = {(uint64_t)v, (uint64_t)(v >> 64)};
	mpz_import(z, 2, -1, sizeof words[0], 0, 0, words);
}

bool frayi_mpz_to_u128(mpz_srcptr z, frayi_u128 *v)
{
	if (mpz_sgn(z) < 0 || mpz_sizeinbase(z, 2) > 128)
		return false;
	uint64_t words[2] = {0, 0};
	size_t count = 0;
	mpz_export(words, &count, -1, sizeof words[0], 0, 0, z);
	*v = (frayi_u128)words[1] << 64 | words[0];
	return true;
}

static void set_q(mpq_t q, frayi_u128 n, frayi_u128 d)
{
	frayi_u128_to_mpz(mpq_numref(q), n);
	frayi_u128_to_mpz(mpq_denref(q), d);
	mpq_canonicalize(q);
}

/* Moves x to GMP (its value kept). */
static bool promote(frayi_xq *x)
{
	if (x->big)
		return true;
	mpq_ptr q = malloc(sizeof *q);
	if (!q)
		return false;
	mpq_init(q);
	set_q(q, x->num, x->den);
	x->big = q;
	return true;
}

bool frayi_xq_is_zero(const frayi_xq *x)
{
	return x->big ? mpq_sgn(x->big) == 0 : x->num == 0;
}

/* num / den + n / d in 128 bits, or false when it does not fit. */
static bool add_small(frayi_xq *x, frayi_u128 n, frayi_u128 d)
{
	if (x->num == 0) {
		x->num = n;
		x->den = d;
		return true;
	}
	if (d == x->den)
		return !__builtin_add_overflow(x->num, n, &x->num);
	frayi_u128 a = x->num, b = x->den, m;
	if (b > d && b % d == 0) {
		m = b / d;
		return !__builtin_mul_overflow(n, m, &n) && !__builtin_add_overflow(a, n, &x->num);
	}
	frayi_u128 g = frayi_u128_gcd(b, d), l, t;
	if (__builtin_mul_overflow(b / g, d, &l) || __builtin_mul_overflow(a, d / g, &a) ||
	    __builtin_mul_overflow(n, b / g, &t) || __builtin_add_overflow(a, t, &a))
		return false;
	x->num = a;
	x->den = l;
	return true;
}

/* n / d in lowest terms. */
static void reduce(frayi_u128 *n, frayi_u128 *d)
{
	frayi_u128 g = frayi_u128_gcd(*n, *d);
	if (g > 1) {
		*n /= g;
		*d /= g;
	}
}

/* Back to 128 bits when the value fits again (GMP's numbers are kept in
 * lowest terms): a sum that went past 128 bits on the way, unreduced, is
 * not a GMP number for good, every later addition a GMP one (issue #33:
 * the whole-battle tallies of outcomes spent a sixth of the exact walk in
 * GMP's gcd and allocations). */
static void demote(frayi_xq *x)
{
	frayi_u128 n, d;
	if (!x->big || !frayi_mpz_to_u128(mpq_numref(x->big), &n) || !frayi_mpz_to_u128(mpq_denref(x->big), &d))
		return;
	mpq_clear(x->big);
	free(x->big);
	*x = (frayi_xq){.num = n, .den = d, .big = NULL};
}

bool frayi_xq_add(frayi_xq *x, frayi_u128 n, frayi_u128 d)
{
	if (n == 0)
		return true;
	if (!x->big) {
		frayi_xq keep = *x;
		if (add_small(x, n, d))
			return true;
		/* unreduced terms overflow where their sum in lowest terms
		 * may fit: reduced, then tried again */
		reduce(&keep.num, &keep.den);
		reduce(&n, &d);
		*x = keep;
		if (add_small(x, n, d))
			return true;
		*x = keep;
		if (!promote(x))
			return false;
	}
	mpq_t q;
	mpq_init(q);
	set_q(q, n, d);
	mpq_add(x->big, x->big, q);
	mpq_clear(q);
	demote(x);
	return true;
}

bool frayi_xq_add_q(frayi_xq *x, mpq_srcptr q)
{
	if (mpq_sgn(q) == 0)
		return true;
	if (!promote(x))
		return false;
	mpq_add(x->big, x->big, q);
	demote(x);
	return true;
}

bool frayi_xq_add_xq(frayi_xq *dst, const frayi_xq *src)
{
	if (!src->big)
		return frayi_xq_add(dst, src->num, src->den);
	return frayi_xq_add_q(dst, src->big);
}

bool frayi_xq_addmul(frayi_xq *x, const frayi_xq *a, const frayi_xq *b)
{
	frayi_u128 pn, pd;
	if (frayi_xq_is_zero(a) || frayi_xq_is_zero(b))
		return true;
	if (!a->big && !b->big) {
		if (!__builtin_mul_overflow(a->num, b->num, &pn) && !__builtin_mul_overflow(a->den, b->den, &pd))
			return frayi_xq_add(x, pn, pd);
		/* the product in lowest terms often fits: cancelled crosswise,
		 * then each factor reduced too */
		frayi_u128 an = a->num, ad = a->den, bn = b->num, bd = b->den;
		for (int pass = 0; pass < 2; pass++) {
			if (pass == 1) {
				reduce(&an, &ad);
				reduce(&bn, &bd);
			}
			frayi_u128 g1 = frayi_u128_gcd(an, bd), g2 = frayi_u128_gcd(bn, ad);
			an /= g1, bd /= g1, bn /= g2, ad /= g2;
			if (!__builtin_mul_overflow(an, bn, &pn) && !__builtin_mul_overflow(ad, bd, &pd)) {
				return frayi_xq_add(x, pn, pd);
			}
		}
	}
	mpq_t p, f;
	mpq_inits(p, f, NULL);
	frayi_xq_get_q(a, p);
	frayi_xq_get_q(b, f);
	mpq_mul(p, p, f);
	bool ok = frayi_xq_add_q(x, p);
	mpq_clears(p, f, NULL);
	return ok;
}

void frayi_xq_clear(frayi_xq *x)
{
	if (x->big) {
		mpq_clear(x->big);
		free(x->big);
	}
	*x = FRAY_XQ_ZERO;
}

void frayi_xq_get_q(const frayi_xq *x, mpq_t q)
{
	if (x->big)
		mpq_set(q, x->big);
	else
		set_q(q, x->num, x->den);
}

double frayi_xq_to_double(const frayi_xq *x)
{
	return x->big ? frayi_q_to_double(x->big) : frayi_u128_ratio(x->num, x->den);
}

size_t frayi_xq_str(const frayi_xq *x, char *dst, size_t cap)
{
	if (x->big) {
		size_t need = mpz_sizeinbase(mpq_numref(x->big), 10) +
			      mpz_sizeinbase(mpq_denref(x->big), 10) + 3;
		char *tmp = malloc(need);
		if (!tmp) {
			if (cap)
				dst[0] = '\0';
			return 0;
		}
		mpq_get_str(tmp, 10, x->big);
		size_t len = strlen(tmp);
		if (cap) {
			size_t k = len < cap - 1 ? len : cap - 1;
			memcpy(dst, tmp, k);
			dst[k] = '\0';
		}
		free(tmp);
		return len;
	}
	frayi_u128 g = frayi_u128_gcd(x->num, x->den), num, den;
	if (!((x->num | x->den) >> 64)) { /* in 64 bits: no 128-bit division */
		num = (uint64_t)x->num / (uint64_t)g;
		den = (uint64_t)x->den / (uint64_t)g;
	} else {
		num = x->num / g;
		den = x->den / g;
	}
	char tmp[84];
	size_t len = frayi_u128_str(num, tmp);
	if (den != 1) {
		tmp[len++] = '/';
		len += frayi_u128_str(den, tmp + len);
	}
	if (cap) {
		size_t k = len < cap - 1 ? len : cap - 1;
		memcpy(dst, tmp, k);
		dst[k] = '\0';
	}
	return len;
}

/* Pascal's triangle to 67 (C(67, 33) is the last row that fits 64 bits),
 * made once. */
#define BINOM_ROWS 68
static uint64_t binom_table[BINOM_ROWS][BINOM_ROWS];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void binom_fill(void)
{
	for (int n = 0; n < BINOM_ROWS; n++) {
		binom_table[n][0] = binom_table[n][n] = 1;
		for (int k = 1; k < n; k++)
			binom_table[n][k] = binom_table[n - 1][k - 1] + binom_table[n - 1][k];
	}
}

bool frayi_binomial(unsigned n, unsigned k, frayi_u128 *out)
{
	if (k > n) {
		*out = 0;
		return true;
	}
	if (n < BINOM_ROWS) {
		pthread_once(&binom_once, binom_fill);
		*out = binom_table[n][k];
		return true;
	}
	if (k > n - k)
		k = n - k;
	frayi_u128 c = 1;
	for (unsigned j = 1; j <= k; j++) {
		/* c * (n - k + j) / j is exact: c is C(n - k + j - 1, j - 1) */
		frayi_u128 g = frayi_u128_gcd(c, j), t;
		if (__builtin_mul_overflow(c / g, (n - k + j) / (j / g), &t))
			return false;
		c = t;
	}
	*out = c;
	return true;
}
