// Page script: what makes a table's row one snapshot line (a `tr`, an ARIA `row`, or one of a
// grid of `div` rows of one shape), the line's cells, and the word tests that keep a sentence
// from repeating the name of the one element it holds. snapshot.js writes the lines.
(() => {
  const T = globalThis.__tabpilot;
  if (T.rowOf) return;
  const { squash, cut, role } = T;

  const ROW_TEXT_MAX = 600; // a row with more text than this is layout, not data
  const CELL_MAX = 80; // a lean snapshot's cell keeps this many characters
  const GRID_MIN = 3; // div rows of one shape, at least this many, make a grid...
  const GRID_CELLS = 3; // ...each of at least this many cells
  // What a data row does not hold: a row holding these is layout, walked as before.
  const NOT_DATA = [
    'table', 'tr', '[role=row]', '[role=table]', '[role=grid]', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    '[role=heading]', 'iframe', 'frame', 'select', 'textarea', 'ul', 'ol', 'main', 'nav', 'form',
    'dialog', 'section', 'article', 'p', '[role=listbox]',
  ].join(',');
  const heads = (c) => role(c) === 'columnheader' || (c.localName === 'th' && !c.hasAttribute('role'));

  const wordsOf = (s) => squash(s).toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];

  // Whether every word of `text` is in `name`, so a line saying `text` says nothing more.
  function echoes(text, name) {
    const have = new Set(wordsOf(name));
    const words = wordsOf(text);
    return words.length > 0 && words.every((x) => have.has(x));
  }

  // What `text` says besides `name` when it starts or ends with it (whole words): the rest, and
  // whether it comes after the name; else null.
  function besides(text, name) {
    if (!name || name.length >= text.length || name.endsWith('…')) return null;
    const after = text.startsWith(name) && /^\s/.test(text.slice(name.length));
    const before = !after && text.endsWith(name) && /\s$/.test(text.slice(0, -name.length));
    if (!after && !before) return null;
    const rest = squash(after ? text.slice(name.length) : text.slice(0, -name.length));
    return wordsOf(rest).length ? { text: rest, after } : null;
  }

  // A row's cells as its line says them: ` | ` between, the empty ones at its end left out,
  // each cut in a lean snapshot.
  function joinCells(cells, verbose = false) {
    const out = cells.map((c) => (verbose ? squash(c) : cut(squash(c), CELL_MAX)));
    while (out.length && !out[out.length - 1]) out.pop();
    return out.join(' | ');
  }

  const data = (el) => (el.textContent || '').length <= ROW_TEXT_MAX && !el.querySelector(NOT_DATA);

  // The cells of a `tr` or ARIA row: its element kids.
  function ownRow(el) {
    const cells = [...el.children].filter((c) => c.localName !== 'script' && c.localName !== 'template');
    if (!cells.length || !data(el)) return null;
    return { cells, header: cells.every(heads) };
  }

  // A grid row's shape: how many cells, and their tags; a cell is a `div` or `span` (a control
  // is not a cell, so a box of links is no grid).
  function shapeOf(el) {
    if (el.localName !== 'div' || el.hasAttribute('role') || el.children.length < GRID_CELLS) return null;
    const tags = [...el.children].map((c) => c.localName);
    return tags.every((t) => t === 'div' || t === 'span') ? tags.join() : null;
  }

  // The div rows among `parent`'s kids (each -> whether it is the header): the largest group of
  // one shape, when it has at least GRID_MIN rows of data; its first is the header when its class
  // is not the others'.
  function gridOf(parent) {
    const groups = new Map();
    for (const c of parent.children) {
      const shape = shapeOf(c);
      if (shape) groups.set(shape, [...(groups.get(shape) || []), c]);
    }
    const rows = [...groups.values()].sort((a, b) => b.length - a.length)[0] || [];
    const out = new Map();
    if (rows.length < GRID_MIN || !rows.every(data)) return out;
    const cls = rows[rows.length - 1].className;
    rows.forEach((el, i) => out.set(el, i === 0 && el.className !== cls));
    return out;
  }

  /**
   * The row `el` is, when it is one to write as one line: its cells and whether it is a header;
   * else null. `grids` (a Map) keeps each parent's div rows for its other kids.
   * @returns {?{cells: Element[], header: boolean}}
   */
  function rowOf(el, r, grids) {
    if (el.localName === 'tr' || r === 'row') return ownRow(el);
    const parent = el.parentElement;
    if (!parent || !shapeOf(el)) return null;
    if (!grids.has(parent)) grids.set(parent, gridOf(parent));
    const grid = grids.get(parent);
    return grid.has(el) ? { cells: [...el.children], header: grid.get(el) } : null;
  }

  Object.assign(T, { rowOf, joinCells, echoes, besides });
})();
