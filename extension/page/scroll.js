// Page script: scrolling the page, a container, or an element into view. Many apps keep the
// document still and scroll a panel inside it; with no ref, that panel is scrolled when it is the
// one that dominates, and a choice between several is refused rather than guessed.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.scroll) return;
  const { Refusal, resolve, describeEl, visible, walkElements, tagAll } = T;

  const AXIS = { up: 'y', down: 'y', left: 'x', right: 'x' };
  const SIGN = { up: -1, down: 1, left: -1, right: 1 };
  const WORD = { up: 'the top', down: 'the bottom', left: 'the left end', right: 'the right end' };

  function scrolls(el, axis) {
    const style = getComputedStyle(el);
    if (!/auto|scroll|overlay/.test(axis === 'y' ? style.overflowY : style.overflowX)) return false;
    return axis === 'y' ? el.scrollHeight > el.clientHeight + 1 : el.scrollWidth > el.clientWidth + 1;
  }

  function pageScrolls(axis) {
    const se = document.scrollingElement || document.documentElement;
    const room = axis === 'y' ? se.scrollHeight - innerHeight : se.scrollWidth - innerWidth;
    if (room <= 1) return false;
    const prop = axis === 'y' ? 'overflowY' : 'overflowX';
    return ![document.documentElement, document.body].some(
      (el) => el && /hidden|clip/.test(getComputedStyle(el)[prop]),
    );
  }

  function visibleArea(el) {
    const r = el.getBoundingClientRect();
    const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
    const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
    return w > 0 && h > 0 ? w * h : 0;
  }

  // A ref an agent can pass back to scroll this container: its own, else the first element
  // inside it that has one (a ref inside a container scrolls that container).
  function handle(el, tags) {
    if (tags.has(el)) return tags.get(el);
    for (const inner of el.querySelectorAll('*')) if (tags.has(inner)) return tags.get(inner);
    return null;
  }

  // The nearest element around `el` (itself included, through shadow roots) that scrolls on
  // `axis`; null for the page.
  function scroller(el, axis) {
    for (let n = el; n && n !== document.documentElement; n = n.parentNode || n.host) {
      if (n.nodeType === 1 && n !== document.body && scrolls(n, axis)) return n;
    }
    return null;
  }

  function by(el, direction, amount) {
    const axis = AXIS[direction];
    const box = el || document.scrollingElement || document.documentElement;
    const pos = () => (axis === 'y' ? box.scrollTop : box.scrollLeft);
    const view = el ? (axis === 'y' ? el.clientHeight : el.clientWidth) : axis === 'y' ? innerHeight : innerWidth;
    const step = amount ?? Math.round(view * 0.8);
    const from = pos();
    box.scrollBy({ [axis === 'y' ? 'top' : 'left']: SIGN[direction] * step, behavior: 'instant' });
    const to = Math.round(pos());
    const max = Math.round(axis === 'y' ? box.scrollHeight - box.clientHeight : box.scrollWidth - box.clientWidth);
    const what = el ? describeEl(el) : 'the page';
    const summary =
      to === Math.round(from)
        ? `${what} did not move: already at ${WORD[direction]}`
        : `Scrolled ${what} ${direction} ${Math.abs(to - Math.round(from))} px (now at ${to} of ${max})`;
    return { summary, scrolled: to !== Math.round(from), target: what, from: Math.round(from), to, max };
  }

  // To a position: `x`, `y` or both, in px of the page or of `el`.
  function at(el, x, y) {
    const box = el || document.scrollingElement || document.documentElement;
    const axis = y !== undefined ? 'y' : 'x';
    const pos = () => Math.round(axis === 'y' ? box.scrollTop : box.scrollLeft);
    const from = pos();
    box.scrollTo({ left: x ?? box.scrollLeft, top: y ?? box.scrollTop, behavior: 'instant' });
    const to = pos();
    const max = Math.round(axis === 'y' ? box.scrollHeight - box.clientHeight : box.scrollWidth - box.clientWidth);
    const what = el ? describeEl(el) : 'the page';
    const now = `x ${Math.round(box.scrollLeft)}, y ${Math.round(box.scrollTop)}`;
    const off = (asked, now) => asked !== undefined && Math.round(now) !== asked;
    const short = off(x, box.scrollLeft) || off(y, box.scrollTop);
    const asked = [x !== undefined && `x ${x}`, y !== undefined && `y ${y}`].filter(Boolean).join(', ');
    const summary = `Scrolled ${what} to ${now}${short ? ` (as far as it goes; asked ${asked})` : ''}`;
    return { summary, scrolled: to !== from, target: what, from, to, max };
  }

  function intoView(el) {
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    const shown = visible(el) && r.bottom > 0 && r.top < innerHeight;
    return {
      summary: `Scrolled ${describeEl(el)} into view${shown ? '' : ' (it is still not visible)'}`,
      scrolled: true,
      target: describeEl(el),
    };
  }

  function bySelector(selector) {
    let el;
    try {
      el = document.querySelector(selector);
    } catch {
      throw new Refusal('BAD_ARGS', `${JSON.stringify(selector)} is not a CSS selector`);
    }
    if (!el) throw new Refusal('NOT_FOUND', `nothing on the page matches ${JSON.stringify(selector)}`);
    return intoView(el);
  }

  // The page, or the one panel that dominates it, that scrolls on `axis` (null for the page);
  // undefined when nothing does.
  function dominant(axis) {
    if (pageScrolls(axis)) return null;
    const found = [];
    walkElements(document.body || document.documentElement, (el) => {
      if (el !== document.body && visible(el) && scrolls(el, axis)) {
        const area = visibleArea(el);
        if (area > 0) found.push({ el, area });
      }
    });
    if (!found.length) return undefined;
    found.sort((a, b) => b.area - a.area);
    // One panel dominates when it shows at least twice the area of the next one.
    if (found.length === 1 || found[0].area >= 2 * found[1].area) return found[0].el;
    const tags = tagAll(document.documentElement);
    const listed = found.slice(0, 5).map(({ el, area }) => {
      const ref = handle(el, tags);
      return `${describeEl(el)} (${Math.round(area / 1000)}k px²${ref ? `, ref=${ref}` : ''})`;
    });
    throw new Refusal(
      'ELEMENT_AMBIGUOUS',
      `the page does not scroll and ${found.length} panels do, none dominant: ${listed.join('; ')}; ` +
        "nothing was scrolled. Give browser_scroll one's ref (or a ref inside it) with the direction",
    );
  }

  function scroll({ ref, direction, amount, x, y, selector }) {
    if (selector !== undefined) return bySelector(selector);
    const axis = direction ? AXIS[direction] : y !== undefined ? 'y' : 'x';
    const move = (box) => (direction ? by(box, direction, amount) : at(box, x, y));
    if (ref !== undefined && ref !== null) {
      const { el } = resolve(ref);
      if (!direction && x === undefined && y === undefined) return intoView(el);
      const box = scroller(el, axis);
      if (!box && !pageScrolls(axis)) {
        throw new Refusal('NOT_ACTIONABLE', `nothing around ${describeEl(el)} scrolls ${direction || 'there'}`);
      }
      return move(box);
    }
    const box = dominant(axis);
    if (box === undefined) {
      const way = axis === 'y' ? 'vertically' : 'sideways';
      return { summary: `Nothing on the page scrolls ${way}`, scrolled: false, target: null };
    }
    return move(box);
  }

  T.ops.scroll = scroll;
})();
