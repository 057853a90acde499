// Packaged page script, injected into the isolated world of each frame the service worker acts
// on. It reads and acts on the DOM; it never evaluates code it is sent. This file holds what the
// others share (roles, names, refs, actionability) and the runner; each other page file adds
// operations to `__tabpilot.ops`. Installed once per document.
(() => {
  if (globalThis.__tabpilot) return;

  const MAX_NODES = 5000; // elements described in one snapshot
  const NAME_MAX = 80;

  class Refusal extends Error {
    constructor(code, message) {
      super(message);
      this.code = code;
    }
  }

  const squash = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

  // ---- roles and names -------------------------------------------------------------------

  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button',
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton',
    search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox',
    password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox',
    time: 'textbox', week: 'textbox', color: 'button', file: 'button',
  };
  const LANDMARKS = new Set(['navigation', 'main', 'banner', 'contentinfo', 'complementary', 'form', 'dialog', 'region', 'search']);
  const INTERACTIVE = new Set([
    'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'slider',
    'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem',
  ]);

  function role(el) {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    const tag = el.localName;
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : null;
      case 'button':
      case 'summary':
        return 'button';
      case 'input': {
        const type = (el.getAttribute('type') || 'text').toLowerCase();
        if (type === 'hidden') return null;
        return INPUT_ROLES[type] || 'textbox';
      }
      case 'textarea':
        return 'textbox';
      case 'select':
        return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        return 'heading';
      case 'nav':
        return 'navigation';
      case 'main':
        return 'main';
      case 'aside':
        return 'complementary';
      case 'form':
        return 'form';
      case 'dialog':
        return 'dialog';
      case 'header':
        return el.closest('article,aside,main,nav,section') ? null : 'banner';
      case 'footer':
        return el.closest('article,aside,main,nav,section') ? null : 'contentinfo';
      case 'section':
        return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
      case 'img':
        return el.getAttribute('alt') ? 'img' : null;
      default:
        if (el.isContentEditable && !el.parentElement?.isContentEditable) return 'textbox';
        return null;
    }
  }

  function labelledBy(el) {
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    const root = el.getRootNode();
    return ids.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent || '').join(' ');
  }

  // A label's own words, without the text of the controls it wraps (a select's options).
  function labelText(label) {
    let text = '';
    const walk = (node) => {
      for (const n of node.childNodes) {
        if (n.nodeType === 3) text += n.textContent;
        else if (n.nodeType === 1 && !['select', 'textarea', 'input', 'button', 'datalist'].includes(n.localName)) walk(n);
      }
    };
    walk(label);
    return text;
  }

  function name(el) {
    const fromAria = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
    if (fromAria) return cut(fromAria, NAME_MAX);
    const tag = el.localName;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      const labels = el.labels ? Array.from(el.labels).map(labelText).join(' ') : '';
      const type = (el.getAttribute('type') || '').toLowerCase();
      const own = ['submit', 'button', 'reset'].includes(type) ? el.value || type : '';
      const n = squash(labels) || own || squash(el.getAttribute('placeholder')) || squash(el.getAttribute('title')) || squash(el.getAttribute('alt'));
      return cut(n, NAME_MAX);
    }
    if (tag === 'img') return cut(squash(el.getAttribute('alt')), NAME_MAX);
    return cut(squash(el.innerText ?? el.textContent) || squash(el.getAttribute('title')), NAME_MAX);
  }

  function visible(el) {
    if (el.checkVisibility) return el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true });
    const r = el.getBoundingClientRect();
    return r.width > 0 || r.height > 0;
  }

  // ---- refs ------------------------------------------------------------------------------

  // A ref is a hash of what the element is (tag, id, name, type, role, label, own text), not
  // where it is, so a re-render of the same elements yields the same refs.
  function identity(el) {
    // What a person types into an editable element is its value, not what it is: leave it out,
    // so the ref stays put as it is filled.
    const editable = el.isContentEditable;
    const own = editable
      ? ''
      : Array.from(el.childNodes)
          .filter((n) => n.nodeType === 3)
          .map((n) => n.textContent)
          .join(' ');
    const label = editable ? squash(el.getAttribute('aria-label')) || squash(labelledBy(el)) : name(el);
    return [el.localName, el.id, el.getAttribute('name'), el.getAttribute('type'), role(el), label, cut(squash(own), 40)].join('\u0001');
  }

  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return 'e' + h.toString(36).padStart(7, '0').slice(-4);
  }

  let refs = new Map(); // ref -> WeakRef(element), from the last tagging of this document

  // Tags every element that would get a ref, in document order; twins get `.2`, `.3`, ...
  function tagAll(root) {
    const seen = new Map();
    const fresh = new Map();
    const order = [];
    walkElements(root, (el) => {
      if (!refable(el)) return;
      const base = hash(identity(el));
      const n = (seen.get(base) || 0) + 1;
      seen.set(base, n);
      const ref = n === 1 ? base : `${base}.${n}`;
      fresh.set(ref, new WeakRef(el));
      order.push([el, ref]);
    });
    refs = fresh;
    return new Map(order);
  }

  function refable(el) {
    const r = role(el);
    return (r && INTERACTIVE.has(r)) || el.hasAttribute('onclick') || (el.tabIndex >= 0 && el.hasAttribute('tabindex'));
  }

  function walkElements(root, visit) {
    const stack = [root];
    let count = 0;
    while (stack.length && count < MAX_NODES * 4) {
      const node = stack.pop();
      if (node.nodeType === 1) {
        visit(node);
        count++;
        if (node.shadowRoot) stack.push(...Array.from(node.shadowRoot.children).reverse());
      }
      const kids = node.children || [];
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }

  // Refs for elements a snapshot does not tag (a paragraph found by text, say): the same kind of
  // hash, over an identity marked apart so it never meets a tagged element's, numbered among
  // same-tag elements in document order.
  const extras = new Map(); // ref -> WeakRef(element)
  const plainBase = (el) => hash(identity(el) + '\u0002');

  function plainTwins(base, tag) {
    return Array.from(document.getElementsByTagName(tag)).filter((o) => !refable(o) && plainBase(o) === base);
  }

  function refFor(el, tags) {
    const tagged = tags?.get(el);
    if (tagged) return tagged;
    if (refable(el)) return tagAll(document.documentElement).get(el);
    const base = plainBase(el);
    const n = plainTwins(base, el.localName).indexOf(el) + 1 || 1;
    const ref = n === 1 ? base : `${base}.${n}`;
    extras.set(ref, new WeakRef(el));
    return ref;
  }

  // Finds the element for a ref; when the node was replaced, tags the document afresh once.
  function resolve(ref) {
    if (typeof ref !== 'string' || !/^e[0-9a-z]{4}(\.\d+)?$/.test(ref)) {
      throw new Refusal('BAD_ARGS', `ref ${JSON.stringify(ref)} is not a ref from a snapshot (like e7k2f)`);
    }
    const known = refs.get(ref)?.deref() || extras.get(ref)?.deref();
    if (known && known.isConnected) return { el: known, retagged: false };
    tagAll(document.documentElement);
    let el = refs.get(ref)?.deref();
    if (!el && known) {
      const [base, n] = ref.split('.');
      el = plainTwins(base, known.localName)[(Number(n) || 1) - 1];
    }
    if (el) return { el, retagged: !!known };
    throw new Refusal('STALE_REF', `ref ${ref} matches nothing on the page now`);
  }

  // ---- snapshot --------------------------------------------------------------------------

  function fieldValue(el) {
    const tag = el.localName;
    if (tag === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type)) return '';
      if (!el.value) return '';
      return type === 'password' ? '••••••' : JSON.stringify(cut(el.value, 120));
    }
    if (tag === 'textarea') return el.value ? JSON.stringify(cut(el.value, 120)) : '';
    if (tag === 'select') {
      const picked = Array.from(el.selectedOptions || []).map((o) => squash(o.textContent));
      return picked.length ? JSON.stringify(picked.join(', ')) : '';
    }
    return '';
  }

  // ---- actionability ------------------------------------------------------------------

  function describeEl(el) {
    const id = el.id ? `#${el.id}` : '';
    const cls = !id && el.classList.length ? `.${el.classList[0]}` : '';
    const text = cut(squash(el.innerText || el.textContent), 40);
    return `<${el.localName}${id}${cls}>${text ? ` ${JSON.stringify(text)}` : ''}`;
  }

  const ACT_WAIT_MS = 1000; // how long a failing check is waited out before the refusal
  const POLL_MS = 50;
  // Two looks at the box this far apart: one frame. Timers, not requestAnimationFrame, which
  // does not run in the background tabs agents work in.
  const STABLE_MS = 16;
  // In a background tab (the agent's) Chrome runs a page's timers at most once a second, so a
  // 16 ms wait would take up to a second. The service worker's timers are not held back: a sleep
  // is a message it answers when the time is up.
  const sleep = (ms) => chrome.runtime.sendMessage({ type: 'sleep', ms });

  // Is `node` the element or inside it, through shadow roots?
  function within(el, node) {
    for (let n = node; n; n = n.parentNode || n.host) if (n === el) return true;
    return false;
  }

  // The element at a viewport point, through open shadow roots.
  function hitAt(x, y) {
    let hit = document.elementFromPoint(x, y);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  }

  function disabled(el) {
    return el.matches(':disabled') || !!el.closest('[aria-disabled="true"]');
  }

  // One look: the failing check in words, or the point to act at.
  async function look(el, pointer) {
    if (!el.isConnected) throw new Refusal('STALE_REF', 'the element left the page');
    if (!visible(el)) return { why: 'not visible' };
    if (disabled(el)) return { why: 'disabled' };
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const a = el.getBoundingClientRect();
    if (a.width === 0 || a.height === 0) return { why: 'not visible (no size)' };
    await sleep(STABLE_MS);
    const b = el.getBoundingClientRect();
    if (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height) return { why: 'not stable (moving)' };
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    if (!pointer) return { x, y };
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return { why: 'outside the viewport' };
    const hit = hitAt(x, y);
    const ok = !hit || within(el, hit) || Array.from(el.labels || []).some((l) => within(l, hit));
    return ok ? { x, y } : { why: `covered by ${describeEl(hit)}` };
  }

  // Visible, enabled, stable and (for pointer actions) not covered; a failing check is polled
  // for up to ACT_WAIT_MS (a banner fading out, a button enabling) before the refusal names it.
  async function actionable(el, pointer = false, waitMs = ACT_WAIT_MS) {
    const t0 = performance.now();
    for (;;) {
      const r = await look(el, pointer);
      if (!r.why) return r;
      const waited = performance.now() - t0;
      if (waited >= waitMs) {
        throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is ${r.why} (checked for ${Math.round(waited)} ms)`);
      }
      await sleep(POLL_MS);
    }
  }

  // Sets a field's value through the prototype's setter: frameworks (React) shadow the
  // instance's `value` property to track changes, and would miss a plain assignment.
  function setNativeValue(el, value) {
    const proto = el.localName === 'textarea' ? HTMLTextAreaElement.prototype : el.localName === 'select' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  }

  function fire(el, type, init = {}) {
    const Ctor = type === 'input' || type === 'beforeinput' ? InputEvent : Event;
    return el.dispatchEvent(new Ctor(type, { bubbles: true, composed: type === 'input', cancelable: type === 'beforeinput', ...init }));
  }

  const ops = {};

  globalThis.__tabpilot = {
    ops,
    MAX_NODES, NAME_MAX, INTERACTIVE, LANDMARKS,
    Refusal, squash, cut, role, name, labelledBy, visible, tagAll, walkElements, resolve, refFor,
    fieldValue, describeEl, actionable, within, hitAt, sleep, setNativeValue, fire,
    async run(op, args) {
      const fn = ops[op];
      if (!fn) return { error: { code: 'BAD_ARGS', message: `no page operation ${op}` } };
      try {
        return { value: await fn(args || {}) };
      } catch (e) {
        if (e instanceof Refusal) return { error: { code: e.code, message: e.message } };
        return { error: { code: 'INTERNAL', message: `page script: ${e?.message || e}`, outcome: 'failed' } };
      }
    },
  };
})();
