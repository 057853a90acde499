// Secrets filled by name, kept out of every answer. The value of each secret an agent filled is
// held here (and in the browser's session storage, which lives in memory, so a restarted worker
// still knows it); every answer this worker sends has it taken out, as written, HTML-escaped,
// URL-encoded and JSON-quoted, as `[secret NAME]`, whichever tab or tool it comes from: a page
// that shows the value, echoes it into its DOM or console, or puts it in a request's URL gives
// the agent only the name.
const KEY = 'filledSecrets';
const filled = new Map(); // value -> name
let shown = []; // [form, `[secret NAME]`] for every form of every value in `filled`
const loaded = chrome.storage.session
  .get(KEY)
  .then((got) => {
    for (const [value, name] of Object.entries(got[KEY] || {})) filled.set(value, name);
    shown = forms();
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
  shown = forms();
  await chrome.storage.session.set({ [KEY]: Object.fromEntries(filled) }).catch(() => {});
}

// How HTML may write a value: in text (& < >), in an attribute as browsers serialize them (& ",
// and lately < > too), and fully escaped.
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escaped = (s, chars) => s.replace(new RegExp(`[${chars}]`, 'g'), (c) => ESCAPES[c]);
const htmlForms = (s) => ['&<>', '&"', '&"<>', '&<>"\''].map((chars) => escaped(s, chars));

// Each form a value may take in text, longest value first, so a secret holding a shorter one goes
// whole: made when the values change, not for each answer.
function forms() {
  return [...filled]
    .sort(([a], [b]) => b.length - a.length)
    .flatMap(([value, name]) => {
      const url = encodeURIComponent(value);
      const plain = [value, ...htmlForms(value), url, url.replace(/%20/g, '+')];
      const all = new Set([...plain, ...plain.map((f) => JSON.stringify(f).slice(1, -1))]);
      return [...all].map((form) => [form, `[secret ${name}]`]);
    });
}

// `value` with every filled secret taken out of its strings.
export async function scrub(value) {
  await loaded;
  if (!shown.length) return value;
  const walk = (v) => {
    if (typeof v === 'string') return shown.reduce((out, [form, name]) => out.split(form).join(name), v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}
