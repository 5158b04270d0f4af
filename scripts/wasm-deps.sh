#!/usr/bin/env bash
# The browser build's dependencies, from Debian alone: Debian's emscripten,
# and libfyaml and GMP's mini-gmp/mini-mpq built with it from their Debian
# source packages (apt-get source, the versions bookworm ships, pinned and
# checked). The result is cached outside the work tree, one folder per set of
# versions, and reused by every clone on the machine:
#   $FRAY_WASM_DEPS (default /var/cache/fray/wasm-deps)/<versions>/{include,lib}
# Prints that folder on stdout (everything else goes to stderr).
# Usage: scripts/wasm-deps.sh            install/build what is missing
#        scripts/wasm-deps.sh --print    print the folder only (no work)
set -euo pipefail

LIBFYAML_VERSION=0.7.12-2
GMP_VERSION=2:6.2.1+dfsg1-1.1
EMSCRIPTEN_VERSION=3.1.6~dfsg-5
CACHE_ROOT=${FRAY_WASM_DEPS:-/var/cache/fray/wasm-deps}
# the folder's name: every version that went into it (no colon or tilde)
# RECIPE: bumped when this script builds them differently (3: mini-gmp's
# limbs of 64 bits, issue 45)
RECIPE=3
KEY="r${RECIPE}_libfyaml-${LIBFYAML_VERSION}_gmp-${GMP_VERSION#*:}_emscripten-${EMSCRIPTEN_VERSION%%~*}"
OUT="$CACHE_ROOT/$KEY"

say() { echo "wasm-deps: $*" >&2; }
if [ "${1:-}" = "--print" ]; then echo "$OUT"; exit 0; fi
if [ -f "$OUT/.complete" ]; then echo "$OUT"; exit 0; fi

# Debian's emscripten finds its node modules (acorn) only here when another
# node (nodesource's) is first on the PATH
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}

installed() { dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null | grep -q "install ok installed"; }
as_root() {
  if [ "$(id -u)" -ne 0 ]; then
    say "needs root for: $*"; say "run: sudo $0"; exit 1
  fi
  "$@"
}

# ---- emscripten ----
if ! installed emscripten; then
  say "installing emscripten (Debian)"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get install -y -qq --no-install-recommends emscripten >&2
fi
have=$(dpkg-query -W -f='${Version}' emscripten)
[ "$have" = "$EMSCRIPTEN_VERSION" ] || say "note: emscripten $have, pinned $EMSCRIPTEN_VERSION (the cache key names the pinned one)"

# ---- a deb-src entry, when there is none ----
if ! grep -rqsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  say "adding a deb-src entry (/etc/apt/sources.list.d/fray-deb-src.sources)"
  as_root tee /etc/apt/sources.list.d/fray-deb-src.sources >/dev/null <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  as_root apt-get update -qq >&2
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fray-wasm-deps.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE="$WORK/out"
mkdir -p "$STAGE/include" "$STAGE/lib"

# apt-get source of exactly the pinned version (it refuses a version it
# cannot find); the source folder is the one dpkg-source unpacked
fetch() { # package version
  local pkg=$1 ver=$2
  mkdir -p "$WORK/$pkg"
  (cd "$WORK/$pkg" && apt-get source -qq --only-source "$pkg=$ver" >&2) ||
    { say "apt-get source $pkg=$ver failed (is it still in the archive?)"; exit 1; }
  find "$WORK/$pkg" -mindepth 1 -maxdepth 1 -type d | head -1
}

