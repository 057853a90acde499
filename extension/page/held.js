// Page script (kit): what a field holding a secret filled by name (secrets.js's `heldBy`) does
// not let the agent do. A key that would edit it in place (Backspace, the arrows, a letter) is
// refused: what it left would be part of the secret, which no string mask can recognize; the
// agent replaces the whole value (browser_type, browser_fill_form) or empties it (browser_clear).
// A form holding it is submitted only to one of the secret's origins. A screenshot sees it
// veiled, as a password field is drawn.
(() => {
  const T = globalThis.__tabpilot;
  if (T.refuseEdit) return;
  const { Refusal, describeEl } = T;

  // Keys that leave a held field's value as it is: moving on, submitting (judged), dismissing. In
  // a textarea, Enter makes a line.
  const LEAVES = new Set(['Tab', 'Enter', 'Escape']);

  function refuseEdit(el, key) {
    const secret = T.heldBy(el);
    if (!secret || (LEAVES.has(key) && !(key === 'Enter' && el.localName === 'textarea'))) return;
    throw new Refusal(
      'BAD_ARGS',
      `${describeEl(el)} holds the secret ${secret.name}: a key there (${key}) could leave part of it ` +
        'in the field, so keys other than Tab, Enter (in an input) and Escape are refused there; browser_type ' +
        'replaces the whole value, browser_clear empties it',
    );
  }

  const SUBMITS = 'button:not([type]), button[type=submit], input[type=submit], input[type=image]';

  // The button an Enter in one of the form's fields presses: the form's first submit button.
  const defaultButton = (form) => [...form.elements].find((e) => e.matches(SUBMITS)) || null;

  // The form a click or key on `el` submits, and its submitter: a submit button (or what is inside
  // one) submits its form; with `implicit` (Enter), an input submits its own. Null for neither.
  function submissionBy(el, implicit = false) {
    const button = el.closest?.('button, input[type=submit], input[type=image]');
    if (button?.matches(SUBMITS) && button.form) return { form: button.form, submitter: button };
    if (implicit && el.localName === 'input' && el.form) return { form: el.form, submitter: defaultButton(el.form) };
    return null;
  }

  // Where the submission goes: the submitter's formaction, else the form's action; null for a
  // dialog form, which sends nothing.
  function targetOf({ form, submitter }) {
    const method = submitter?.getAttribute('formmethod') ? submitter.formMethod : form.method;
    if (method === 'dialog') return null;
    return submitter?.getAttribute('formaction') ? submitter.formAction : form.action;
  }

  const originOf = (url) => {
    try {
      return new URL(url).origin;
    } catch (_) {
      return url;
    }
  };

  // Refuses a submission that would send a secret the form holds to none of its origins. `pending`
  // is the field being written in the same call and what it will hold (a secret, or null).
  function judgeSubmit(submission, pending = null) {
    if (!submission) return;
    const url = targetOf(submission);
    if (url === null) return;
    for (const field of submission.form.elements) {
      const secret = pending?.el === field ? pending.secret : T.heldBy(field);
      if (!secret || secret.origins.some((o) => new RegExp(o.regex).test(url))) continue;
      const origins = secret.origins.map((o) => o.pattern).join(', ');
      throw new Refusal(
        'SECRET_ORIGIN_MISMATCH',
        `the form holding the secret ${secret.name} (in ${describeEl(field)}) would send it to ` +
          `${originOf(url)}, and it is for ${origins}: nothing was submitted (the page may be ` +
          'sending it elsewhere: stop and tell the person)',
      );
    }
  }

  // A screenshot's veil: each held field of this document drawn as a password field is (its
  // characters as discs) while `on`, its own style put back after. How many were veiled, once the
  // page has drawn them so (a frame drawn, or 100 ms where the tab draws none: in the background).
  const veiled = new Map(); // el -> [value, priority] of its own -webkit-text-security
  const PROP = '-webkit-text-security';
  async function veil(on) {
    for (const [el, [value, priority]] of veiled) el.style.setProperty(PROP, value, priority);
    veiled.clear();
    if (!on) return 0;
    for (const el of T.heldFields()) {
      veiled.set(el, [el.style.getPropertyValue(PROP), el.style.getPropertyPriority(PROP)]);
      el.style.setProperty(PROP, 'disc', 'important');
    }
    if (veiled.size) {
      const drawn = new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      await Promise.race([drawn, T.sleep(100)]);
    }
    return veiled.size;
  }

  // Runs `fn`, which matches a selector the agent gave, with the value attribute of each secret or
  // held input taken off (a framework may keep it in step with the value), so no selector
  // (`[value^="a"]`, `form:has(...)`) tests the value a character at a time; put back after, in
  // the same task.
  function unvalued(fn) {
    const taken = [];
    T.walkElements(document.documentElement, (el) => {
      if (el.localName !== 'input' || !el.hasAttribute('value') || !T.masked(el)) return;
      taken.push([el, el.getAttribute('value')]);
    });
    for (const [el] of taken) el.removeAttribute('value');
    try {
      return fn();
    } finally {
      for (const [el, value] of taken) el.setAttribute('value', value);
    }
  }

  Object.assign(T, { unvalued, refuseEdit, submissionBy, defaultButton, judgeSubmit, veil });
})();
