// Page script: pressing a key on the focused element. Synthetic key events do nothing by
// themselves (no text, no focus move, no submit), so the default action a real key press has is
// done here when the page did not cancel the keydown, and the answer says what it was.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.press) return;
  const { describeEl, visible, walkElements, setNativeValue, fire } = T;

  const { codeOf, keyCodeOf } = T;

  const focused = () => T.focused();

  const TEXT_INPUT = /^(text|search|email|url|tel|password|number)$/;
  const isTextField = (el) => el.localName === 'textarea' || (el.localName === 'input' && TEXT_INPUT.test(el.type));

  // Elements Tab visits, in order: positive tabindex first, then document order (into open shadow
  // roots; frames are not entered). A radio group is one stop, at its checked radio.
  function tabOrder() {
    const all = [];
    walkElements(document.documentElement, (el) => {
      if (el.tabIndex < 0 || el.localName === 'iframe' || el.matches(':disabled')) return;
      if (el.closest('[inert]') || !visible(el)) return;
      if (el.localName === 'input' && el.type === 'radio' && el.name && !el.checked) {
        const group = Array.from(el.getRootNode().querySelectorAll(`input[type=radio][name="${CSS.escape(el.name)}"]`));
        if (group.some((r) => r.checked) || group[0] !== el) return;
      }
      all.push(el);
    });
    const positive = all.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
    return [...positive, ...all.filter((e) => e.tabIndex === 0)];
  }

  function moveFocus(from, back) {
    const order = tabOrder();
    if (!order.length) return null;
    const at = order.indexOf(from);
    const next =
      at < 0 ? order[back ? order.length - 1 : 0] : order[(at + (back ? -1 : 1) + order.length) % order.length];
    T.focusOn(next);
    if (isTextField(next) && next.select) next.select();
    return `focus moved to ${describeEl(next)}`;
  }

  // Edits a text field as a key would: insert at the caret (replacing a selection) or delete
  // around it, with beforeinput and input. Email and number fields have no caret API: the end.
  function editField(el, op, text = '') {
    const v = el.value;
    let s = null;
    let e = null;
    try {
      s = el.selectionStart;
      e = el.selectionEnd;
    } catch (_) {}
    if (s === null) s = e = v.length;
    let next;
    let caret = s;
    let inputType;
    if (op === 'insert') {
      next = v.slice(0, s) + text + v.slice(e);
      caret = s + text.length;
      inputType = text === '\n' ? 'insertLineBreak' : 'insertText';
    } else if (s !== e) {
      next = v.slice(0, s) + v.slice(e);
      inputType = op === 'back' ? 'deleteContentBackward' : 'deleteContentForward';
    } else if (op === 'back') {
      if (s === 0) return null;
      next = v.slice(0, s - 1) + v.slice(s);
      caret = s - 1;
      inputType = 'deleteContentBackward';
    } else {
      if (s === v.length) return null;
      next = v.slice(0, s) + v.slice(s + 1);
      inputType = 'deleteContentForward';
    }
    const data = op === 'insert' ? text : null;
    if (!fire(el, 'beforeinput', { inputType, data })) return null;
    setNativeValue(el, next);
    try {
      el.setSelectionRange(caret, caret);
    } catch (_) {}
    fire(el, 'input', { inputType, data });
    return op === 'insert' ? `typed ${JSON.stringify(text)}` : 'deleted text';
  }

  const ACTIVATES =
    'button, a[href], summary, [role=button], [role=link], ' +
    'input[type=submit], input[type=button], input[type=reset], input[type=image]';

  // What a real press of `key` does to `el` after an uncancelled keydown (an editable element's
  // keys are typing.js's).
  function defaultAction(el, key, m, typed) {
    const field = isTextField(el) && !el.readOnly;
    if (key === 'Tab') return moveFocus(el, m.shiftKey);
    if ((m.ctrlKey || m.metaKey) && key.toLowerCase() === 'a') {
      if (field) el.select();
      else getSelection().selectAllChildren(document.body);
      return 'selected all text';
    }
    if (typed) {
      if (field) return editField(el, 'insert', key);
      if (key === ' ' && el.matches('input[type=checkbox], input[type=radio], ' + ACTIVATES)) {
        el.click();
        return `activated ${describeEl(el)}`;
      }
      return null;
    }
    if (key === 'Backspace' || key === 'Delete') {
      if (field) return editField(el, key === 'Backspace' ? 'back' : 'forward');
      return null;
    }
    if (key === 'Enter') {
      if (el.localName === 'textarea' && !el.readOnly) return editField(el, 'insert', '\n');
      if (el.matches(ACTIVATES)) {
        el.click();
        return `activated ${describeEl(el)}`;
      }
      if (el.localName === 'input' && el.form) {
        // Implicit submission: through the form's default button when it has one, as browsers do.
        const button = T.defaultButton(el.form);
        if (button) button.click();
        else el.form.requestSubmit();
        return 'submitted the form';
      }
      return null;
    }
    if (el.localName === 'select' && !el.multiple && (key === 'ArrowDown' || key === 'ArrowUp')) {
      const step = key === 'ArrowDown' ? 1 : -1;
      let i = el.selectedIndex + step;
      while (el.options[i]?.disabled) i += step;
      if (!el.options[i]) return null;
      el.selectedIndex = i;
      fire(el, 'input');
      fire(el, 'change');
      return `selected ${JSON.stringify(el.options[i].textContent.trim())}`;
    }
    if (field && ['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(key)) {
      try {
        const len = el.value.length;
        const at = {
          ArrowLeft: Math.max(0, el.selectionStart - 1),
          ArrowRight: Math.min(len, el.selectionEnd + 1),
          Home: 0,
          End: len,
        }[key];
        el.setSelectionRange(at, at);
        return 'moved the caret';
      } catch (_) {
        return null;
      }
    }
    return null;
  }

  // A key as real input sends it (sw/input.js; page/actions.js types with it too): its code,
  // key code, and the text it makes (none under a shortcut).
  function keySpec(key, modifiers = []) {
    const chord = modifiers.some((m) => m !== 'Shift');
    const text = key === 'Enter' ? '\r' : [...key].length === 1 && !chord ? key : undefined;
    return { key, code: codeOf(key), keyCode: keyCodeOf(key), text, modifiers };
  }

  // What a real key press did, read from the events it made: the page cancelling it, a form
  // submitted, an element activated, an edit; the focus moving is read after.
  function effects() {
    let effect = null;
    const listeners = {
      keydown: (e) => e.defaultPrevented && (effect ??= 'the page cancelled the keydown'),
      submit: () => (effect = 'submitted the form'),
      click: (e) => (effect ??= `activated ${describeEl(e.target)}`),
      input: (e) => {
        effect ??= e.inputType?.startsWith('delete') ? 'deleted text' : `typed ${JSON.stringify(e.data ?? '\n')}`;
      },
    };
    // The page's own handlers on the element run first: bubbling, the window hears last.
    for (const [type, fn] of Object.entries(listeners)) addEventListener(type, fn, type === 'submit');
    return () => {
      for (const [type, fn] of Object.entries(listeners)) removeEventListener(type, fn, type === 'submit');
      return effect;
    };
  }

  async function pressReal(trusted, key, modifiers, el) {
    const seen = effects();
    let effect;
    try {
      await T.real(trusted, { kind: 'keys', keys: [keySpec(key, modifiers)] });
    } finally {
      effect = seen();
    }
    const now = focused();
    return now !== el && !effect ? `focus moved to ${describeEl(now)}` : effect;
  }

  async function press({ key, modifiers = [], trusted, dispatch }) {
    const m = {
      altKey: modifiers.includes('Alt'),
      ctrlKey: modifiers.includes('Control'),
      metaKey: modifiers.includes('Meta'),
      shiftKey: modifiers.includes('Shift'),
    };
    // A letter reads as the keyboard would give it: upper case with Shift, lower case otherwise
    // under a shortcut ("Control+A" is key "a").
    if (/^[a-z]$/i.test(key)) {
      key = m.shiftKey ? key.toUpperCase() : m.ctrlKey || m.metaKey || m.altKey ? key.toLowerCase() : key;
    }
    const el = focused();
    // A field holding a secret takes no edit; a form holding one submits only to its origins.
    T.refuseEdit(el, key);
    if (key === 'Enter' || key === ' ') T.judgeSubmit(T.submissionBy(el, key === 'Enter'));
    const nav = T.watchNavigate(dispatch, el);
    const effect = trusted ? await pressReal(trusted, key, modifiers, el) : pressSynthetic(el, key, m);
    return {
      element: describeEl(el),
      effect,
      focused: describeEl(focused()),
      retagged: false,
      navigation: await nav(),
    };
  }

  // Key events the page can tell from a person's (`isTrusted` false), and the default action a
  // real press would have had, done here; what that was.
  function pressSynthetic(el, key, m) {
    // In an editable element a key edits (typing.js); Tab still moves the focus on from it.
    if (T.editable(el) && key !== 'Tab') return T.pressInEditable(el, key, m);
    const init = {
      key,
      code: codeOf(key),
      keyCode: keyCodeOf(key),
      which: keyCodeOf(key),
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
      ...m,
    };
    const typed = key.length === 1 && !m.ctrlKey && !m.metaKey && !m.altKey;
    let effect = null;
    if (el.dispatchEvent(new KeyboardEvent('keydown', init))) {
      // keypress only for keys that make a character (and Enter), as browsers send it.
      const pressOk =
        typed || key === 'Enter'
          ? el.dispatchEvent(
              new KeyboardEvent('keypress', { ...init, charCode: key === 'Enter' ? 13 : key.charCodeAt(0) }),
            )
          : true;
      if (pressOk) effect = defaultAction(el, key, m, typed);
    } else effect = 'the page cancelled the keydown';
    // The key comes up wherever the focus is now (after a Tab, the next element).
    focused().dispatchEvent(new KeyboardEvent('keyup', init));
    return effect;
  }

  T.ops.press = press;
  T.keySpec = keySpec;
})();
