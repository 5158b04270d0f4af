// fray at the table: small DOM helpers shared by every screen of the page.
'use strict';

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k) e.append(k);
  return e;
};
const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs = {}) => {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

// ---- exact chances (every screen: the main page, the game, the report) ----

function gcdBig(a, b) { while (b) [a, b] = [b, a % b]; return a < 0n ? -a : a; }
// The exact sum of the rows' "exact" fractions as "n/d" (or "n" when whole),
// or null when a row has none (a simulation's).
// Over a common denominator, reduced once at the end: a row's denominator
// mostly divides the sum's (dice give powers of their sizes), so a row costs
// a division, not a gcd of numbers hundreds of digits long (45,000 such
// gcds, the odds of 300 lost animals, held the page for seconds).
function exactSum(rows) {
  let n = 0n, d = 1n;
  for (const r of rows) {
    const m = /^(\d+)(?:\/(\d+))?$/.exec(String(r.exact === undefined || r.exact === null ? '' : r.exact).trim());
    if (!m) return null;
    const [a, b] = [BigInt(m[1]), BigInt(m[2] || '1')];
    if (b === 0n) return null;
    if (d % b === 0n) {
      n += a * (d / b);
    } else { // the new denominator: lcm(d, b)
      const g = gcdBig(d, b);
      n = n * (b / g) + a * (d / g);
      d = d * (b / g);
    }
  }
  const g = gcdBig(n, d) || 1n;
  n /= g; d /= g;
  return d === 1n ? String(n) : n + '/' + d;
}

// A chance as a player reads it: its percentage, with the exact fraction
// beside it when the fraction is short (at most 6 digits each side:
// "16.7% (1/6)") and on hover (title) when it is not; a whole number (0, 1)
// or no fraction, the percentage alone.
const SHORT_FRACTION_DIGITS = 6;
function chanceEl(tag, percent, exact, attrs = {}) {
  const e = el(tag, attrs);
  e.textContent = percent;
  const m = /^(\d+)\/(\d+)$/.exec(exact || '');
  if (!m) return e;
  if (m[1].length <= SHORT_FRACTION_DIGITS && m[2].length <= SHORT_FRACTION_DIGITS) e.textContent = `${percent} (${exact})`;
  else e.title = 'exactly ' + exact;
  e.dataset.exact = exact;
  return e;
}
