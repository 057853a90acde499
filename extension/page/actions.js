// Page script: pointer actions (click, hover, drag), typing, and the viewport.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.click) return;
  const { Refusal, resolve, describeEl, actionable, hitAt, setNativeValue, fire } = T;

  // Notes a navigation the action starts, through the Navigation API's navigate event. A link
  // with `download` fires it too, but starts a download, not a navigation: no document comes.
  function watchNavigate() {
    let seen = null;
    const onNavigate = (e) => {
      if (e.downloadRequest !== null && e.downloadRequest !== undefined) return;
      seen = { url: e.destination.url, sameDocument: e.destination.sameDocument };
    };
    const nav = globalThis.navigation;
    nav?.addEventListener('navigate', onNavigate);
    return async () => {
      // Navigations scheduled by the handler in a microtask or a zero timer still count.
      await T.turn();
      await T.turn();
      nav?.removeEventListener('navigate', onNavigate);
      return seen;
    };
  }

  const BUTTONS = { left: 0, middle: 1, right: 2 };
  const BUTTONS_MASK = { 0: 1, 1: 4, 2: 2 };
  const FOCUSABLE = 'a[href],button,input,select,textarea,[tabindex],[contenteditable=""],[contenteditable=true]';

  function modifierFlags(modifiers = []) {
    return {
      altKey: modifiers.includes('Alt'),
      ctrlKey: modifiers.includes('Control'),
      metaKey: modifiers.includes('Meta'),
      shiftKey: modifiers.includes('Shift'),
    };
  }

  function mouse(el, type, x, y, extra = {}) {
    const Ctor = type.startsWith('pointer')
      ? PointerEvent
      : type.startsWith('drag') || type === 'drop'
        ? DragEvent
        : MouseEvent;
    const init = { bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y, button: 0, view: window };
    return el.dispatchEvent(new Ctor(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true, ...extra }));
  }

  // The events a real press and release make: pointer and mouse, focus, then click (left),
  // auxclick (middle) or contextmenu (right); twice and a dblclick for a double click.
  function press(el, x, y, { button = 0, count = 1, flags = {} }) {
    const down = { ...flags, button, buttons: BUTTONS_MASK[button] };
    const up = { ...flags, button, buttons: 0 };
    mouse(el, 'pointerover', x, y, flags);
    mouse(el, 'mouseover', x, y, flags);
    mouse(el, 'pointermove', x, y, flags);
    mouse(el, 'mousemove', x, y, flags);
    for (let n = 1; n <= count; n++) {
      mouse(el, 'pointerdown', x, y, down);
      if (mouse(el, 'mousedown', x, y, { ...down, detail: n }) && n === 1) {
        const target = el.closest?.(FOCUSABLE) || el;
        if (target.focus) target.focus({ preventScroll: true });
      }
      mouse(el, 'pointerup', x, y, up);
      mouse(el, 'mouseup', x, y, { ...up, detail: n });
      if (button === 0) mouse(el, 'click', x, y, { ...up, detail: n });
      else if (button === 1) mouse(el, 'auxclick', x, y, { ...up, detail: n });
    }
    if (button === 2) mouse(el, 'contextmenu', x, y, { ...up, detail: 1 });
    if (count === 2 && button === 0) mouse(el, 'dblclick', x, y, { ...up, detail: 2 });
  }

  async function click({ ref, x, y, button = 'left', doubleClick = false, modifiers }) {
    const opts = { button: BUTTONS[button], count: doubleClick ? 2 : 1, flags: modifierFlags(modifiers) };
    if (ref === undefined) {
      // By viewport point: whatever is there gets the events, and the answer says what it was.
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
        throw new Refusal('NOT_ACTIONABLE', `(${x}, ${y}) is outside the ${innerWidth}x${innerHeight} viewport`);
      }
      const hit = hitAt(x, y);
      if (!hit) throw new Refusal('NOT_ACTIONABLE', `nothing is at (${x}, ${y})`);
      if (hit.localName === 'iframe' || hit.localName === 'frame') {
        throw new Refusal(
          'NOT_ACTIONABLE',
          `(${x}, ${y}) is over a frame (${describeEl(hit)}); click its elements by ref`,
        );
      }
      const done = watchNavigate();
      press(hit, x, y, opts);
      return { element: describeEl(hit), retagged: false, navigation: await done() };
    }
    const { el, retagged } = resolve(ref);
    const at = await actionable(el, 'pointer');
    const done = watchNavigate();
    press(el, at.x, at.y, opts);
    return { element: describeEl(el), retagged, navigation: await done() };
  }

  async function hover({ ref }) {
    const { el, retagged } = resolve(ref);
    const { x, y } = await actionable(el, 'pointer');
    for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove']) {
      const enterLeave = type.endsWith('enter');
      mouse(el, type, x, y, enterLeave ? { bubbles: false, cancelable: false } : {});
    }
    return { element: describeEl(el), retagged, navigation: null };
  }

  // HTML5 drag and drop when the source is draggable (dragstart ... drop, dragend, with one
  // DataTransfer carried through, as the browser does); pointer and mouse moves otherwise, for
  // the libraries that drag on mousedown/mousemove/mouseup.
  async function drag({ ref, endRef }) {
    const { el: src, retagged: r1 } = resolve(ref);
    const { el: dst, retagged: r2 } = resolve(endRef);
    if (src === dst) throw new Refusal('BAD_ARGS', 'startRef and endRef are the same element');
    await actionable(dst, 'point');
    await actionable(src, 'pointer');
    const ra = src.getBoundingClientRect();
    const rb = dst.getBoundingClientRect();
    const from = { x: ra.left + ra.width / 2, y: ra.top + ra.height / 2 };
    const to = { x: rb.left + rb.width / 2, y: rb.top + rb.height / 2 };
    const done = watchNavigate();
    let mode = 'pointer';
    let dropped = false;
    mouse(src, 'pointerdown', from.x, from.y, { buttons: 1 });
    mouse(src, 'mousedown', from.x, from.y, { buttons: 1 });
    mouse(src, 'pointermove', from.x + 1, from.y + 1, { buttons: 1 });
    mouse(src, 'mousemove', from.x + 1, from.y + 1, { buttons: 1 });
    const draggable = src.closest('[draggable="true"]') || (src.closest('a[href],img') && src.draggable ? src : null);
    if (draggable) {
      mode = 'html5';
      const dataTransfer = new DataTransfer();
      const dt = { dataTransfer };
      if (mouse(draggable, 'dragstart', from.x, from.y, dt)) {
        mouse(draggable, 'drag', from.x, from.y, dt);
        mouse(dst, 'dragenter', to.x, to.y, dt);
        // A drop target says so by cancelling dragover; only then does the browser drop.
        const accepted = !mouse(dst, 'dragover', to.x, to.y, dt);
        if (accepted) {
          dropped = true;
          mouse(dst, 'drop', to.x, to.y, dt);
        } else mouse(dst, 'dragleave', to.x, to.y, dt);
        mouse(draggable, 'dragend', to.x, to.y, dt);
      }
    } else {
      const target = () => hitAt(to.x, to.y) || dst;
      for (let i = 1; i <= 5; i++) {
        const x = from.x + ((to.x - from.x) * i) / 5;
        const y = from.y + ((to.y - from.y) * i) / 5;
        const over = hitAt(x, y) || dst;
        mouse(over, 'pointermove', x, y, { buttons: 1 });
        mouse(over, 'mousemove', x, y, { buttons: 1 });
      }
      mouse(target(), 'pointerup', to.x, to.y);
      mouse(target(), 'mouseup', to.x, to.y);
      dropped = true;
    }
    return {
      element: describeEl(src),
      target: describeEl(dst),
      mode,
      dropped,
      retagged: r1 || r2,
      navigation: await done(),
    };
  }

  function key(el, type, k) {
    const code = k === 'Enter' ? 'Enter' : k.length === 1 && /[a-z]/i.test(k) ? `Key${k.toUpperCase()}` : '';
    const init = { key: k, code, bubbles: true, cancelable: true, composed: true, keyCode: k === 'Enter' ? 13 : 0 };
    return el.dispatchEvent(new KeyboardEvent(type, init));
  }

  async function type({ ref, text, submit = false, secret }) {
    const { el, retagged } = resolve(ref);
    T.refuseSecret(secret);
    const editable = el.isContentEditable;
    const field = el.localName === 'input' || el.localName === 'textarea';
    if (!editable && !field) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} does not take text`);
    if (el.readOnly) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is read-only`);
    await actionable(el, 'input');
    el.focus({ preventScroll: true });
    if (field && secret) {
      // A secret goes in whole, as a password manager fills it: typed key by key, a page that
      // reports each keystroke (to its console, in a request) would hold every prefix of it,
      // and no answer can hide a prefix.
      setNativeValue(el, text);
      fire(el, 'input', { inputType: 'insertReplacementText' });
      fire(el, 'change');
    } else if (field) {
      setNativeValue(el, '');
      fire(el, 'input', { inputType: 'deleteContentBackward' });
      for (const ch of text) {
        key(el, 'keydown', ch);
        key(el, 'keypress', ch);
        setNativeValue(el, el.value + ch);
        fire(el, 'input', { inputType: 'insertText', data: ch });
        key(el, 'keyup', ch);
      }
      fire(el, 'change');
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
    return { width: innerWidth, height: innerHeight, dpr: devicePixelRatio, scrollY };
  }

  Object.assign(T.ops, { click, hover, drag, type, viewport });
  T.watchNavigate = watchNavigate;
})();
