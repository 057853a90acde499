// Page script: the lean (or verbose) snapshot of one frame's document.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.snapshot) return;
  const { squash, cut, role, name, labelledBy, visible, tagAll, MAX_NODES, NAME_MAX, LANDMARKS } = T;

  const SHORT_TEXT = 80; // lean snapshots keep text up to this long
  const INLINE = new Set([
    'span', 'code', 'b', 'strong', 'i', 'em', 'small', 'sub', 'sup', 'mark', 'abbr', 'time', 'kbd', 's', 'u',
    'q', 'cite', 'br', 'wbr', 'data', 'var', 'del', 'ins', 'bdi', 'bdo', 'font',
  ]);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'object', 'embed']);

  // A form field's current value as a snapshot shows it (a secret by its length only).
  function fieldValue(el) {
    const tag = el.localName;
    if (T.isSecret(el)) return el.value ? T.hidden(el.value) : '';
    if (tag === 'input') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      if (['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden'].includes(type)) return '';
      return el.value ? JSON.stringify(cut(el.value, 120)) : '';
    }
    if (tag === 'textarea') return el.value ? JSON.stringify(cut(el.value, 120)) : '';
    if (tag === 'select') {
      const picked = Array.from(el.selectedOptions || []).map((o) => squash(o.textContent));
      return picked.length ? JSON.stringify(picked.join(', ')) : '';
    }
    return '';
  }

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

  // One element as a snapshot line: role, name, state, ref, value.
  function describeLine(el, r, nm, ref, prefix = '', verbose = false) {
    let line = `${r}${nm ? ` ${JSON.stringify(nm)}` : ''}`;
    const attrs = [];
    if (r === 'heading') {
      attrs.push(`level=${el.localName.match(/^h(\d)$/)?.[1] || el.getAttribute('aria-level') || 2}`);
    }
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') attrs.push('disabled');
    if (el.checked || el.getAttribute('aria-checked') === 'true') attrs.push('checked');
    if (el.getAttribute('aria-expanded')) attrs.push(`expanded=${el.getAttribute('aria-expanded')}`);
    if (el.localName === 'a' && verbose) attrs.push(`url=${el.getAttribute('href')}`);
    if (ref) attrs.push(`ref=${prefix}${ref}`);
    if (attrs.length) line += ` [${attrs.join('] [')}]`;
    const value = fieldValue(el);
    if (value) line += `: ${value}`;
    return line;
  }
  T.describeLine = describeLine;

  function snapshot({ verbose = false, prefix = '' } = {}) {
    const tags = tagAll(document.documentElement);
    const holders = holdersOf(tags);
    const lines = [];
    let described = 0;
    let capped = false;

    const describe = (el, r, nm) => describeLine(el, r, nm, tags.get(el), prefix, verbose);

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
      if (el.localName === 'iframe' || el.localName === 'frame') {
        // The service worker puts the frame's own snapshot here, matching it by its address.
        if (visible(el)) lines.push(`${'  '.repeat(depth)}\u0000frame:${el.src || 'about:blank'}`);
        return;
      }
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
      // A closed shadow root cannot be walked; the snapshot says where one is.
      if (!el.shadowRoot && el.localName.includes('-') && chrome.dom?.openOrClosedShadowRoot?.(el)) {
        emit(depth, `${el.localName}: shadow root (closed, not walked)`);
        walkChildren(el, depth + 1);
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
    return { text: T.scrubber()(lines.join('\n')), refs: tags.size, capped };
  }

  T.ops.snapshot = snapshot;
})();
