// Page script: the snapshot of one frame's document (lean, or verbose with all text), or of one
// region of it, as an outline tree that fit.js holds to a token budget and writes out as lines.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.snapshot) return;
  const { squash, cut, role, name, labelledBy, visible, tagAll, resolve, refFor } = T;
  const { MAX_NODES, NAME_MAX, LANDMARKS } = T;

  const SHORT_TEXT = 80; // lean snapshots keep text up to this long
  const INLINE = new Set([
    'span', 'code', 'b', 'strong', 'i', 'em', 'small', 'sub', 'sup', 'mark', 'abbr', 'time', 'kbd', 's', 'u',
    'q', 'cite', 'br', 'wbr', 'data', 'var', 'del', 'ins', 'bdi', 'bdo', 'font',
  ]);
  // What may sit inside a sentence: text-level elements and the controls and links a sentence holds.
  const PHRASING = new Set([...INLINE, 'a', 'button', 'input', 'select', 'textarea', 'label', 'img', 'output']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'canvas', 'object', 'embed']);

  // A form field's current value as a snapshot shows it (a secret, or a field a secret was filled
  // into, by its length only; another's with the secret values in it taken out before its cut).
  function fieldValue(el) {
    const tag = el.localName;
    if (T.masked(el)) return el.value ? T.hidden(el.value) : '';
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
    if (el.getAttribute('aria-invalid') === 'true') attrs.push('invalid');
    if (r === 'option' && (el.selected || el.getAttribute('aria-selected') === 'true')) attrs.push('selected');
    if (el.getAttribute('aria-expanded')) attrs.push(`expanded=${el.getAttribute('aria-expanded')}`);
    if (el.localName === 'a' && verbose) attrs.push(`url=${el.getAttribute('href')}`);
    if (ref) attrs.push(`ref=${prefix}${ref}`);
    if (attrs.length) line += ` [${attrs.join('] [')}]`;
    const value = fieldValue(el);
    if (value) line += `: ${value}`;
    return line;
  }
  T.describeLine = describeLine;

  // An option's words: its label, else its text.
  const optionName = (o) => cut(squash(o.label || o.textContent), NAME_MAX);

  /**
   * One node of the outline. A node with a `line` is written out; one without (a box) only
   * groups its kids, which are written at its own depth. `el` is the element a summary's ref
   * names to expand the node's kids (none for a run of text inside a larger block), `i` the
   * node's place among its parent's kids, which a summary's offset counts.
   * @typedef {{line: ?string, el: ?Element, role: ?string, sig: ?string, kids: Node[], i: number,
   *   frame?: string}} Node
   */

  // Builds the outline of `root` (the body, or a region a summary named). `w`, the walk, carries
  // the options, the elements holding refs, and the count of lines written so far.
  function build(root, { verbose, prefix, tags }) {
    const w = { verbose, prefix, tags, holders: holdersOf(tags), grids: new Map(), described: 0, capped: false };
    const top = { line: null, el: null, role: null, sig: null, kids: [] };
    visit(w, root, top);
    return { node: top.kids[0] || null, capped: w.capped };
  }

  const box = (el) => ({ line: null, el, role: null, sig: sigOf(el), kids: [] });
  const lineNode = (el, r, line) => ({ line, el, role: r, sig: r === 'heading' ? null : r, kids: [] });
  const describe = (w, el, r, nm) => describeLine(el, r, nm, w.tags.get(el), w.prefix, w.verbose);
  const keeps = (w, text) => text && (w.verbose || text.length <= SHORT_TEXT);

  function add(w, parent, n) {
    if (n.line != null) w.described++;
    n.i = parent.kids.length;
    parent.kids.push(n);
  }

  // Is there text in these nodes besides the words of the refs inside them (a label's words
  // are its control's name)?
  function loose(w, nodes) {
    return nodes.some((n) =>
      n.nodeType === 3 ? /\S/.test(n.textContent) : n.nodeType === 1 && !named(w, n) && loose(w, [...n.childNodes]),
    );
  }

  const named = (w, el) => w.tags.has(el) || (el.localName === 'label' && el.control && w.tags.has(el.control));

  function phrasing(el) {
    for (const c of el.children) if (!PHRASING.has(c.localName) || c.shadowRoot) return false;
    return true;
  }

  const textOf = (n) => (n.nodeType === 3 ? n.textContent : visible(n) ? n.innerText ?? n.textContent : '');

  // A sentence: text and the inline elements in it, read whole. Its refs go under its line, so
  // the words of a link stay in the text and the link is still addressable; without a line
  // (long text in a lean snapshot, or inside a line that already says it) the refs go to `into`.
  function sentence(w, nodes, text, el, into, quiet) {
    const elems = nodes.filter((n) => n.nodeType === 1);
    const holds = elems.some((e) => w.tags.has(e) || w.holders.has(e));
    const says = !quiet && keeps(w, text) && (!holds || loose(w, nodes));
    if (!holds) {
      if (says) add(w, into, lineNode(el, 'text', `text: ${text}`));
      return;
    }
    const at = says ? lineNode(el, 'text', `text: ${text}`) : into;
    for (const e of elems) visit(w, e, at, true);
    if (at !== into) addSentence(w, into, at, text);
  }

  // A sentence whose words are all in the name of the one element it holds says nothing more:
  // that element stands in its place. One that starts or ends with the name of a field (whose
  // words are a label's, beside it) says only the rest, beside the field (`radio "Express"
  // [ref=…]`, then `text: $12.90`); a link keeps its sentence whole, its words being in it.
  function addSentence(w, into, n, text) {
    const [only] = n.kids;
    if (n.kids.length !== 1 || !only.el || only.line == null) return add(w, into, n);
    const nm = name(only.el);
    const put = (k) => {
      k.i = into.kids.length;
      into.kids.push(k);
    };
    if (T.echoes(text, nm)) return put(only);
    const rest = !squash(only.el.textContent) && T.besides(text, nm);
    if (!rest) return add(w, into, n);
    n.line = `text: ${rest.text}`;
    n.kids = [];
    if (rest.after) put(only);
    add(w, into, n);
    if (!rest.after) put(only);
  }

  // A block holding blocks and text: each stretch of text between blocks is a sentence.
  function mixed(w, el, into, quiet) {
    let run = [];
    const flush = () => {
      if (run.length) sentence(w, run, squash(run.map(textOf).join('')), null, into, quiet);
      run = [];
    };
    for (const n of el.childNodes) {
      if (n.nodeType === 3 || (n.nodeType === 1 && PHRASING.has(n.localName) && !n.shadowRoot)) run.push(n);
      else if (n.nodeType === 1) {
        flush();
        visit(w, n, into, quiet);
      }
    }
    flush();
  }

  function kidsOf(w, el, into, quiet) {
    if (el.shadowRoot) for (const c of el.shadowRoot.children) visit(w, c, into, quiet);
    for (const c of el.children) visit(w, c, into, quiet);
  }

  // One element into `parent`. `quiet`: inside a line that already says the text (a sentence, a
  // heading), only refs.
  function visit(w, el, parent, quiet = false) {
    if (w.described >= MAX_NODES) {
      w.capped = true;
      return;
    }
    if (SKIP.has(el.localName)) return;
    if (el.localName === 'iframe' || el.localName === 'frame') return visitFrame(w, el, parent);
    if (el.getAttribute('aria-hidden') === 'true' || !visible(el)) return;
    const r = role(el);
    const row = !quiet && T.rowOf(el, r, w.grids);
    if (row) return visitRow(w, el, row, parent);
    if (w.tags.has(el) || r === 'heading' || (r === 'img' && w.verbose)) return visitLine(w, el, r, parent, quiet);
    if (r && LANDMARKS.has(r)) return visitLandmark(w, el, r, parent, quiet);
    if (el.localName === 'label' && el.control && w.tags.has(el.control)) {
      // The control's name already says what the label says.
      if (w.holders.has(el)) kidsOf(w, el, parent, quiet);
      return;
    }
    // A closed shadow root cannot be walked; the snapshot says where one is.
    if (!el.shadowRoot && el.localName.includes('-') && chrome.dom?.openOrClosedShadowRoot?.(el)) {
      const n = lineNode(el, null, `${el.localName}: shadow root (closed, not walked)`);
      add(w, parent, n);
      kidsOf(w, el, n, quiet);
      return;
    }
    if (!el.shadowRoot && phrasing(el)) return visitSentence(w, el, parent, quiet);
    const n = box(el);
    if (el.shadowRoot) kidsOf(w, el, n, quiet);
    else mixed(w, el, n, quiet);
    if (n.kids.length) add(w, parent, n);
  }

  // A table's row as one line, `row: a | b | c [ref=…]`: its cells' words, then the refs of the
  // elements in it, in their order (the row's own first). A header row says `header:`.
  function visitRow(w, el, { cells, header }, parent) {
    const refs = w.tags.has(el) ? [el] : [];
    const text = T.joinCells(cells.map((c) => cellText(w, c, refs)), w.verbose);
    if (!text && !refs.length) return;
    const at = refs.map((e) => ` [ref=${w.prefix}${w.tags.get(e)}]`).join('');
    const n = lineNode(el, 'row', `${header ? 'header' : 'row'}: ${text}${at}`);
    n.sig = header ? 'header' : sigOf(el);
    // What a summary hiding the row counts in it.
    n.holds = refs.map((e) => role(e));
    add(w, parent, n);
  }

  // A cell's words, the elements with refs in it added to `refs`: each says its text, else its
  // name or role, with its state and value.
  function cellText(w, cell, refs) {
    if (!w.holders.has(cell) && !w.tags.has(cell)) return visible(cell) ? (cell.innerText ?? cell.textContent) : '';
    const words = [];
    const walk = (n) => {
      if (n.nodeType === 3) return words.push(n.textContent);
      if (n.nodeType !== 1 || SKIP.has(n.localName) || n.getAttribute('aria-hidden') === 'true' || !visible(n)) return;
      if (!w.tags.has(n)) return [...(n.shadowRoot || n).childNodes].forEach(walk);
      refs.push(n);
      const said = squash(n.innerText) || name(n) || role(n) || n.localName;
      const checked = n.checked || n.getAttribute('aria-checked') === 'true';
      const value = fieldValue(n);
      words.push(` ${said}${checked ? ' [checked]' : ''}${value ? `: ${value}` : ''} `);
    };
    walk(cell);
    return words.join('');
  }

  // The service worker puts the frame's own snapshot here, matching it by its address.
  function visitFrame(w, el, parent) {
    const frame = el.src || 'about:blank';
    if (visible(el)) add(w, parent, { line: null, el: null, role: 'frame', sig: null, kids: [], frame });
  }

  // An element of its own line: one with a ref, a heading, or an image in a verbose snapshot.
  function visitLine(w, el, r, parent, quiet) {
    const n = lineNode(el, r || 'generic', describe(w, el, r || 'generic', name(el)));
    add(w, parent, n);
    if (el.localName === 'select') {
      // Its options, which a closed list does not render, the selected marked. They carry
      // no refs: browser_select_option takes their labels on the list's own ref.
      for (const o of el.options) add(w, n, lineNode(o, 'option', describe(w, o, 'option', optionName(o))));
    } else if (w.holders.has(el)) kidsOf(w, el, n, quiet || r === 'heading');
  }

  function visitLandmark(w, el, r, parent, quiet) {
    const nm = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
    const n = lineNode(el, r, `${r}${nm ? ` ${JSON.stringify(cut(nm, NAME_MAX))}` : ''}:`);
    n.sig = null;
    kidsOf(w, el, n, quiet);
    if (n.kids.length) add(w, parent, n);
  }

  // One sentence; the element is its node, so a summary can name it.
  function visitSentence(w, el, parent, quiet) {
    const text = squash(el.innerText ?? el.textContent);
    const holds = w.holders.has(el);
    const says = !quiet && keeps(w, text) && (!holds || loose(w, [...el.childNodes]));
    const n = says ? lineNode(el, 'text', `text: ${text}`) : box(el);
    n.sig = sigOf(el);
    if (!holds) {
      if (says) add(w, parent, n);
      return;
    }
    for (const c of el.children) visit(w, c, n, true);
    if (n.line != null) addSentence(w, parent, n, text);
    else if (n.kids.length) add(w, parent, n);
  }

  // Similar siblings share this: their tag and first class (rows, list items, cards).
  function sigOf(el) {
    const cls = el.classList?.[0];
    return cls ? `${el.localName}.${cls}` : el.localName;
  }

  /**
   * The snapshot of the document, or of the region `ref` names from its kid `offset` on, held to
   * `maxTokens` (none: whole). `hidden` lists the frames left inside collapsed regions, so the
   * service worker does not add them back at the end.
   */
  function snapshot({ verbose = false, prefix = '', maxTokens = null, ref = null, offset = 0 } = {}) {
    const tags = tagAll(document.documentElement);
    const root = ref ? resolve(ref).el : document.body || document.documentElement;
    const { node, capped } = build(root, { verbose, prefix, tags });
    if (!node) return { text: '', refs: tags.size, capped, tokens: 0, collapsed: 0, hidden: [] };
    if (ref) node.kids = node.kids.filter((k) => k.i >= offset);
    // Summaries name their regions with refs; each element's is worked out once.
    const memo = new Map();
    const named = new Map();
    const refOf = (el) => {
      if (!named.has(el)) named.set(el, `${prefix}${refFor(el, tags, memo)}`);
      return named.get(el);
    };
    const out = T.fit(node, { budget: maxTokens, region: !!ref, refOf });
    // A secret field's value, wherever else the page shows it, is taken out of the text.
    return { ...out, text: T.scrubText(out.text), refs: tags.size, capped };
  }

  T.ops.snapshot = snapshot;
})();
