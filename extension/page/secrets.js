// Page script (kit): the fields whose values are secrets (passwords, card numbers and security
// codes). What the reading operations return shows such a value by its length only, and takes
// it out wherever the page reflects it (a value attribute a framework keeps in step, a mirror of
// what was typed). A default for the tools built for reading, not a boundary: script the page
// runs can read anything.
(() => {
  const T = globalThis.__tabpilot;
  if (T.isSecret) return;

  // A value shorter than this is not taken out of the rest of the page: it is too likely to be
  // ordinary text there ("123"). The field's own value is hidden whatever its length.
  const MIN_REFLECTED = 4;

  // A password field, or one whose autocomplete says it holds a password or card secret.
  function isSecret(el) {
    const tag = el.localName;
    if (tag !== 'input' && tag !== 'textarea') return false;
    if (tag === 'input' && (el.getAttribute('type') || '').toLowerCase() === 'password') return true;
    const tokens = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
    return tokens.some((t) => t.endsWith('-password') || t === 'cc-number' || t === 'cc-csc');
  }

  const hidden = (value) => `••• (${[...value].length} chars, hidden)`;

  const escapeHtml = (s) =>
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
      .replace(/\u00a0/g, '&nbsp;');

  // The secret values in this document, and how each may appear in text: as it is, as HTML
  // escapes it, as JSON quotes it. Longest first, so a secret holding a shorter one goes whole.
  function secretForms() {
    const values = new Set();
    T.walkElements(document.documentElement, (el) => {
      if (!isSecret(el)) return;
      for (const v of [el.value, el.defaultValue]) if (v && v.length >= MIN_REFLECTED) values.add(v);
    });
    return [...values]
      .sort((a, b) => b.length - a.length)
      .flatMap((v) => [...new Set([v, escapeHtml(v), JSON.stringify(v).slice(1, -1)])].map((f) => [f, hidden(v)]));
  }

  // A function that takes every secret value of this document out of a text, read once.
  function scrubber() {
    const forms = secretForms();
    return (text) => forms.reduce((out, [form, shown]) => out.split(form).join(shown), text);
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
    if (!fields.some(isSecret)) return scrub(el.outerHTML);
    const copy = document.implementation.createHTMLDocument('').importNode(el, true);
    const copies = fieldsOf(copy);
    fields.forEach((field, i) => {
      if (!isSecret(field)) return;
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

  Object.assign(T, { isSecret, hidden, scrubber, htmlOf, refuseSecret });
})();
