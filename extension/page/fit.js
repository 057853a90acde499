// Page script: holding a snapshot's outline to a token budget, and writing it out as lines.
//
// Past the budget the outline keeps its structure and gives up detail where it matters least,
// in this order, each step taken only while still over and only as far as needed: long runs of
// similar siblings outside the main content (nav links, footer lists) show their first ones and
// a summary line; then the regions outside the main content (banner, navigation, complementary,
// contentinfo, and what stands beside <main>) collapse whole; then long runs inside the main
// content, the last in the page first; then the main content's sections, the last first (all
// after a heading but its first block, then that too); last, what is left is cut at the budget,
// each level summing up the rest. A summary line says how many of what it hides and
// carries the ref and offset that show them: `- … 996 more rows: 996 buttons [ref=e5k2a] [offset=4]`.
(() => {
  const T = globalThis.__tabpilot;
  if (T.fit) return;
  const { LANDMARKS } = T;

  // Tokens are counted the way the benchmark counts them, o200k, estimated here (there is no
  // tokenizer in the page): the text is split the way o200k's pre-tokenizer splits it, and each
  // piece costs what such pieces cost on snapshot text. Checked against real o200k counts in the
  // end-to-end tests; it errs high.
  // A ref's random letters and digits split unpredictably: 5 to 10 tokens, 7.4 on average.
  const REF = new RegExp(` \\[ref=${globalThis.__tabpilotContract.REF.pattern}\\]`, 'g');
  const PIECES = /[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+/gu;
  // A word: one token when common and short; long ones split. What the page cannot tell from
  // a common word costs more: a name (capitalised) or a piece glued to punctuation (an email's
  // parts) half a token, each accented letter one; beyond Latin, Greek and Cyrillic, about one a
  // letter. On a people table (names, emails) o200k took 29% more than length alone gave.
  function word(p, c) {
    const glued = !/\p{L}/u.test(p[0]);
    const w = glued ? p.slice(1) : p;
    if (c > 0x4ff) return w.length;
    const odd = w.length >= 4 && (glued || /^\p{Lu}/u.test(w)) ? 0.5 : 0;
    const accents = w.replace(/[\x00-\x7f]/g, '').length;
    return (w.length <= 7 ? 1 : 1 + Math.ceil((w.length - 7) / 3)) + odd + accents;
  }

  // Punctuation, symbols and digits beyond ASCII: ASCII marks pair up into tokens; the common
  // typographic marks are one each; any other (an arrow, ⌘, an emoji, a digit of another
  // script) takes o200k up to three bytes' tokens, counted two.
  const COMMON_MARKS = new Set('–—…‘’“”•·→←©®™€£¥°×«»');
  function marks(p) {
    let ascii = 0;
    let other = 0;
    for (const ch of p.trim()) {
      if (ch.codePointAt(0) < 0x80) ascii++;
      else other += COMMON_MARKS.has(ch) ? 1 : 2;
    }
    return Math.ceil(ascii / 2) + other || 1;
  }

  function tokens(text) {
    let n = 0;
    text = text.replace(REF, (...found) => {
      n += found.at(-1).twin ? 9.5 : 7.5;
      return '';
    });
    for (const [p] of text.matchAll(PIECES)) {
      const c = p.charCodeAt(0);
      if (/\p{L}/u.test(p)) n += word(p, c);
      else if (c >= 48 && c <= 57) n += 1;
      else if (/^\s+$/.test(p)) n += 1;
      else n += marks(p);
    }
    return n;
  }

  const RUN_MIN = 6; // a run this long collapses under pressure...
  const RUN_KEEP = 3; // ...to its first few
  const OPTIONS_MAX = 12; // a list of options longer than this always shows only...
  const OPTIONS_KEEP = 10; // ...its first ones (the selected ones are in the field's value)
  // A closed drop-down's options are not on screen, carry no refs (browser_select_option takes
  // their labels) and its value names the chosen one: past a few, its first ones say what kind
  // of list it is, and its summary's ref lists the rest.
  const DROPDOWN_MAX = 5;
  const DROPDOWN_KEEP = 3;
  const RESERVE = 24; // what a summary line costs, kept free when cutting
  const MIN_CUT = 120; // a block is cut inside only with this much room left for it
  const SIDE = new Set(['banner', 'navigation', 'complementary', 'contentinfo']);
  const NOUNS = {
    tr: 'rows', li: 'items', option: 'options', dt: 'terms', dd: 'definitions', p: 'paragraphs',
    details: 'details', section: 'sections', article: 'articles', text: 'text lines', link: 'links',
  };
  const COUNTED = ['link', 'button', 'textbox', 'checkbox', 'radio', 'combobox', 'option', 'heading', 'frame'];

  const lineOf = (n, depth) => `${'  '.repeat(depth)}- ${n.line}`;
  // A written line's cost, its line break included: o200k takes a break after punctuation (a
  // ref's `]`, a landmark's `:`) in the same token, after a word or a number in one of its own.
  const cost = (line) => tokens(line) + (/[\p{L}\p{N}]$/u.test(line) ? 1 : 0);

  // Each node learns its parent, depth, place in the document, own cost and subtree cost.
  let order = 0;
  function measure(n, up, depth) {
    n.up = up;
    n.at = order++;
    n.own = n.frame ? 8 : n.line != null ? cost(lineOf(n, depth)) : 0;
    const inner = n.line != null ? depth + 1 : depth;
    n.depth = depth;
    n.sum = n.own;
    for (const k of n.kids) n.sum += measure(k, n, inner);
    return n.sum;
  }

  const grow = (n, delta) => {
    for (let p = n; p; p = p.up) p.sum += delta;
  };

  // A layer the page opens over itself, often rendered at the end of the body (a portal): what
  // the person looks at while it is open, so it counts as main content wherever it stands.
  const POPUPS = new Set(['listbox', 'menu', 'dialog', 'alertdialog']);
  // The popup layers outside the side landmarks (a menu in the navigation stays the navigation's).
  function popupsOf(n, out = new Set()) {
    if (SIDE.has(n.role) && n.line != null) return out;
    if (POPUPS.has(n.role) && n.line != null) return out.add(n);
    for (const k of n.kids) popupsOf(k, out);
    return out;
  }

  // Where a node stands: in the main content, outside it, or on the way down to it.
  function zones(root) {
    let main = null;
    const find = (n) => {
      if (!main && n.role === 'main' && n.line != null) main = n;
      for (const k of n.kids) if (!main) find(k);
    };
    find(root);
    const popups = popupsOf(root);
    const path = new Set();
    for (const top of [main, ...popups]) for (let p = top?.up; p; p = p.up) path.add(p);
    // Without a <main>, everything is main content but the side landmarks.
    const mark = (n, zone) => {
      n.zone = zone;
      for (const k of n.kids) {
        let z = zone;
        if (k === main || popups.has(k)) z = 'main';
        else if (path.has(k) && zone !== 'main') z = 'path';
        else if (zone === 'path') z = 'side';
        else if (!main && zone === 'main' && SIDE.has(k.role) && k.line != null) z = 'side';
        mark(k, z);
      }
    };
    mark(root, main && main !== root ? 'path' : 'main');
  }

  const attached = (n, root) => {
    for (let p = n; p; p = p.up) if (p === root) return true;
    return false;
  };

  const plural = (word) => NOUNS[word] || `${word}${/(x|s|ch)$/.test(word) ? 'es' : 's'}`;
  // What a run of kids is, in a word: rows, items, links; "blocks" for a mix.
  const nounOf = (kids) => {
    const sig = kids[0].sig;
    if (!sig || kids.some((k) => k.sig !== sig)) return 'blocks';
    const tag = sig.split('.')[0];
    if (NOUNS[tag]) return NOUNS[tag];
    return kids[0].line != null && kids[0].role !== 'text' ? plural(kids[0].role) : 'blocks';
  };

  // Replaces kids[from, to) of `n` by one summary line.
  function summarize(n, from, to, ctx) {
    const gone = n.kids.slice(from, to);
    if (!gone.length) return;
    const counts = new Map();
    let items = 0;
    const count = (k) => {
      if (k.summary) {
        for (const [r, c] of k.counts) counts.set(r, (counts.get(r) || 0) + c);
        return;
      }
      if (k.frame) ctx.hidden.push(k.frame);
      const r = k.frame ? 'frame' : k.role;
      for (const h of [r, ...(k.holds || [])]) {
        if ((k.line != null || k.frame) && COUNTED.includes(h)) counts.set(h, (counts.get(h) || 0) + 1);
      }
      k.kids.forEach(count);
    };
    for (const k of gone) {
      count(k);
      items += k.summary ? k.items : 1;
    }
    const first = gone[0].i;
    const noun = items === 1 ? 'block' : gone.some((k) => k.summary) ? 'blocks' : nounOf(gone);
    // What it hides, unless the noun said it all ("6 more links", not "6 more links: 6 links").
    const shown = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 4);
    const said = shown.length === 1 && shown[0][1] === items && plural(shown[0][0]) === noun;
    const what = said ? '' : shown.map(([r, c]) => `${c} ${c > 1 ? plural(r) : r}`).join(', ');
    const at = first ? ` [offset=${first}]` : '';
    const line = `… ${items} ${first ? 'more ' : ''}${noun}${what ? `: ${what}` : ''} [ref=${ctx.refOf(n.el)}]${at}`;
    const s = { line, summary: true, counts, items, el: null, role: null, sig: null, kids: [], i: first, up: n };
    s.depth = n.line != null ? n.depth + 1 : n.depth;
    s.own = cost(lineOf(s, s.depth));
    s.sum = s.own;
    const before = gone.reduce((a, k) => a + k.sum, 0);
    for (const k of gone) k.by = s;
    n.kids.splice(from, to - from, s);
    grow(n, s.sum - before);
  }

  // Runs of similar siblings among a node's kids, as [from, to) pairs.
  function runsOf(n) {
    const out = [];
    let start = 0;
    for (let k = 1; k <= n.kids.length; k++) {
      const sig = n.kids[start].sig;
      if (k < n.kids.length && sig && n.kids[k].sig === sig) continue;
      if (sig && k - start >= RUN_MIN) out.push([start, k]);
      start = k;
    }
    return out;
  }

  // Stretches of a node's kids between headings, as [from, to) pairs.
  function sectionsOf(n) {
    const out = [];
    let start = 0;
    for (let k = 0; k <= n.kids.length; k++) {
      if (k < n.kids.length && n.kids[k].role !== 'heading') continue;
      if (k > start) out.push([start, k]);
      start = k + 1;
    }
    return out;
  }

  // The candidates of one step, in document order: [node, first kid it may hide, last kid].
  function candidates(root, pick) {
    const out = [];
    const walk = (n) => {
      if (n.el) for (const [from, to] of pick(n)) if (to > from) out.push([n, n.kids[from], n.kids[to - 1]]);
      for (const k of n.kids) walk(k);
    };
    walk(root);
    return out;
  }

  const sizeOf = ([n, a, b]) => n.kids.slice(n.kids.indexOf(a), n.kids.indexOf(b) + 1).reduce((s, k) => s + k.sum, 0);

  // Collapses candidates until the outline fits: the largest first, or the last in the document
  // first (`late`); each whole, or only as far as needed (`shed`).
  function step(root, budget, ctx, pick, { late = false, whole = false } = {}) {
    const rank = late ? ([, a]) => a.at : sizeOf;
    const list = candidates(root, pick)
      .map((c) => [c, rank(c)])
      .sort((x, y) => y[1] - x[1])
      .map(([c]) => c);
    const over = () => root.sum - budget;
    // A kid hidden by an earlier summary is found as that summary.
    const now = (k) => {
      while (k.by) k = k.by;
      return k;
    };
    for (const [n, a, b] of list) {
      if (over() <= 0) return;
      if (!attached(n, root)) continue;
      const from = n.kids.indexOf(now(a));
      const to = n.kids.indexOf(now(b)) + 1;
      if (from < 0 || to <= from) continue;
      if (whole) summarize(n, from, to, ctx);
      else shed(n, from, to, ctx, over);
    }
  }

  // Hides the kids [from, to) of `n` from the last back, until `over()` is paid off. A kid that
  // is far bigger than what is still owed is not hidden whole: its own tail goes instead.
  // A summary that would cost about what it hides is not made.
  function shed(n, from, to, ctx, over) {
    let k = to;
    let hidden = 0;
    while (k > from && hidden - RESERVE < over()) {
      const kid = n.kids[k - 1];
      const still = over() - Math.max(0, hidden - RESERVE);
      if (kid.el && kid.kids.length && !kid.summary && kid.sum > 2 * still + MIN_CUT) {
        if (hidden > RESERVE * 2) summarize(n, k, to, ctx);
        shed(kid, 0, kid.kids.length, ctx, over);
        return;
      }
      hidden += kid.sum;
      k--;
    }
    if (hidden > RESERVE * 2) summarize(n, k, to, ctx);
  }

  // What each step may collapse.
  const runs = (zone) => (n) =>
    (zone === 'side') === (n.zone === 'side') ? runsOf(n).map(([a, b]) => [a + RUN_KEEP, b]) : [];
  // A section's tail after its first block, then the first block too.
  const sections = (n) =>
    n.zone !== 'side' && (!n.role || LANDMARKS.has(n.role)) && n.kids.some((k) => k.role === 'heading')
      ? sectionsOf(n).flatMap(([a, b]) => [[a + 1, b], [a, b]])
      : [];
  // A region outside the main content: its kids, from the outermost node of it.
  const regions = (n) => (n.zone === 'side' && n.up?.zone !== 'side' ? [[0, n.kids.length]] : []);

  // Cuts the outline at the budget: kids that fit are kept in order, the first that does not
  // is cut inside when there is room for some of it, and the rest is summed up.
  function cutAt(n, budget, ctx) {
    let used = n.own;
    for (let k = 0; k < n.kids.length; k++) {
      const kid = n.kids[k];
      const room = budget - used - (k < n.kids.length - 1 ? RESERVE : 0);
      if (kid.sum <= room) {
        used += kid.sum;
        continue;
      }
      if (kid.el && kid.kids.length && !kid.summary && room - kid.own >= MIN_CUT) {
        cutAt(kid, room, ctx);
        used += kid.sum;
        k++;
      }
      if (k < n.kids.length) summarize(n, k, n.kids.length, ctx);
      return;
    }
  }

  // Long option lists always show only their first options.
  function options(n, ctx, top) {
    for (const k of [...n.kids]) options(k, ctx, top);
    const dropdown = n.el?.localName === 'select' && !n.el.multiple && n.el.size <= 1;
    const [max, keep] = dropdown ? [DROPDOWN_MAX, DROPDOWN_KEEP] : [OPTIONS_MAX, OPTIONS_KEEP];
    if (n === top || n.kids.length <= max || n.kids.some((k) => k.role !== 'option')) return;
    summarize(n, keep, n.kids.length, ctx);
  }

  // The lines, and how many of them are summaries.
  function render(root) {
    const lines = [];
    let collapsed = 0;
    const put = (n, depth) => {
      if (n.frame) {
        lines.push(`${'  '.repeat(depth)}\u0000frame:${n.frame}`);
        return;
      }
      if (n.summary) collapsed++;
      if (n.line != null) lines.push(lineOf(n, depth));
      const inner = n.line != null ? depth + 1 : depth;
      for (const k of n.kids) put(k, inner);
    };
    put(root, 0);
    return { text: lines.join('\n'), collapsed };
  }

  /**
   * Holds the outline to `budget` tokens (none: the whole outline) and writes it out. A region
   * (`browser_snapshot {ref}`) is paged rather than collapsed at its own level, so its kids come
   * in order, as many as fit.
   * @returns {{text: string, tokens: number, collapsed: number, hidden: string[]}}
   */
  function fit(root, { budget, region, refOf }) {
    measure(root, null, 0);
    const ctx = { refOf, hidden: [] };
    if (budget) {
      options(root, ctx, region ? root : null);
      if (region && root.sum > budget) {
        // A first kid too big for a page on its own is fitted like a page; then the page ends
        // where the budget does.
        const first = root.kids[0];
        const room = budget - root.own - RESERVE;
        if (first && first.sum > room && first.el && !first.summary) fitPage(first, room, ctx);
        cutAt(root, budget, ctx);
      } else if (!region) fitPage(root, budget, ctx);
    }
    return { ...render(root), tokens: Math.ceil(root.sum), hidden: ctx.hidden };
  }

  function fitPage(root, budget, ctx) {
    if (root.sum <= budget) return;
    zones(root);
    const steps = [
      [runs('side')],
      [regions, { whole: true }],
      [runs('main'), { late: true }],
      [sections, { late: true }],
    ];
    for (const [pick, how] of steps) {
      step(root, budget, ctx, pick, how);
      if (root.sum <= budget) return;
    }
    cutAt(root, budget, ctx);
  }

  Object.assign(T, { fit, tokens });
})();
