// Secrets filled by name, kept out of every answer. The value of each secret an agent filled is
// held here (and in the browser's session storage, which lives in memory, so a restarted worker
// still knows it); every answer this worker sends has it taken out as `[secret NAME]`, in any
// encoding a browser writes it (masking.js), whichever tab or tool it comes from: a page that
// shows the value, echoes it into its DOM or console, puts it in a request's URL or submits it in
// a GET form gives the agent only the name. Values too short to find as text are left to their
// element's own marking (page/secrets.js).
import { mapStrings, masker } from './masking.js';

const KEY = 'filledSecrets';
const filled = new Map(); // value -> name
let mask = masker([]); // made when the values change, not for each answer
const loaded = chrome.storage.session
  .get(KEY)
  .then((got) => {
    for (const [value, name] of Object.entries(got[KEY] || {})) filled.set(value, name);
    mask = masker(filled);
  })
  .catch(() => {});

// Notes the secrets a call fills (browser_type's `secret`, browser_fill_form's fields'), before
// it runs: what the page does with them during the call is taken out of its answer too.
export async function noteFills(args) {
  const fills = [
    ...(args.secret ? [[args.secret.name, args.text]] : []),
    ...(args.fields || []).filter((f) => f.secret).map((f) => [f.secret.name, String(f.value)]),
  ];
  if (!fills.length) return;
  await loaded;
  for (const [name, value] of fills) if (value) filled.set(value, name);
  mask = masker(filled);
  await chrome.storage.session.set({ [KEY]: Object.fromEntries(filled) }).catch(() => {});
}

// Whether any secret was filled by name in this browser's session: until one is, no field
// holds one, and nothing need ask the pages which do (held.js, capture.js).
export async function anyFilled() {
  await loaded;
  return filled.size > 0;
}

// `value` with every filled secret taken out of its strings. Object keys are left as they are:
// they are the answer's structure.
export async function scrub(value) {
  await loaded;
  return filled.size ? mapStrings(value, mask) : value;
}
