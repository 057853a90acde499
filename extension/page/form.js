// Page script: form fields. fill_form's check and write halves, select, clear and file upload.
// Values go through the prototype's setter and the events a real edit makes, so frameworks that
// track inputs (React) see them.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.formCheck) return;
  const { Refusal, squash, cut, resolve, describeEl, actionable, visible, setNativeValue, fire } = T;

  const NOT_TEXT = new Set(['button', 'submit', 'reset', 'image', 'hidden']);

  // What kind of field the element is, as fill_form sees it; null for anything else.
  function kindOf(el) {
    if (el.localName === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (type === 'checkbox' || type === 'radio' || type === 'file') return type;
      return NOT_TEXT.has(type) ? null : 'text';
    }
    if (el.localName === 'textarea') return 'text';
    if (el.localName === 'select') return 'select';
    if (T.editable(el)) return 'editable';
    return null;
  }

  const TRUE = new Set(['true', 'yes', 'on', 'checked', '1']);
  const FALSE = new Set(['false', 'no', 'off', 'unchecked', '0']);

  function toBool(value) {
    if (typeof value === 'boolean') return value;
    const v = String(value).trim().toLowerCase();
    if (TRUE.has(v)) return true;
    if (FALSE.has(v)) return false;
    return null;
  }

  function optionLabel(o) {
    return squash(o.label || o.textContent);
  }

  function listOptions(select) {
    const all = Array.from(select.options).filter((o) => o.value !== '' || optionLabel(o));
    const shown = all.slice(0, 20).map((o) => `${JSON.stringify(optionLabel(o))} (${JSON.stringify(o.value)})`);
    return shown.join(', ') + (all.length > 20 ? `, and ${all.length - 20} more` : '');
  }

  // An option by its value, else by its label (trimmed, then case-insensitive).
  function findOption(select, wanted) {
    const opts = Array.from(select.options);
    const w = squash(wanted);
    return (
      opts.find((o) => o.value === wanted) ||
      opts.find((o) => optionLabel(o) === w) ||
      opts.find((o) => optionLabel(o).toLowerCase() === w.toLowerCase()) ||
      null
    );
  }

  // Why the element cannot take the value, checked before anything is written; null when it can.
  // Checkbox and radio values are judged per field when written.
  function refuseValue(el, kind, value) {
    const what = describeEl(el);
    // A secret field's value is not said back, even in a refusal.
    const said = (v) => (T.isSecret(el) ? T.hidden(String(v)) : JSON.stringify(typeof v === 'string' ? cut(v, 40) : v));
    if (!kind) return { code: 'NOT_ACTIONABLE', message: `${what} is not a form field` };
    if (kind === 'file') return { code: 'BAD_ARGS', message: `${what} is a file input; use browser_upload_file` };
    if (kind === 'checkbox' || kind === 'radio') return null;
    if (typeof value !== 'string') {
      return { code: 'BAD_ARGS', message: `${what} takes a string, not ${said(value)}` };
    }
    if (el.readOnly) return { code: 'NOT_ACTIONABLE', message: `${what} is read-only` };
    if (kind === 'select' && !findOption(el, value)) {
      return {
        code: 'BAD_ARGS',
        message: `${what} has no option ${JSON.stringify(value)}; the options are ${listOptions(el)}`,
      };
    }
    if (kind === 'text' && el.localName === 'input' && value.trim() !== '') {
      // The browser would sanitize a value its type cannot hold (letters in a number) to ''.
      const probe = document.createElement('input');
      probe.type = el.type;
      probe.value = value;
      if (probe.value === '') {
        return { code: 'BAD_ARGS', message: `${what} (type ${el.type}) cannot hold ${said(value)}` };
      }
    }
    return null;
  }

  // A secret is held by its field (secrets.js), which only an input or a textarea is.
  function refuseHolder(el, kind, secret) {
    if (!secret || kind === 'text') return null;
    const message = `${describeEl(el)} is not an input or a textarea: a secret goes only there`;
    return { code: 'NOT_ACTIONABLE', message };
  }

  // fill_form's first half: every field of this frame resolved and judged, nothing written.
  function formCheck({ fields }) {
    return {
      fields: fields.map(({ i, ref, value, secret }) => {
        let el;
        try {
          el = resolve(ref).el;
          T.refuseSecret(secret);
        } catch (e) {
          return { i, error: { code: e.code || 'INTERNAL', message: e.message } };
        }
        const kind = kindOf(el);
        const error = refuseValue(el, kind, value) || refuseHolder(el, kind, secret);
        // Hidden or disabled now is not refused here: an earlier field may reveal it.
        const waiting = !visible(el) || el.matches(':disabled');
        return { i, element: describeEl(el), kind, waiting, ...(error ? { error } : {}) };
      }),
    };
  }

  function setChecked(el, want) {
    if (el.checked === want) return false;
    if (want || el.type === 'checkbox') {
      // A click toggles it as a person would, with click, input and change (React listens to click).
      el.click();
    } else {
      // A radio cannot be clicked off; clear it and say so with the events a change makes.
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked').set.call(el, false);
      fire(el, 'input');
      fire(el, 'change');
    }
    if (el.checked !== want) {
      throw new Refusal(
        'NOT_ACTIONABLE',
        `${describeEl(el)} stayed ${el.checked ? 'checked' : 'unchecked'}: the page undid the change`,
      );
    }
    return true;
  }

  function setText(el, value) {
    if (el.value === value) return false;
    T.focusOn(el);
    setNativeValue(el, value);
    fire(el, 'input', { inputType: 'insertReplacementText', data: value });
    fire(el, 'change');
    return true;
  }

  // An editable element (a rich-text editor's) takes keys as typing does (typing.js).
  async function setEditable(el, value) {
    if ((el.editContext ? T.editableText(el) : el.textContent) === value) return false;
    await T.typeInto(el, value);
    return true;
  }

  function setSelected(el, wanted) {
    const same = el.options.length && wanted.length === el.selectedOptions.length && wanted.every((o) => o.selected);
    if (same) return false;
    for (const o of el.options) o.selected = wanted.includes(o);
    fire(el, 'input');
    fire(el, 'change');
    return true;
  }

  async function fillOne(el, value) {
    const kind = kindOf(el);
    const refusal = refuseValue(el, kind, value);
    if (refusal) throw new Refusal(refusal.code, refusal.message);
    if (kind === 'checkbox' || kind === 'radio') {
      const want = toBool(value);
      if (want === null) {
        throw new Refusal(
          'BAD_ARGS',
          `${describeEl(el)} is a ${kind}: give true or false (or yes/no, on/off, checked/unchecked, 1/0), ` +
            `not ${JSON.stringify(value)}`,
        );
      }
      await actionable(el, 'input');
      return setChecked(el, want);
    }
    await actionable(el, 'input');
    if (kind === 'select') return setSelected(el, [findOption(el, value)]);
    if (kind === 'editable') return setEditable(el, value);
    return setText(el, value);
  }

  // fill_form's second half: this frame's fields in order, each one's outcome reported.
  async function formFill({ fields }) {
    const out = [];
    for (const { i, ref, value, secret } of fields) {
      let el = null;
      try {
        el = resolve(ref).el;
        T.refuseSecret(secret);
        const refusal = refuseHolder(el, kindOf(el), secret);
        if (refusal) throw new Refusal(refusal.code, refusal.message);
        const changed = await fillOne(el, value);
        if (kindOf(el) === 'text') T.hold(el, secret, value);
        out.push({ i, element: describeEl(el), outcome: changed ? 'filled' : 'unchanged' });
      } catch (e) {
        const error = { code: e.code || 'INTERNAL', message: e.code ? e.message : `page script: ${e?.message || e}` };
        out.push({ i, element: el ? describeEl(el) : undefined, outcome: 'failed', error });
      }
    }
    return { fields: out };
  }

  async function select({ ref, values, dispatch }) {
    const { el, retagged } = resolve(ref);
    if (el.localName !== 'select') {
      throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is not a <select>; click the option instead`);
    }
    if (values.length > 1 && !el.multiple) {
      throw new Refusal('BAD_ARGS', `${describeEl(el)} takes one option, not ${values.length}`);
    }
    const wanted = values.map((v) => {
      const o = findOption(el, v);
      if (!o) {
        throw new Refusal(
          'BAD_ARGS',
          `${describeEl(el)} has no option ${JSON.stringify(v)}; the options are ${listOptions(el)}`,
        );
      }
      return o;
    });
    await actionable(el, 'input', dispatch);
    const changed = setSelected(el, wanted);
    return { element: describeEl(el), retagged, selected: wanted.map(optionLabel), changed };
  }

  async function clear({ ref, dispatch }) {
    const { el, retagged } = resolve(ref);
    const kind = kindOf(el);
    if (kind !== 'text' && kind !== 'editable') {
      throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is not a text field`);
    }
    if (el.readOnly) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is read-only`);
    await actionable(el, 'input', dispatch);
    let changed;
    if (kind === 'editable') changed = await setEditable(el, '');
    else {
      changed = el.value !== '';
      if (changed) {
        T.focusOn(el);
        setNativeValue(el, '');
        fire(el, 'input', { inputType: 'deleteContentBackward' });
        fire(el, 'change');
      }
      T.hold(el, null);
    }
    return { element: describeEl(el), retagged, changed };
  }

  // Parts of big uploads, held until the upload call that uses them: token -> file -> [base64].
  const staged = new Map();

  function uploadPart({ upload, file, data }) {
    if (!staged.has(upload)) {
      staged.clear(); // one upload at a time: drop the parts of one that never finished
      staged.set(upload, []);
    }
    const files = staged.get(upload);
    (files[file] ||= []).push(data);
    return { staged: data.length };
  }

  // Files arrive as base64 (inline, or staged in parts) with a name and type; the page gets File
  // objects through a DataTransfer, the one way a script may set `input.files`.
  async function upload({ ref, upload: token, files, secrets = [] }) {
    const parts = staged.get(token);
    staged.delete(token);
    const { el, retagged } = resolve(ref);
    for (const secret of secrets) T.refuseSecret(secret);
    if (kindOf(el) !== 'file') throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is not a file input`);
    if (files.length > 1 && !el.multiple) {
      throw new Refusal('BAD_ARGS', `${describeEl(el)} takes one file, not ${files.length}`);
    }
    // File inputs are often hidden behind a styled label, so only enabled is required.
    if (el.matches(':disabled')) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is disabled`);
    const dt = new DataTransfer();
    for (const [i, f] of files.entries()) {
      const b64 = f.data ?? parts?.[i]?.join('');
      if (b64 === undefined) {
        throw new Refusal('STALE_REF', 'the page was replaced while the files were sent; nothing was set');
      }
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
      dt.items.add(new File([bytes], f.name, { type: f.mime }));
    }
    el.files = dt.files;
    fire(el, 'input');
    fire(el, 'change');
    return {
      element: describeEl(el),
      retagged,
      files: Array.from(el.files).map((f) => ({ name: f.name, size: f.size })),
    };
  }

  Object.assign(T.ops, { formCheck, formFill, select, clear, upload, uploadPart });
  T.kindOf = kindOf;
})();
