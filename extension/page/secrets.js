// Page script (kit): the fields whose values are secrets (passwords, card numbers and security
// codes, and any field a secret was filled into by name). What the reading operations return
// shows such a value by its length only, and takes it out wherever the page reflects it (a value
// attribute a framework keeps in step, a mirror of what was typed). A default for the tools built
// for reading, not a boundary: script the page runs can read anything.
(() => {
  const T = globalThis.__tabpilot;
  if (T.isSecret) return;

  // A value shorter than this is not taken out of the rest of the page: it is too likely to be
  // ordinary text there ("2024", a ref's letters), and replacing it everywhere would both garble
  // the answer and point at the secret. The field's own value is hidden whatever its length. The
  // same floor as the service worker's (sw/masking.js, MIN_WHOLE).
  const MIN_REFLECTED = 6;

  // A password field, or one whose autocomplete says it holds a password or card secret.
  function isSecret(el) {
    const tag = el.localName;
    if (tag !== 'input' && tag !== 'textarea') return false;
    if (tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'password') return true;
    const tokens = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    return tokens.some((t) => t.endsWith('-password') || t === 'cc-number' || t === 'cc-csc');
  }

  // The fields a secret was filled into by name, with that secret ({ name, origins }): held in
  // this isolated world, which the page's scripts can neither read nor write. A field stays held
  // whatever its type, its length or what the page does to its value, until it is empty or the
  // agent writes a plain value into it (form.js, actions.js); a new document holds nothing.
  const held = new Map();
  const textOf = (el) => el.value ?? '';
  function heldBy(el) {
    const secret = held.get(el) || null;
    if (secret && !textOf(el)) {
      held.delete(el);
      return null;
    }
    return secret;
  }
  // Holds `el` for `secret`, filled with `value`, or lets it go (a plain value written over it).
  function hold(el, secret, value) {
    if (secret) held.set(el, { ...secret, value });
    else held.delete(el);
  }
  const heldFields = () => [...held.keys()].filter(heldBy);
  // What each held field holds: the value filled and the value now, by the secret's name (for
  // browser_eval's answer, which the service worker masks by them: sw/held.js).
  const heldValues = () =>
    heldFields().map((el) => ({ name: held.get(el).name, values: [...new Set([held.get(el).value, textOf(el)])] }));
  // Whether a reading tool shows the field's value by its length only.
  const masked = (el) => isSecret(el) || !!heldBy(el);

  const hidden = (value) => `••• (${[...value].length} chars, hidden)`;

  const escapeHtml = (s) =>
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      .replace(/\u00a0/g, '&nbsp;');

  // The secret values in this document, and how each may appear in text: as it is, as HTML
  // escapes it, as JSON quotes it. A secret field's value is said by its length, a held one's by
  // its secret's name, as the service worker says it. Longest first, so a secret holding a
  // shorter one goes whole.
  function secretForms() {
    const values = new Map(); // value -> how it is shown
    const add = (v, shown) => v && v.length >= MIN_REFLECTED && values.set(v, shown);
    T.walkElements(document.documentElement, (el) => {
      if (!isSecret(el)) return;
      for (const v of [el.value, el.defaultValue]) add(v, hidden(v || ''));
    });
    for (const h of heldValues()) for (const v of h.values) add(v, `[secret ${h.name}]`);
    return [...values]
      .sort(([a], [b]) => b.length - a.length)
      .flatMap(([v, shown]) => [...new Set([v, escapeHtml(v), JSON.stringify(v).slice(1, -1)])].map((f) => [f, shown]));
  }

  // A function that takes every secret value of this document out of a text, read once.
  function scrubber() {
    const forms = secretForms();
    return (text) => forms.reduce((out, [form, shown]) => out.split(form).join(shown), text);
  }

  // `text` with the secret values taken out by this moment's scrubber, made once for the
  // synchronous run it is asked in (a snapshot's walk) and dropped after it.
  let current = null;
  function scrubText(text) {
    if (!current) {
      current = scrubber();
      Promise.resolve().then(() => (current = null));
    }
    return current(text);
  }

  // An element's HTML with each secret field's value attribute (a textarea's text) hidden, and
  // its secret values taken out of the rest. The fields are hidden in a copy made in a document
  // of its own, which loads and runs nothing.
  function htmlOf(el) {
    const scrub = scrubber();
    const fieldsOf = (root) => [
      ...(root.matches('input, textarea') ? [root] : []),
      ...root.querySelectorAll('input, textarea'),
    ];
    const fields = fieldsOf(el);
    if (!fields.some(masked)) return scrub(el.outerHTML);
    const copy = document.implementation.createHTMLDocument('').importNode(el, true);
    const copies = fieldsOf(copy);
    fields.forEach((field, i) => {
      if (!masked(field)) return;
      const twin = copies[i];
      if (twin.hasAttribute('value')) twin.setAttribute('value', hidden(twin.getAttribute('value')));
      if (twin.localName === 'textarea' && twin.textContent) twin.textContent = hidden(twin.textContent);
    });
    return scrub(copy.outerHTML);
  }

  // A secret filled by name goes only into a document of one of its origins: judged here, in the
  // field's own frame, at the moment of the fill. This world's `location` is the document's own,
  // whatever the page's scripts did to theirs.
  function refuseSecret(secret) {
    if (!secret) return;
    const url = location.href;
    if (secret.origins.some((o) => new RegExp(o.regex).test(url))) return;
    const origins = secret.origins.map((o) => o.pattern).join(', ');
    throw new T.Refusal(
      'SECRET_ORIGIN_MISMATCH',
      `the secret ${secret.name} is for ${origins}, not ${location.origin}: nothing was filled ` +
        '(this may be a look-alike page: stop and tell the person)',
    );
  }

  Object.assign(T, { isSecret, heldBy, hold, heldFields, heldValues, masked });
  Object.assign(T, { hidden, scrubber, scrubText, htmlOf, refuseSecret });
})();
