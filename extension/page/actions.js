// Page script: pointer actions (click, hover, drag), focus, typing, and the viewport.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.click) return;
  const { Refusal, resolve, describeEl, actionable, hitAt, setNativeValue, fire } = T;

  // Notes a navigation the action starts, through the Navigation API's navigate event. A link
  // with `download` fires it too, but starts a download, not a navigation: no document comes.
  // Called as the action's events are about to go: the service worker hears the action of call
  // `dispatch` is dispatched (on `el`).
  function watchNavigate(dispatch, el) {
    let seen = null;
    const onNavigate = (e) => {
      if (e.downloadRequest !== null && e.downloadRequest !== undefined) return;
      seen = { url: e.destination.url, sameDocument: e.destination.sameDocument };
    };
    const nav = globalThis.navigation;
    nav?.addEventListener('navigate', onNavigate);
    T.dispatched(dispatch, el);
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
        T.focusOn(el.closest?.(FOCUSABLE) || el, { leave: true });
      }
      mouse(el, 'pointerup', x, y, up);
      mouse(el, 'mouseup', x, y, { ...up, detail: n });
      if (button === 0) mouse(el, 'click', x, y, { ...up, detail: n });
      else if (button === 1) mouse(el, 'auxclick', x, y, { ...up, detail: n });
    }
    if (button === 2) mouse(el, 'contextmenu', x, y, { ...up, detail: 1 });
    if (count === 2 && button === 0) mouse(el, 'dblclick', x, y, { ...up, detail: 2 });
  }

  // Real input (advanced mode): the service worker dispatches it through the debugger
  // (sw/input.js), a point given in this frame's viewport; its answer, or its refusal.
  async function real(trusted, what) {
    const r = await chrome.runtime.sendMessage({ type: 'input', nonce: trusted, ...what });
    if (!r?.error) return r;
    if (r.error.outcome === 'refused') throw new Refusal(r.error.code, r.error.message);
    throw new Error(`real input failed: ${r.error.message}`);
  }

  const isFrame = (el) => el.localName === 'iframe' || el.localName === 'frame';

  async function click({ ref, x, y, button = 'left', doubleClick = false, modifiers, trusted, dispatch }) {
    const opts = { button: BUTTONS[button], count: doubleClick ? 2 : 1, flags: modifierFlags(modifiers) };
    const mouseAt = (at, over = false) =>
      real(trusted, { kind: 'mouse', x: at.x, y: at.y, button, count: opts.count, modifiers, over });
    if (ref === undefined) {
      // By viewport point: whatever is there gets the events, and the answer says what it was.
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
        throw new Refusal('NOT_ACTIONABLE', `(${x}, ${y}) is outside the ${innerWidth}x${innerHeight} viewport`);
      }
      const hit = hitAt(x, y);
      if (!hit) throw new Refusal('NOT_ACTIONABLE', `nothing is at (${x}, ${y})`);
      if (isFrame(hit) && !trusted) {
        throw new Refusal(
          'NOT_ACTIONABLE',
          `(${x}, ${y}) is over a frame (${describeEl(hit)}); click its elements by ref`,
        );
      }
      const element = describeEl(hit);
      T.judgeSubmit(T.submissionBy(hit));
      const done = watchNavigate(dispatch, hit);
      const out = { element, retagged: false };
      if (!trusted) press(hit, x, y, opts);
      else {
        // The browser routes its own click into a frame; the answer names what it hit there.
        const { inside } = await mouseAt({ x, y }, isFrame(hit));
        out.hit = inside ? `${element}, at ${inside} inside it` : element;
      }
      return { ...out, navigation: await done() };
    }
    const { el, retagged } = resolve(ref);
    const at = await actionable(el, 'pointer', dispatch);
    T.judgeSubmit(T.submissionBy(el));
    const done = watchNavigate(dispatch, el);
    if (trusted) await mouseAt(at);
    else press(el, at.x, at.y, opts);
    return { element: describeEl(el), retagged, navigation: await done() };
  }

  async function hover({ ref, dispatch }) {
    const { el, retagged } = resolve(ref);
    const { x, y } = await actionable(el, 'pointer', dispatch);
    for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove']) {
      const enterLeave = type.endsWith('enter');
      mouse(el, type, x, y, enterLeave ? { bubbles: false, cancelable: false } : {});
    }
    return { element: describeEl(el), retagged, navigation: null };
  }

  // Focus as a click or a Tab key gives it, for the keys that follow (browser_press_key): an
  // element that takes none (a plain div, a disabled field) is refused rather than left
  // unfocused in silence.
  async function focus({ ref, dispatch }) {
    const { el, retagged } = resolve(ref);
    await actionable(el, 'input', dispatch);
    const done = watchNavigate(dispatch, el);
    T.focusOn(el, { leave: true });
    if (T.focused() !== el) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} does not take focus`);
    return { element: describeEl(el), retagged, navigation: await done() };
  }

  // HTML5 drag and drop when the source is draggable (dragstart ... drop, dragend, with one
  // DataTransfer carried through, as the browser does); pointer and mouse moves otherwise, for
  // the libraries that drag on mousedown/mousemove/mouseup.
  async function drag({ ref, endRef, dispatch }) {
    const { el: src, retagged: r1 } = resolve(ref);
    const { el: dst, retagged: r2 } = resolve(endRef);
    if (src === dst) throw new Refusal('BAD_ARGS', 'startRef and endRef are the same element');
    await actionable(dst, 'point', dispatch);
    await actionable(src, 'pointer', dispatch);
    const ra = src.getBoundingClientRect();
    const rb = dst.getBoundingClientRect();
    const from = { x: ra.left + ra.width / 2, y: ra.top + ra.height / 2 };
    const to = { x: rb.left + rb.width / 2, y: rb.top + rb.height / 2 };
    const done = watchNavigate(dispatch, src);
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

  // Typing as a person does (advanced mode): the field's content selected and taken out with a
  // Backspace, then a key per character; a secret goes in whole, as the synthetic path sets it.
  async function typeReal(el, trusted, text, { field, secret }) {
    if (field) el.select();
    else getSelection().selectAllChildren(el);
    if (secret) return real(trusted, { kind: 'insert', text });
    const keys = (field ? el.value : el.textContent) ? [T.keySpec('Backspace')] : [];
    for (const ch of text) {
      // A line break is Enter where it makes one; a single-line field would be submitted by it.
      if (ch !== '\n') keys.push(T.keySpec(ch));
      else if (el.localName !== 'input') keys.push(T.keySpec('Enter'));
    }
    return real(trusted, { kind: 'keys', keys });
  }

  async function type({ ref, text, submit = false, secret, trusted, dispatch }) {
    const { el, retagged } = resolve(ref);
    T.refuseSecret(secret);
    const editable = T.editable(el);
    const field = el.localName === 'input' || el.localName === 'textarea';
    if (!editable && !field) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} does not take text`);
    if (el.readOnly) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is read-only`);
    // A secret is held by its field (secrets.js), which only an input or a textarea is.
    if (secret && !field) {
      throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is not an input or a textarea: a secret goes only there`);
    }
    // A submission is judged before anything is written: the secret goes to its origins only.
    if (submit) T.judgeSubmit(T.submissionBy(el, true), { el, secret: secret || null });
    await actionable(el, 'input', dispatch);
    T.dispatched(dispatch, el);
    T.focusOn(el);
    if (trusted) {
      await typeReal(el, trusted, text, { field, secret: !!secret });
    } else if (field && secret) {
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
    } else await T.typeInto(el, text);
    if (field) T.hold(el, secret, text);
    let navigation = null;
    if (submit) {
      const done = watchNavigate(dispatch);
      if (trusted) await real(trusted, { kind: 'keys', keys: [T.keySpec('Enter')] });
      else {
        const go = key(el, 'keydown', 'Enter');
        key(el, 'keypress', 'Enter');
        key(el, 'keyup', 'Enter');
        if (go && el.form && el.localName === 'input') el.form.requestSubmit();
      }
      navigation = await done();
    }
    return { element: describeEl(el), retagged, chars: [...text].length, submitted: submit, navigation };
  }

  // Which frame element of this document is which child frame (sw/input.js): a child posts a
  // nonce and its frame id to `parent`, and the frame element whose window sent it is that one.
  const FRAME_WAIT_MS = 1000;
  const introduced = new Map(); // nonce -> { frames: Map(frameId -> element), stop }
  function frameListen({ nonce }) {
    const frames = new Map();
    const onMessage = (e) => {
      if (e.data?.tabpilotFrame !== nonce) return;
      const all = [];
      T.walkElements(document.documentElement, (el) => isFrame(el) && all.push(el));
      const el = all.find((f) => f.contentWindow === e.source);
      if (el && !frames.has(e.data.frameId)) frames.set(e.data.frameId, el);
    };
    addEventListener('message', onMessage);
    const stop = () => removeEventListener('message', onMessage);
    introduced.set(nonce, { frames, stop });
    setTimeout(() => introduced.delete(nonce) && stop(), 10 * FRAME_WAIT_MS);
    return {};
  }

  function framePost({ nonce, frameId }) {
    parent.postMessage({ tabpilotFrame: nonce, frameId }, '*');
    return {};
  }

  // The child frames introduced under `nonce`, once the messages are in (they come a task later).
  async function introductions(nonce, enough) {
    const seen = introduced.get(nonce);
    if (!seen) throw new Refusal('INTERNAL', 'no frame introduction under way');
    for (let waited = 0; !enough(seen.frames) && waited < FRAME_WAIT_MS; waited += 20) await T.sleep(20);
    introduced.delete(nonce);
    seen.stop();
    return seen.frames;
  }

  // Where a frame element's content starts in this viewport: inside its border and padding.
  function contentBox(el) {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const x = r.left + el.clientLeft + parseFloat(cs.paddingLeft);
    return { x, y: r.top + el.clientTop + parseFloat(cs.paddingTop) };
  }

  const inView = (p) => p.x >= 0 && p.y >= 0 && p.x < innerWidth && p.y < innerHeight;

  // A point of child frame `frameId`'s viewport in this one's, the frame brought into view when
  // the point is out of it. With `check`, the point must be on the frame, not on what covers it.
  async function framePoint({ nonce, frameId, x, y, check }) {
    const el = (await introductions(nonce, (f) => f.has(frameId))).get(frameId);
    if (!el) throw new Refusal('STALE_REF', `frame f${frameId} was not found in its parent page`);
    let box = contentBox(el);
    if (!inView({ x: box.x + x, y: box.y + y })) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      box = contentBox(el);
    }
    const at = { x: box.x + x, y: box.y + y };
    if (check) {
      const hit = inView(at) ? hitAt(at.x, at.y) : null;
      if (hit !== el) {
        const why = hit ? `covered by ${describeEl(hit)}` : 'outside the viewport';
        throw new Refusal('NOT_ACTIONABLE', `the point in frame ${describeEl(el)} is ${why}`);
      }
    }
    return at;
  }

  // The child frame at a point of this viewport, and the point in that frame's viewport.
  async function frameUnder({ nonce, x, y }) {
    const el = hitAt(x, y);
    const frames = await introductions(nonce, (f) => [...f.values()].includes(el));
    const frameId = [...frames].find(([, f]) => f === el)?.[0];
    if (frameId === undefined) throw new Refusal('NOT_ACTIONABLE', `no frame of this page is at (${x}, ${y})`);
    const box = contentBox(el);
    return { frameId, x: x - box.x, y: y - box.y };
  }

  function describeAt({ x, y }) {
    const hit = hitAt(x, y);
    return { element: hit ? describeEl(hit) : null };
  }

  function viewport() {
    return { width: innerWidth, height: innerHeight, dpr: devicePixelRatio, scrollY };
  }

  Object.assign(T.ops, { click, hover, focus, drag, type, viewport });
  Object.assign(T.ops, { frameListen, framePost, framePoint, frameUnder, describeAt });
  Object.assign(T, { watchNavigate, real });
})();
