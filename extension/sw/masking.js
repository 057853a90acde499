// Finding the secrets filled by name in a text, whatever way a browser wrote them, to say their
// names instead. Pure: secrets.js keeps the values and calls it on every string of an answer.
//
// A text is read as it is and as each chain of decodings a browser or a page applies makes it:
// percent escapes (encodeURIComponent, encodeURI, a form's application/x-www-form-urlencoded,
// upper or lower-case hex, a URL encoded twice), HTML character references (named, decimal, hex),
// JSON string escapes, and one inside another. Whatever the decoding, whitespace runs count as one
// space (a snapshot squashes them) and, in a URL, `+` counts as a space. Each run found is mapped
// back to the characters of the text that wrote it, and those are replaced.
//
// What is found:
// - a secret of at least MIN_WHOLE characters, whole;
// - any MIN_RUN characters in a row of a secret (with the runs around them), so an echo that a
//   reading tool cut, or a page wrote in part, is found without its end.
// MIN_WHOLE: a shorter value (a PIN, one character) is too likely to be ordinary text ("2024",
// every `e`): replacing it everywhere rewrites refs and words, and tells an agent which ordinary
// text the secret is. Such a value is masked by its element only. MIN_RUN: masking is also an
// oracle, since an agent can write guesses into a page and see which come back masked; a shorter
// run would let it find a piece (ten thousand guesses for four digits) and grow it a character at
// a time, where sixteen characters of even a digits-only secret are 10^16 guesses. And sixteen
// characters of a secret meet ordinary text by chance practically never.
import { REF as REF_FORMAT } from './contract.js';

export const MIN_WHOLE = 6;
export const MIN_RUN = 16;

// A tabpilot ref in a text (`[ref=f3:e7k2f.2]`) or a string that is one: never rewritten.
const REF = new RegExp(`\\bref=(${REF_FORMAT.pattern})(?![\\w.])`, 'g');
const WHOLE_REF = new RegExp(`^(?:${REF_FORMAT.pattern})$`);

// The named character references pages and servers write for ASCII and the no-break space.
const NAMED = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', excl: '!', num: '#', dollar: '$',
  percnt: '%', lpar: '(', rpar: ')', ast: '*', plus: '+', comma: ',', period: '.', sol: '/', colon: ':',
  semi: ';', equals: '=', quest: '?', commat: '@', lsqb: '[', lbrack: '[', bsol: '\\', rsqb: ']',
  rbrack: ']', Hat: '^', lowbar: '_', grave: '`', lcub: '{', lbrace: '{', verbar: '|', vert: '|',
  rcub: '}', rbrace: '}', tilde: '~', hyphen: '-', dash: '-',
};

// A decoded text: `text`, and `pieces`, [outStart, outEnd, inStart, inEnd] for each part of it
// that an escape wrote; everything between pieces is as it was in the input.
function decoded(input, pattern, convert) {
  const parts = [];
  const pieces = [];
  let at = 0;
  let length = 0;
  for (const m of input.matchAll(pattern)) {
    parts.push(input.slice(at, m.index));
    length += m.index - at;
    for (const [s, a, b] of convert(m)) {
      const [start, end] = [m.index + a, m.index + b];
      parts.push(s);
      if (s !== input.slice(start, end)) pieces.push([length, length + s.length, start, end]);
      length += s.length;
    }
    at = m.index + m[0].length;
  }
  parts.push(input.slice(at));
  return { text: parts.join(''), pieces };
}

