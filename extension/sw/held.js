// browser_eval's answer and the fields holding a secret filled by name (page/secrets.js). The
// agent's script may read such a field's value and cut it, slice it or edit it before it
// answers, and no whole-string mask knows a part: any run of MIN_RUN or more characters of a held
// value in the answer is said as `[secret NAME]` instead. A value shorter than that is left to
// its element (the reading tools show it by its length).
import { mapStrings, masker } from './masking.js';

export const MIN_RUN = 6;

// What the fields of the tab's frames hold: [{ name, values }], read before the script runs (it
// could empty a field, which lets it go).
export async function heldIn(tabId) {
  const func = () => globalThis.__tabpilot?.heldValues?.() ?? [];
  const frames = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func }).catch(() => []);
  return frames.flatMap((f) => (Array.isArray(f.result) ? f.result : []));
}

// `value` (an answer's JSON value) with the runs of every held value taken out of its strings,
// its keys included.
export function maskHeld(value, held) {
  const pairs = held.flatMap(({ name, values }) =>
    values.filter((v) => typeof v === 'string' && v.length >= MIN_RUN).map((v) => [v, name]),
  );
  if (!pairs.length) return value;
  return mapStrings(value, masker(pairs, MIN_RUN), true);
}
