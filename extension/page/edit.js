// Page script (kit): writing to form fields as a person's edit would, so that frameworks
// tracking the field (React) see the change.
(() => {
  const T = globalThis.__tabpilot;
  if (T.focusOn) return;

  // Sets a field's value through the prototype's setter: frameworks (React) shadow the
  // instance's `value` property to track changes, and would miss a plain assignment.
  function setNativeValue(el, value) {
    const proto =
      el.localName === 'textarea'
        ? HTMLTextAreaElement.prototype
        : el.localName === 'select'
          ? HTMLSelectElement.prototype
          : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  }

  function fire(el, type, init = {}) {
    const Ctor = type === 'input' || type === 'beforeinput' ? InputEvent : Event;
    return el.dispatchEvent(
      new Ctor(type, { bubbles: true, composed: type === 'input', cancelable: type === 'beforeinput', ...init }),
    );
  }

  // The element with focus, through open shadow roots; the body when nothing has focus.
  function focused() {
    let el = document.activeElement || document.body;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el;
  }

  const quiet = (el) => !el || el === document.body || el === document.documentElement;

  // The element the document last heard `focus` on. In a window without focus, a page's own
  // el.focus() is silent too: an element it focused itself (JupyterLab's new cell editor) holds
  // the focus while the page's focus tracker, which enables its commands, never heard of it.
  let lastHeard = null;
  window.addEventListener('focus', (e) => (lastHeard = e.composedPath()[0]), true);
  function announce(el) {
    if (quiet(el) || lastHeard === el || document.hasFocus()) return;
    el.dispatchEvent(new FocusEvent('focus', { composed: true }));
    el.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
  }

  // Moves focus to `el` as a person's click or key would, with the events a page in front sees.
  // In a tab in the background, where agents work, the browser moves the focus but fires no
  // `focus` or `blur`, so a field that applies its value when it loses focus (React's onBlur,
  // Streamlit's inputs) never does; whichever of those the browser did not fire is fired here,
  // the pair that bubbles (`focusin`, `focusout`) with it. With `leave`, an element that takes
  // no focus (a click on plain text) still takes it from the one that had it, as a click does.
  function focusOn(el, { leave = false } = {}) {
    const before = focused();
    if (before === el) return announce(el);
    const heard = new Set();
    const hear = (e) => heard.add(`${e.type} ${e.composedPath().indexOf(e.type === 'blur' ? before : el)}`);
    window.addEventListener('focus', hear, true);
    window.addEventListener('blur', hear, true);
    try {
      el.focus?.({ preventScroll: true });
      if (leave && focused() === before && !quiet(before) && !before.contains(el)) before.blur();
    } finally {
      window.removeEventListener('focus', hear, true);
      window.removeEventListener('blur', hear, true);
    }
    const now = focused();
    const event = (type, bubbles, related) =>
      new FocusEvent(type, { bubbles, composed: true, relatedTarget: quiet(related) ? null : related });
    if (now !== before && !quiet(before) && !heard.has('blur 0')) {
      before.dispatchEvent(event('blur', false, now));
      before.dispatchEvent(event('focusout', true, now));
    }
    if (now === el && !heard.has('focus 0')) {
      el.dispatchEvent(event('focus', false, before));
      el.dispatchEvent(event('focusin', true, before));
    }
  }

  Object.assign(T, { setNativeValue, fire, focused, focusOn });
})();
