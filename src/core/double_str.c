/* fray_double_str: the fewest significant digits p (1..17) whose %.<p>g
 * text reads back as x, and that text, byte for byte what the C library
 * gives for it (tests/core/test_double_str.c checks it against snprintf and
 * strtod), computed here with integers alone: in wasm32 musl's printf and
 * strtod compute in software 128-bit long double, a third of the time of an
 * answer of many exact numbers in the browser (issue 45 item 3), and each
 * try at a precision was one of each.
 *
 * How (Steele & White's and Dragon4's scaling, without their free-format
 * stop): x = f 2^e is r/s with r, s integers, scaled by a power of ten so
 * that r/s is in [0.1, 1); the digits come one at a time (10r / s, the
 * remainder kept), and with them the half-gaps to x's two neighbours,
 * m+ / s and m- / s, in units of the last digit. After p digits, %.<p>g
 * prints them rounded to nearest, ties to even (glibc and musl both round
 * the exact value so): down when 2r < s, up when 2r > s. The text reads
 * back as x when it lies within the half-gap on its side, r < m- down or
 * s - r < m+ up, and on the boundary, the midpoint between x and its
 * neighbour, when f is even (strtod rounds ties to even). So every
 * precision is tried in one pass, exactly, as the count up from 1 did
 * with a snprintf and a strtod each. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <fray/dist.h>
#include "internal.h"

/* 42 limbs of 32 bits: s is at most 2^1076 (the least subnormal) or 2^4
 * 10^309 (the greatest double), shifted by at most 31 bits, r and m+ below 16 s */
#define LIMBS 42

typedef struct {
	int n; /* limbs in use, the top one not 0 (0: the number 0) */
	uint32_t d[LIMBS];
} big;

static void big_set(big *b, uint64_t v)
{
	b->n = 0;
	while (v) {
		b->d[b->n++] = (uint32_t)v;
		v >>= 32;
	}
}

