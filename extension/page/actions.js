// Page script: actions on elements (click, type) and the viewport.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.click) return;
  const { Refusal, squash, cut, role, name, labelledBy, visible, tagAll, resolve, fieldValue, describeEl, actionable, MAX_NODES, NAME_MAX, LANDMARKS } = T;

  // Notes a navigation the action starts, through the Navigation API's navigate event.
  function watchNavigate() {
    let seen = null;
    const onNavigate = (e) => {
      seen = { url: e.destination.url, sameDocument: e.destination.sameDocument };
    };
    const nav = globalThis.navigation;
    nav?.addEventListener('navigate', onNavigate);
    return async () => {
      // Navigations scheduled by the handler in a microtask or a zero timer still count.
      await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => setTimeout(r, 0));
      nav?.removeEventListener('navigate', onNavigate);
      return seen;
    };
  }

  function mouse(el, type, x, y, extra = {}) {
    const Ctor = type.startsWith('pointer') ? PointerEvent : MouseEvent;
    el.dispatchEvent(new Ctor(type, { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, button: 0, view: window, pointerId: 1, pointerType: 'mouse', isPrimary: true, ...extra }));
  }

  async function click({ ref }) {
    const { el, retagged } = resolve(ref);
    const { x, y } = actionable(el, true);
    const done = watchNavigate();
    mouse(el, 'pointerover', x, y);
    mouse(el, 'mouseover', x, y);
    mouse(el, 'pointerdown', x, y, { buttons: 1 });
    mouse(el, 'mousedown', x, y, { buttons: 1 });
    if (el.focus) el.focus({ preventScroll: true });
    mouse(el, 'pointerup', x, y);
    mouse(el, 'mouseup', x, y);
    mouse(el, 'click', x, y, { detail: 1 });
    const navigation = await done();
    return { element: describeEl(el), retagged, navigation };
  }

  function nativeSetter(el) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    return Object.getOwnPropertyDescriptor(proto, 'value').set;
  }

  function key(el, type, k) {
    const code = k === 'Enter' ? 'Enter' : k.length === 1 && /[a-z]/i.test(k) ? `Key${k.toUpperCase()}` : '';
    return el.dispatchEvent(new KeyboardEvent(type, { key: k, code, bubbles: true, cancelable: true, composed: true, keyCode: k === 'Enter' ? 13 : 0 }));
  }

  async function type({ ref, text, submit = false }) {
    const { el, retagged } = resolve(ref);
    actionable(el, false);
    const editable = el.isContentEditable;
    const field = el.localName === 'input' || el.localName === 'textarea';
    if (!editable && !field) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} does not take text`);
    if (el.readOnly) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is read-only`);
    el.focus({ preventScroll: true });
    if (field) {
      const set = nativeSetter(el);
      set.call(el, '');
      el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'deleteContentBackward' }));
      for (const ch of text) {
        key(el, 'keydown', ch);
        key(el, 'keypress', ch);
        set.call(el, el.value + ch);
        el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: ch }));
        key(el, 'keyup', ch);
      }
      el.dispatchEvent(new Event('change', { bubbles: true }));
    } else {
      const sel = getSelection();
      sel.selectAllChildren(el);
      document.execCommand('insertText', false, text);
    }
    let navigation = null;
    if (submit) {
      const done = watchNavigate();
      const go = key(el, 'keydown', 'Enter');
      key(el, 'keypress', 'Enter');
      key(el, 'keyup', 'Enter');
      if (go && el.form && el.localName === 'input') el.form.requestSubmit();
      navigation = await done();
    }
    return { element: describeEl(el), retagged, chars: [...text].length, submitted: submit, navigation };
  }

  function viewport() {
    return { width: innerWidth, height: innerHeight, dpr: devicePixelRatio };
  }

  Object.assign(T.ops, { click, type, viewport });
})();