// The span [start, end) of the input that wrote the decoded text's code unit `k`.
function spanOf(pieces, k) {
  let lo = 0;
  let hi = pieces.length - 1;
  let p = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (pieces[mid][0] <= k) {
      p = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (p < 0) return [k, k + 1];
  const [, outEnd, inStart, inEnd] = pieces[p];
  if (k < outEnd) return [inStart, inEnd];
  return [inEnd + k - outEnd, inEnd + k - outEnd + 1];
}

// A reading decoded once more: its text, and the span of the original text behind each unit.
function further(reading, step) {
  const { text, pieces } = step;
  if (!pieces.length) return { text, span: reading.span };
  const span = (k) => {
    const [a, b] = spanOf(pieces, k);
    return [reading.span(a)[0], reading.span(b - 1)[1]];
  };
  return { text, span };
}

// Percent escapes, a run at a time: each UTF-8 sequence is one character, spanning its escapes;
// an escape that is not part of one is one byte.
function percentRun(m) {
  const run = m[0];
  const bytes = [];
  for (let i = 0; i < run.length; i += 3) bytes.push(parseInt(run.slice(i + 1, i + 3), 16));
  const pieces = [];
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    const size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    let text = null;
    if (size && i + size <= bytes.length) {
      try {
        text = decodeURIComponent(run.slice(i * 3, (i + size) * 3));
      } catch (_) {
        text = null;
      }
    }
    if (text === null) {
      // Not UTF-8: a page in a legacy charset (windows-1252 writes `é` as %E9) is read as Latin-1.
      pieces.push([String.fromCharCode(b), i * 3, i * 3 + 3]);
      i += 1;
    } else {
      pieces.push([text, i * 3, (i + size) * 3]);
      i += size;
    }
  }
  return pieces;
}

function reference(m) {
  const [, hex, dec, name] = m;
  const code = hex ? parseInt(hex, 16) : dec ? parseInt(dec, 10) : null;
  let text = null;
  if (code !== null && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) text = String.fromCodePoint(code);
  if (name && Object.hasOwn(NAMED, name)) text = NAMED[name];
  return [[text ?? m[0], 0, m[0].length]];
}

const JSON_ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const jsonEscape = (m) => [[m[1] ? String.fromCharCode(parseInt(m[1], 16)) : JSON_ESCAPES[m[2]], 0, m[0].length]];

// Each decoding, with the character that must be in a text for it to change anything.
const DECODINGS = {
  percent: { mark: '%', run: (s) => decoded(s, /(?:%[0-9a-fA-F]{2})+/g, percentRun) },
  html: { mark: '&', run: (s) => decoded(s, /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([A-Za-z]{2,8}));/g, reference) },
  json: { mark: '\\', run: (s) => decoded(s, /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g, jsonEscape) },
};

// The chains tried, innermost decoding first: a URL in an attribute or a JSON string, JSON in an
// attribute or a URL, HTML in JSON, a URL inside a URL (a login's `next`).
const CHAINS = [
  [],
  ['percent'],
  ['html'],
  ['json'],
  ['percent', 'percent'],
  ['html', 'percent'],
  ['json', 'percent'],
  ['html', 'json'],
  ['json', 'html'],
  ['percent', 'json'],
  ['percent', 'html'],
];

// One space for each run of whitespace, and for `+` in a URL.
// (A single space is already what it would become, and left out of the pattern that finds them.)
const spaces = (url) => (url ? /[\s+]{2,}|[^\S ]|\+/g : /\s{2,}|[^\S ]/g);
const canonical = (s, url) => s.replace(spaces(url), ' ');

const oneSpace = (m) => [[' ', 0, m[0].length]];
const canonicalized = (r, url) => ({ ...further(r, decoded(r.text, spaces(url), oneSpace)), url });

// The texts the chains make of `text`, each with the span of `text` behind each code unit; none
// for a chain with a decoding that changes nothing (a shorter chain reads the same).
function readings(text) {
  // Each chain's decodings so far, by the chain's start: null where one changed nothing.
  const decodedBy = new Map([['', { text, span: (k) => [k, k + 1] }]]);
  const after = (chain) => {
    const key = chain.join(' ');
    if (!decodedBy.has(key)) {
      const r = after(chain.slice(0, -1));
      const decoding = DECODINGS[chain[chain.length - 1]];
      const next = r && r.text.includes(decoding.mark) ? decoding.run(r.text) : null;
      decodedBy.set(key, next?.pieces.length ? further(r, next) : null);
    }
    return decodedBy.get(key);
  };
  const made = [];
  for (const chain of CHAINS) {
    const r = after(chain);
    if (!r) continue;
    const url = chain.includes('percent');
    made.push(canonicalized(r, url));
  }
  // A form's value with spaces and no escape (`correct+horse+battery`) is a URL with nothing to
  // decode: read as one all the same.
  if (!decodedBy.get('percent') && text.includes('+')) made.push(canonicalized(decodedBy.get(''), true));
  return made;
}