static void big_mul_small(big *b, uint32_t m)
{
	uint64_t carry = 0;
	for (int i = 0; i < b->n; i++) {
		uint64_t t = (uint64_t)b->d[i] * m + carry;
		b->d[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry)
		b->d[b->n++] = (uint32_t)carry;
}

static void big_shl(big *b, int bits)
{
	if (!b->n || !bits)
		return;
	int limbs = bits / 32, sh = bits % 32;
	if (sh) {
		uint32_t carry = 0;
		for (int i = 0; i < b->n; i++) {
			uint32_t v = b->d[i];
			b->d[i] = v << sh | carry;
			carry = v >> (32 - sh);
		}
		if (carry)
			b->d[b->n++] = carry;
	}
	if (limbs) {
		memmove(b->d + limbs, b->d, (size_t)b->n * sizeof b->d[0]);
		memset(b->d, 0, (size_t)limbs * sizeof b->d[0]);
		b->n += limbs;
	}
}

static void big_mul_pow10(big *b, int k)
{
	for (; k >= 9; k -= 9)
		big_mul_small(b, 1000000000u);
	static const uint32_t small[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
	if (k)
		big_mul_small(b, small[k]);
}

static int big_cmp(const big *a, const big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->d[i] != b->d[i])
			return a->d[i] < b->d[i] ? -1 : 1;
	return 0;
}

/* a -= b, a >= b */
static void big_sub(big *a, const big *b)
{
	uint32_t borrow = 0;
	for (int i = 0; i < a->n; i++) {
		uint64_t t = (uint64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
		a->d[i] = (uint32_t)t;
		borrow = (uint32_t)(t >> 63);
	}
	while (a->n && !a->d[a->n - 1])
		a->n--;
}

/* the next digit, floor(r / s) (r < 10 s), r left the remainder: an estimate from
 * the top 64 bits, at most 1 short (s's top limb is at least 2^27), then
 * r -= q s in one pass and a correction */
static int digit(big *r, const big *s)
{
	int n = s->n;
	if (r->n < n)
		return 0;
	uint64_t rt = r->d[n - 1], st = s->d[n - 1];
	if (n > 1) {
		rt = rt << 32 | r->d[n - 2];
		st = st << 32 | s->d[n - 2];
	}
	uint32_t q = (uint32_t)(rt / (st + 1));
	if (q) {
		uint64_t carry = 0;
		uint32_t borrow = 0;
		for (int i = 0; i < n; i++) {
			uint64_t prod = (uint64_t)q * s->d[i] + carry;
			carry = prod >> 32;
			uint64_t t = (uint64_t)r->d[i] - (uint32_t)prod - borrow;
			r->d[i] = (uint32_t)t;
			borrow = (uint32_t)(t >> 63);
		}
		while (r->n && !r->d[r->n - 1])
			r->n--;
	}
	while (big_cmp(r, s) >= 0) {
		big_sub(r, s);
		q++;
	}
	return (int)q;
}

/* compare a + b with c */
static int big_cmp_sum(const big *a, const big *b, const big *c)
{
	big t;
	int n = a->n > b->n ? a->n : b->n;
	uint64_t carry = 0;
	for (int i = 0; i < n; i++) {
		carry += (uint64_t)(i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0);
		t.d[i] = (uint32_t)carry;
		carry >>= 32;
	}
	t.n = n;
	if (carry)
		t.d[t.n++] = (uint32_t)carry;
	return big_cmp(&t, c);
}

/* %.<p>g's text of the p digits dig (the first not 0) of decimal exponent
 * x10 (the first digit's), negative or not: trailing zeros dropped, the
 * exponent form when x10 < -4 or x10 >= p, as printf writes it */
static size_t format_g(char *out, bool negative, char *dig, int p, int x10)
{
	char *o = out;
	if (negative)
		*o++ = '-';
	int last = p; /* digits kept: no trailing zeros after the point */
	if (x10 < -4 || x10 >= p) {
		while (last > 1 && dig[last - 1] == '0')
			last--;
		*o++ = dig[0];
		if (last > 1) {
			*o++ = '.';
			memcpy(o, dig + 1, (size_t)(last - 1));
			o += last - 1;
		}
		*o++ = 'e';
		*o++ = x10 < 0 ? '-' : '+';
		int a = x10 < 0 ? -x10 : x10;
		if (a >= 100)
			*o++ = (char)('0' + a / 100);
		*o++ = (char)('0' + a / 10 % 10);
		*o++ = (char)('0' + a % 10);
	} else if (x10 >= 0) {
		while (last > x10 + 1 && dig[last - 1] == '0')
			last--;
		memcpy(o, dig, (size_t)x10 + 1);
		o += x10 + 1;
		if (last > x10 + 1) {
			*o++ = '.';
			memcpy(o, dig + x10 + 1, (size_t)(last - x10 - 1));
			o += last - x10 - 1;
		}
	} else {
		while (last > 1 && dig[last - 1] == '0')
			last--;
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -x10 - 1; i++)
			*o++ = '0';
		memcpy(o, dig, (size_t)last);
		o += last;
	}
	*o = '\0';
	return (size_t)(o - out);
}

/* the p digits, rounded up or not, as %.<p>g writes them; x10 the first digit's exponent */
static size_t finish(char *out, bool negative, char *dig, int p, bool up, int x10)
{
	if (up) { /* carry: 0.99 -> 1.0 */
		int i = p - 1;
		while (i >= 0 && dig[i] == '9')
			dig[i--] = '0';
		if (i >= 0) {
			dig[i]++;
		} else {
			dig[0] = '1';
			x10++;
		}
	}
	return format_g(out, negative, dig, p, x10);
}

/* The same digits and tests as shortest's loop below, in 64-bit integers: when s < 2^60
 * (most probabilities: x from about 2^-59 up), 10r < 10s and m+, m- < 16s fit. */
static size_t shortest64(uint64_t r, uint64_t s, uint64_t mp, uint64_t mm, int k, bool even, bool negative,
			 char *out)
{
	char dig[18];
	for (int p = 1; p <= 17; p++) {
		r *= 10;
		mp *= 10;
		mm *= 10;
		uint64_t q = r / s;
		r -= q * s; /* one division, not a second for the remainder */
		int d = (int)q;
		dig[p - 1] = (char)('0' + d);
		bool up = 2 * r > s || (2 * r == s && (d & 1));
		uint64_t dist = up ? s - r : r, gap = up ? mp : mm;
		if (dist < gap || (dist == gap && even) || p == 17)
			return finish(out, negative, dig, p, up, k - 1);
	}
	return 0; /* not reached */
}

static uint64_t big_u64(const big *b)
{
	return b->n == 0 ? 0 : b->n == 1 ? b->d[0] : (uint64_t)b->d[1] << 32 | b->d[0];
}

/* the text of finite x, not 0, into out (40 bytes) */
static size_t shortest(double x, char *out)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	bool negative = bits >> 63;
	int biased = (int)(bits >> 52 & 0x7ff);
	uint64_t f = bits & ((UINT64_C(1) << 52) - 1);
	int e;
	if (biased) {
		f |= UINT64_C(1) << 52;
		e = biased - 1075;
	} else {
		e = -1074;
	}
	/* the gap below is half the one above at a normal power of two (not the least normal) */
	bool narrow_below = f == UINT64_C(1) << 52 && biased > 1;
	bool even = !(f & 1);
	big r, s, mp, mm;
	int shift = narrow_below ? 2 : 1; /* r/s = x, m+/s and m-/s its half-gaps */
	big_set(&r, f);
	if (e >= 0) {
		big_shl(&r, e + shift);
		big_set(&s, UINT64_C(1) << shift);
		big_set(&mp, 1);
		big_shl(&mp, e + shift - 1);
		big_set(&mm, 1);
		big_shl(&mm, e);
	} else {
		big_shl(&r, shift);
		big_set(&s, 1);
		big_shl(&s, shift - e);
		big_set(&mp, UINT64_C(1) << (shift - 1));
		big_set(&mm, 1);
	}
	/* k: 10^(k-1) <= x < 10^k, estimated from the binary exponent (never
	 * more than one off) and then made so */
	int bitlen = 64 - __builtin_clzll(f);
	int k = (int)ceil((double)(e + bitlen - 1) * 0.30102999566398114);
	if (k >= 0) {
		big_mul_pow10(&s, k);
	} else {
		big_mul_pow10(&r, -k);
		big_mul_pow10(&mp, -k);
		big_mul_pow10(&mm, -k);
	}
	while (big_cmp(&r, &s) >= 0) {
		big_mul_small(&s, 10);
		k++;
	}
	for (;;) {
		big t = r;
		big_mul_small(&t, 10);
		if (big_cmp(&t, &s) >= 0)
			break;
		r = t;
		big_mul_small(&mp, 10);
		big_mul_small(&mm, 10);
		k--;
	}
	if (s.n < 2 || (s.n == 2 && s.d[1] < 1u << 28))
		return shortest64(big_u64(&r), big_u64(&s), big_u64(&mp), big_u64(&mm), k, even, negative, out);
	/* all four shifted alike so that s's top limb is in [2^27, 2^28): 10r < 10s then has
	 * no more limbs than s, and the digit's estimate from the top 64 bits is at most 1 short */
	int top = 31 - __builtin_clz(s.d[s.n - 1]), sh = top <= 27 ? 27 - top : 59 - top;
	big_shl(&r, sh);
	big_shl(&s, sh);
	big_shl(&mp, sh);
	big_shl(&mm, sh);
	big half = s; /* s is even: a power of two of at least 2 times one of ten */
	for (int i = half.n - 1, carry = 0; i >= 0; i--) {
		uint32_t v = half.d[i];
		half.d[i] = v >> 1 | (uint32_t)carry << 31;
		carry = v & 1;
	}
	while (half.n && !half.d[half.n - 1])
		half.n--;
	char dig[18];
	for (int p = 1; p <= 17; p++) {
		big_mul_small(&r, 10);
		big_mul_small(&mp, 10);
		big_mul_small(&mm, 10);
		int d = digit(&r, &s);
		dig[p - 1] = (char)('0' + d);
		int vs_half = big_cmp(&r, &half);
		bool up = vs_half > 0 || (vs_half == 0 && (d & 1));
		/* the text's distance to x against the half-gap on its side: s - r against m+, r against m- */
		int c = up ? -big_cmp_sum(&r, &mp, &s) : big_cmp(&r, &mm);
		if (c < 0 || (c == 0 && even) || p == 17)
			return finish(out, negative, dig, p, up, k - 1);
	}
	return 0; /* not reached: 17 digits always read back */
}

FRAY_API size_t fray_double_str(double x, char *dst, size_t cap)
{
	char best[40];
	size_t len;
	if (x != x || x - x != 0) /* nan (never reads back: %.17g) and +-inf (%.1g), as the C library writes them */
		len = (size_t)snprintf(best, sizeof best, x != x ? "%.17g" : "%.1g", x);
	else if (x == 0)
		len = (size_t)snprintf(best, sizeof best, "%s", signbit(x) ? "-0" : "0");
	else
		len = shortest(x, best);
	if (cap) {
		size_t n = len < cap - 1 ? len : cap - 1;
		memcpy(dst, best, n);
		dst[n] = '\0';
	}
	return len;
}