# ---- GMP: mini-gmp and mini-mpq, GMP's own small implementation in C ----
# fray's exact odds use only functions these have, plus the few variadic
# helpers in src/wasm/gmp_compat.c (mpz_inits, mpq_inits, ... ).
say "GMP $GMP_VERSION: mini-gmp + mini-mpq"
gmp_src=$(fetch gmp "$GMP_VERSION")
cp "$gmp_src/mini-gmp/mini-gmp.h" "$gmp_src/mini-gmp/mini-mpq.h" "$STAGE/include/"
cp "$gmp_src/mini-gmp/mini-gmp.c" "$gmp_src/mini-gmp/mini-mpq.c" "$WORK/"
# fray includes <gmp.h>: one header with both halves
cat > "$STAGE/include/gmp.h" <<'EOF'
/* fray's browser build: GMP's mini-gmp and mini-mpq (scripts/wasm-deps.sh) */
#ifndef FRAY_WASM_GMP_H
#define FRAY_WASM_GMP_H
/* limbs of 64 bits (mini-gmp's default is long, 32 bits in wasm32): half
 * the limbs and a quarter of the multiplications for fray's big numerators
 * and denominators, wasm's 64-bit arithmetic being native (issue 45) */
#define MINI_GMP_LIMB_TYPE long long
#include <stdarg.h>
#include "mini-gmp.h"
#include "mini-mpq.h"
void mpz_inits(mpz_ptr, ...);
void mpz_clears(mpz_ptr, ...);
void mpq_inits(mpq_ptr, ...);
void mpq_clears(mpq_ptr, ...);
#endif
EOF
# mini-gmp 6.2.1's mpz_gcd, when the smaller operand is one limb, passes
# that limb to mpz_tdiv_ui and the gcd to mpz_set_ui, whose unsigned long
# is 32 bits in wasm32: with 64-bit limbs it cut both (gcd(62828356305,
# 20^50) came out 1, not 5, and 50d20's fractions unreduced). Patched to
# stay in limbs; the build stops if the lines are not there to patch.
grep -q 'mp_limb_t ul = mpz_tdiv_ui (tu, vl);' "$WORK/mini-gmp.c" ||
  { say "mini-gmp.c: mpz_gcd is not the 6.2.1 code this script patches"; exit 1; }
perl -0pi -e 's/mp_limb_t ul = mpz_tdiv_ui \(tu, vl\);\n(\s*)mpz_set_ui \(g, mpn_gcd_11 \(ul, vl\)\);/mpz_tdiv_r (tu, tu, tv); \/* fray: in limbs, not unsigned long *\/\n$1mp_limb_t ul = tu->_mp_size ? tu->_mp_d[0] : 0;\n$1mpz_set (g, tv);\n$1g->_mp_d[0] = mpn_gcd_11 (ul, vl);/' "$WORK/mini-gmp.c"
grep -q 'fray: in limbs' "$WORK/mini-gmp.c" || { say "mini-gmp.c: the mpz_gcd patch did not apply"; exit 1; }
# one translation unit, as GMP's own mini-gmp tests build it: mini-mpq.c
# 6.2.1 uses mini-gmp.c's GMP_LIMB_MAX and defines its helpers only alone
printf '#include "mini-gmp.c"\n#include "mini-mpq.c"\n' > "$WORK/mini-gmpq.c"
# Its memory-function setter is renamed: src/wasm/gmp_compat.c defines
# GMP's, so the sizes fray counts are the blocks' true ones (mini-gmp
# passes 0 to the free and realloc functions).
# Built with the same limb as the header says (its gmp.h defines it).
(cd "$WORK" && emcc -O2 -c mini-gmpq.c -o mini-gmpq.o -I"$STAGE/include" -include "$STAGE/include/gmp.h" \
    -Dmp_set_memory_functions=fray_mini_set_memory_functions \
    -Dmp_get_memory_functions=fray_mini_get_memory_functions &&
  emar rcs "$STAGE/lib/libgmp.a" mini-gmpq.o) >&2