// What is looked for of one secret in a reading: canonical as that reading is.
function target(value, url, run) {
  const whole = canonical(value, url).trim();
  if (whole.length < MIN_WHOLE) return null;
  if (whole.length < run) return { whole };
  const grams = new Set();
  for (let i = 0; i + run <= whole.length; i++) grams.add(whole.slice(i, i + run));
  return { whole, grams, chars: new Set(whole), run };
}

// The spans [start, end) of a reading's text that are the target: whole, or runs of it.
function spans(text, t) {
  const found = [];
  if (!t.grams) {
    for (let at = text.indexOf(t.whole); at >= 0; at = text.indexOf(t.whole, at + 1)) {
      found.push([at, at + t.whole.length]);
    }
    return found;
  }
  const run = t.run;
  for (let i = 0; i + run <= text.length; ) {
    // A window whose last character is in no run of the secret cannot start one before it.
    if (!t.chars.has(text[i + run - 1])) {
      i += run;
      continue;
    }
    if (t.grams.has(text.slice(i, i + run))) {
      const last = found[found.length - 1];
      if (last && last[1] >= i) last[1] = i + run;
      else found.push([i, i + run]);
    }
    i += 1;
  }
  return found;
}

// `spans` less the refs of `text`.
function sparingRefs(text, found) {
  const refs = [...text.matchAll(REF)].map((m) => [m.index, m.index + m[0].length]);
  return refs.reduce(
    (left, [a, b]) =>
      left.flatMap(([s, e, name]) => {
        if (e <= a || s >= b) return [[s, e, name]];
        return [...(s < a ? [[s, a, name]] : []), ...(e > b ? [[b, e, name]] : [])];
      }),
    found,
  );
}

// The text with each span [start, end, name] said as `[secret name]`; overlapping spans as one,
// named by the spans not inside another.
function replaced(text, found) {
  if (!found.length) return text;
  found.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  const out = [];
  let at = 0;
  let open = null;
  const close = () => {
    out.push(text.slice(at, open.start), open.names.map((n) => `[secret ${n}]`).join(''));
    at = open.end;
  };
  for (const [start, end, name] of found) {
    if (open && start <= open.end) {
      // A secret inside another's span is said by the other's name alone.
      if (end > open.end && !open.names.includes(name)) open.names.push(name);
      open.end = Math.max(open.end, end);
      continue;
    }
    if (open) close();
    open = { start, end, names: [name] };
  }
  close();
  out.push(text.slice(at));
  return out.join('');
}

// A function taking every secret of `secrets` ([value, name] pairs) out of a text: whole, and
// by any `run` characters of one in a row.
export function masker(secrets, run = MIN_RUN) {
  const targets = [];
  for (const [value, name] of secrets) {
    const plain = target(String(value), false, run);
    const url = target(String(value), true, run);
    if (plain || url) targets.push({ name, plain, url });
  }
  if (!targets.length) return (text) => text;
  return (text) => {
    if (typeof text !== 'string' || text.length < MIN_WHOLE || WHOLE_REF.test(text)) return text;
    const found = [];
    for (const r of readings(text)) {
      for (const t of targets) {
        const wanted = r.url ? t.url : t.plain;
        if (!wanted) continue;
        for (const [a, b] of spans(r.text, wanted)) found.push([r.span(a)[0], r.span(b - 1)[1], t.name]);
      }
    }
    return replaced(text, sparingRefs(text, found));
  };
}

// `value` (an answer's JSON value) with `text` applied to each of its strings, and to its keys
// too with `keys` (an answer's own keys are its structure; a script's may be anything).
export function mapStrings(value, text, keys = false) {
  const walk = (v) => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [keys ? text(k) : k, walk(x)]));
    }
    return v;
  };
  return walk(value);
}
