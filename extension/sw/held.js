// browser_eval's answer and the fields holding a secret filled by name (page/secrets.js). The
// agent's script may read such a field's value and cut it, slice it or edit it before it
// answers, and no whole-string mask knows a part: any run of MIN_RUN or more characters of a held
// value in the answer is said as `[secret NAME]` instead. A value shorter than that is left to
// its element (the reading tools show it by its length).
export const MIN_RUN = 6;

// What the fields of the tab's frames hold: [{ name, values }], read before the script runs (it
// could empty a field, which lets it go).
export async function heldIn(tabId) {
  const func = () => globalThis.__tabpilot?.heldValues?.() ?? [];
  const frames = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func }).catch(() => []);
  return frames.flatMap((f) => (Array.isArray(f.result) ? f.result : []));
}

// `text` with each run of MIN_RUN or more characters of `value` as `shown`.
function maskRuns(text, value, shown) {
  const grams = new Set();
  for (let i = 0; i + MIN_RUN <= value.length; i++) grams.add(value.slice(i, i + MIN_RUN));
  const covered = new Uint8Array(text.length);
  let any = false;
  for (let i = 0; i + MIN_RUN <= text.length; i++) {
    if (!grams.has(text.slice(i, i + MIN_RUN))) continue;
    covered.fill(1, i, i + MIN_RUN);
    any = true;
  }
  if (!any) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (!covered[i]) out += text[i];
    else if (i === 0 || !covered[i - 1]) out += shown;
  }
  return out;
}

// `value` (an answer's JSON value) with the runs of every held value taken out of its strings,
// its keys included.
export function maskHeld(value, held) {
  const masks = held.flatMap(({ name, values }) =>
    values.filter((v) => typeof v === 'string' && v.length >= MIN_RUN).map((v) => [v, `[secret ${name}]`]),
  );
  if (!masks.length) return value;
  const text = (s) => masks.reduce((out, [v, shown]) => maskRuns(out, v, shown), s);
  const walk = (v) => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
    return v;
  };
  return walk(value);
}