# mpz_gcd checked in node against Euclid's remainders (mpz_tdiv_r, no
# unsigned long): 50,000 pairs of 1 to 260 bits, a third with a common
# factor (unpatched, about a fifth of them came out wrong)
cat > "$WORK/gcd_check.c" <<'EOF_C'
#include <stdio.h>
#include <stdint.h>
#include <gmp.h>
void mpz_inits(mpz_ptr x, ...) { (void)x; }
void mpz_clears(mpz_ptr x, ...) { (void)x; }
void mpq_inits(mpq_ptr x, ...) { (void)x; }
void mpq_clears(mpq_ptr x, ...) { (void)x; }
static uint64_t st = 88172645463325252u;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }
static void random_z(mpz_t z)
{
	int bits = 1 + (int)(rnd() % 260);
	mpz_set_ui(z, 0);
	for (int i = 0; i < bits; i += 16) {
		mpz_mul_2exp(z, z, 16);
		mpz_add_ui(z, z, (unsigned long)(rnd() & 0xffff));
	}
	if (!mpz_sgn(z))
		mpz_set_ui(z, 7);
}
int main(void)
{
	mpz_t a, b, f, g, x, y, t;
	mpz_init(a); mpz_init(b); mpz_init(f); mpz_init(g); mpz_init(x); mpz_init(y); mpz_init(t);
	long wrong = 0;
	for (int i = 0; i < 50000; i++) {
		random_z(a); random_z(b); random_z(f);
		if (i % 3 == 0) { mpz_mul(a, a, f); mpz_mul(b, b, f); }
		if (i % 5 == 0) mpz_mul_2exp(a, a, (unsigned long)(rnd() % 70));
		mpz_gcd(g, a, b);
		mpz_set(x, a); mpz_set(y, b);
		while (mpz_sgn(y)) { mpz_tdiv_r(t, x, y); mpz_swap(x, y); mpz_swap(y, t); }
		wrong += mpz_cmp(g, x) != 0;
	}
	printf("%ld\n", wrong);
	return wrong != 0;
}
EOF_C
(cd "$WORK" && emcc -O2 -sSINGLE_FILE=1 -sENVIRONMENT=node -I"$STAGE/include" gcd_check.c "$STAGE/lib/libgmp.a" \
  -o gcd_check.js && node gcd_check.js) >&2 || { say "mini-gmp: mpz_gcd is wrong with 64-bit limbs"; exit 1; }

# ---- libfyaml: its library sources, compiled with emcc ----
say "libfyaml $LIBFYAML_VERSION"
fy_src=$(fetch libfyaml "$LIBFYAML_VERSION")
fy_ver=${LIBFYAML_VERSION%%-*}
mkdir -p "$WORK/fy"
cat > "$WORK/fy/config.h" <<EOF
/* written by fray's scripts/wasm-deps.sh for the emscripten build */
#define VERSION "$fy_ver"
#define PACKAGE_VERSION "$fy_ver"
#define HAVE_LIBYAML 0
#define HAVE_STDATOMIC_H 1
EOF
objs=()
for c in "$fy_src"/src/lib/*.c "$fy_src"/src/xxhash/*.c; do
  [ -f "$c" ] || continue
  o="$WORK/fy/$(basename "${c%.c}").o"
  emcc -O2 -DHAVE_CONFIG_H -D_GNU_SOURCE -I"$WORK/fy" -I"$fy_src/include" -I"$fy_src/src/lib" \
    -I"$fy_src/src/xxhash" -c "$c" -o "$o" >&2
  objs+=("$o")
done
emar rcs "$STAGE/lib/libfyaml.a" "${objs[@]}" >&2
cp -r "$fy_src/include/libfyaml.h" "$STAGE/include/"

cat > "$STAGE/VERSIONS" <<EOF
libfyaml $LIBFYAML_VERSION (Debian source, src/lib compiled with emcc -O2)
gmp $GMP_VERSION (Debian source, mini-gmp + mini-mpq only, limbs of 64 bits)
emscripten $have
EOF
touch "$STAGE/.complete"
as_root mkdir -p "$CACHE_ROOT"
rm -rf "$OUT.tmp" && cp -r "$STAGE" "$OUT.tmp" && rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
say "cached in $OUT"
echo "$OUT"
