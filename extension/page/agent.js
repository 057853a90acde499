// Packaged page script, injected into the isolated world of a page's frame. It reads and acts on
// the DOM for the service worker; it never evaluates code it is sent. Installed once per document.
(() => {
  if (globalThis.__tabpilot) return;

  const MAX_NODES = 5000; // elements described in one snapshot
  const SHORT_TEXT = 80; // lean snapshots keep text up to this long
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

  function name(el) {
    const fromAria = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
    if (fromAria) return cut(fromAria, NAME_MAX);
    const tag = el.localName;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      const labels = el.labels ? Array.from(el.labels).map((l) => l.textContent).join(' ') : '';
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
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent)
      .join(' ');
    return [el.localName, el.id, el.getAttribute('name'), el.getAttribute('type'), role(el), name(el), cut(squash(own), 40)].join('\u0001');
  }

  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return 'e' + h.toString(36).padStart(7, '0').slice(-5);
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

  // Finds the element for a ref; when the node was replaced, tags the document afresh once.
  function resolve(ref) {
    if (typeof ref !== 'string' || !/^e[0-9a-z]{5}(\.\d+)?$/.test(ref)) {
      throw new Refusal('BAD_ARGS', `ref ${JSON.stringify(ref)} is not a ref from a snapshot (like e7k2f)`);
    }
    const known = refs.get(ref)?.deref();
    if (known && known.isConnected) return { el: known, retagged: false };
    tagAll(document.documentElement);
    const el = refs.get(ref)?.deref();
    if (el) return { el, retagged: !!known || refs.size > 0 };
    throw new Refusal('STALE_REF', `ref ${ref} matches nothing on the page now`);
  }

  // ---- snapshot --------------------------------------------------------------------------

  const INLINE = new Set(['span', 'code', 'b', 'strong', 'i', 'em', 'small', 'sub', 'sup', 'mark', 'abbr', 'time', 'kbd', 's', 'u', 'q', 'cite', 'br', 'wbr', 'data', 'var', 'del', 'ins', 'bdi', 'bdo', 'font']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed']);

  // Every ancestor of a tagged element, so "is there a ref inside?" is one lookup.
  function holdersOf(tags) {
    const holders = new Set();
    for (const el of tags.keys()) {
      let p = el.parentElement || el.getRootNode().host;
      while (p && !holders.has(p)) {
        holders.add(p);
        p = p.parentElement || p.getRootNode().host;
      }
    }
    return holders;
  }

  function snapshot({ verbose = false } = {}) {
    const tags = tagAll(document.documentElement);
    const holders = holdersOf(tags);
    const lines = [];
    let described = 0;
    let capped = false;

    const describe = (el, r, nm) => {
      let line = `${r}${nm ? ` ${JSON.stringify(nm)}` : ''}`;
      const attrs = [];
      if (r === 'heading') attrs.push(`level=${el.localName.match(/^h(\d)$/)?.[1] || el.getAttribute('aria-level') || 2}`);
      if (el.disabled || el.getAttribute('aria-disabled') === 'true') attrs.push('disabled');
      if (el.checked || el.getAttribute('aria-checked') === 'true') attrs.push('checked');
      if (el.getAttribute('aria-expanded')) attrs.push(`expanded=${el.getAttribute('aria-expanded')}`);
      if (el.localName === 'a' && verbose) attrs.push(`url=${el.getAttribute('href')}`);
      const ref = tags.get(el);
      if (ref) attrs.push(`ref=${ref}`);
      if (attrs.length) line += ` [${attrs.join('] [')}]`;
      const value = fieldValue(el);
      if (value) line += `: ${value}`;
      return line;
    };

    const emit = (depth, text) => {
      described++;
      lines.push(`${'  '.repeat(depth)}- ${text}`);
    };

    // A block whose children are all inline and hold no refs reads as one line of text.
    const textBlock = (el) => {
      for (const c of el.children) if (!INLINE.has(c.localName)) return false;
      return true;
    };

    const visit = (el, depth) => {
      if (described >= MAX_NODES) {
        capped = true;
        return;
      }
      if (SKIP.has(el.localName)) return;
      if (el.getAttribute('aria-hidden') === 'true' || !visible(el)) return;
      const r = role(el);
      if (tags.has(el) || r === 'heading' || (r === 'img' && verbose)) {
        emit(depth, describe(el, r || 'generic', name(el)));
        if (holders.has(el)) walkChildren(el, depth + 1);
        return;
      }
      if (r && LANDMARKS.has(r)) {
        const at = lines.length;
        const nm = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
        emit(depth, `${r}${nm ? ` ${JSON.stringify(cut(nm, NAME_MAX))}` : ''}:`);
        walkChildren(el, depth + 1);
        if (lines.length === at + 1) {
          lines.pop();
          described--;
        }
        return;
      }
      if (el.localName === 'label' && el.control && tags.has(el.control)) {
        // The control's name already says what the label says.
        if (holders.has(el)) walkChildren(el, depth);
        return;
      }
      if (!holders.has(el) && !el.shadowRoot && textBlock(el)) {
        const text = squash(el.innerText ?? el.textContent);
        if (text && (verbose || text.length <= SHORT_TEXT)) emit(depth, `text: ${text}`);
        return;
      }
      let own = '';
      for (const n of el.childNodes) if (n.nodeType === 3) own += n.textContent;
      own = squash(own);
      if (own && (verbose || own.length <= SHORT_TEXT)) emit(depth, `text: ${own}`);
      walkChildren(el, depth);
    };

    const walkChildren = (el, depth) => {
      if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(c, depth);
      for (const c of el.children) visit(c, depth);
    };

    visit(document.body || document.documentElement, 0);
    return { text: lines.join('\n'), refs: tags.size, capped };
  }

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

  // ---- actions ---------------------------------------------------------------------------

  function describeEl(el) {
    const id = el.id ? `#${el.id}` : '';
    const cls = !id && el.classList.length ? `.${el.classList[0]}` : '';
    const text = cut(squash(el.innerText || el.textContent), 40);
    return `<${el.localName}${id}${cls}>${text ? ` ${JSON.stringify(text)}` : ''}`;
  }

  function actionable(el, pointer) {
    if (!el.isConnected) throw new Refusal('STALE_REF', 'the element left the page');
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    if (!visible(el)) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is not visible`);
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is disabled`);
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} has no size`);
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (pointer) {
      let hit = document.elementFromPoint(x, y);
      while (hit?.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      const ok = !hit || hit === el || el.contains(hit) || Array.from(el.labels || []).some((l) => l.contains(hit));
      if (!ok) throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is covered by ${describeEl(hit)}`);
    }
    return { x, y };
  }

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

  // ---- reading ---------------------------------------------------------------------------

  function mainContent() {
    return document.querySelector('main, [role=main], article') || document.body || document.documentElement;
  }

  function markdown(root) {
    const out = [];
    const inline = (el) => {
      let s = '';
      for (const n of el.childNodes) {
        if (n.nodeType === 3) s += n.textContent;
        else if (n.nodeType === 1) {
          if (!visible(n) || ['script', 'style', 'noscript', 'template'].includes(n.localName)) continue;
          const t = inline(n);
          if (n.localName === 'a' && n.getAttribute('href') && squash(t)) s += `[${squash(t)}](${n.href})`;
          else if (n.localName === 'strong' || n.localName === 'b') s += squash(t) ? `**${squash(t)}**` : '';
          else if (n.localName === 'em' || n.localName === 'i') s += squash(t) ? `*${squash(t)}*` : '';
          else if (n.localName === 'code') s += '`' + t + '`';
          else if (n.localName === 'br') s += '\n';
          else s += t;
        }
      }
      return s;
    };
    const block = (el, prefix = '') => {
      for (const n of el.childNodes) {
        if (n.nodeType === 3) {
          const t = squash(n.textContent);
          if (t) out.push(prefix + t);
          continue;
        }
        if (n.nodeType !== 1) continue;
        const tag = n.localName;
        if (['script', 'style', 'noscript', 'template', 'svg', 'canvas'].includes(tag) || !visible(n)) continue;
        const h = tag.match(/^h([1-6])$/);
        if (h) out.push(`\n${'#'.repeat(+h[1])} ${squash(inline(n))}\n`);
        else if (tag === 'p') out.push(`\n${prefix}${squash(inline(n))}\n`);
        else if (tag === 'ul' || tag === 'ol') {
          let i = 1;
          for (const li of n.children) if (li.localName === 'li') out.push(`${prefix}${tag === 'ol' ? `${i++}.` : '-'} ${squash(inline(li))}`);
          out.push('');
        } else if (tag === 'pre') out.push('\n```\n' + n.textContent.replace(/\n$/, '') + '\n```\n');
        else if (tag === 'blockquote') block(n, prefix + '> ');
        else if (tag === 'table') {
          const rows = Array.from(n.rows).map((r) => '| ' + Array.from(r.cells).map((c) => squash(c.textContent)).join(' | ') + ' |');
          if (rows.length) rows.splice(1, 0, '|' + ' --- |'.repeat(n.rows[0].cells.length));
          out.push('', ...rows, '');
        } else if (tag === 'img') {
          if (n.alt) out.push(`![${squash(n.alt)}](${n.src})`);
        } else if (tag === 'a' || tag === 'strong' || tag === 'em' || tag === 'code' || tag === 'span' || tag === 'b' || tag === 'i' || tag === 'label') {
          const t = squash(inline(n));
          if (t) out.push(prefix + (tag === 'a' && n.getAttribute('href') ? `[${t}](${n.href})` : t));
        } else block(n, prefix);
      }
    };
    block(root);
    return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  function read({ format = 'markdown', maxChars = 20000 } = {}) {
    const root = mainContent();
    const full = format === 'text' ? (root.innerText || '').replace(/\n{3,}/g, '\n\n').trim() : markdown(root);
    const truncated = full.length > maxChars;
    return { content: truncated ? full.slice(0, maxChars) : full, truncated, totalChars: full.length, format };
  }

  function viewport() {
    return { width: innerWidth, height: innerHeight, dpr: devicePixelRatio };
  }

  const OPS = { snapshot, click, type, read, viewport };

  globalThis.__tabpilot = {
    async run(op, args) {
      const fn = OPS[op];
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
