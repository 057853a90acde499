// Page script: finding elements (by text, role, selector), their HTML, and waiting for them.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.find) return;
  const { Refusal, squash, role, name, visible, tagAll, walkElements, resolve, refFor } = T;

  function selectAll(selector) {
    try {
      return T.unvalued(() => Array.from(document.querySelectorAll(selector)));
    } catch (_) {
      throw new Refusal('BAD_ARGS', `${JSON.stringify(selector)} is not a valid CSS selector`);
    }
  }

  // Elements whose own visible text contains `text` (case-insensitive): the innermost such
  // element, not every ancestor that contains it too. With a role, only elements of that role
  // count, so a button is found by the words of the heading inside it.
  function byText(text, wanted) {
    const needle = text.toLowerCase();
    const hits = [];
    walkElements(document.body || document.documentElement, (el) => {
      if (['script', 'style', 'noscript', 'template'].includes(el.localName)) return;
      if (wanted && role(el) !== wanted) return;
      const own = squash(el.innerText ?? el.textContent).toLowerCase();
      const label = name(el).toLowerCase();
      if (!own.includes(needle) && !label.includes(needle)) return;
      if (!visible(el)) return;
      // Drop the ancestors of an element already known to match.
      for (let i = hits.length - 1; i >= 0; i--) if (hits[i].contains(el)) hits.splice(i, 1);
      hits.push(el);
    });
    return hits;
  }

  // Elements named or saying exactly the text first, then those starting with it, then the
  // rest, each in document order: a short name ("N", "Edit") is found among its many containers.
  function exactFirst(found, needle) {
    const rank = (el) => {
      const says = [name(el).toLowerCase(), squash(el.innerText ?? el.textContent).toLowerCase()];
      if (says.includes(needle)) return 0;
      return says.some((s) => s.startsWith(needle)) ? 1 : 2;
    };
    return found
      .map((el, i) => [el, rank(el), i])
      .sort((a, b) => a[1] - b[1] || a[2] - b[2])
      .map(([el]) => el);
  }

  function find({ text, role: wanted, selector, max = 20, prefix = '' }) {
    let found = selector ? selectAll(selector) : text ? byText(text, wanted) : null;
    const tags = tagAll(document.documentElement);
    if (!found) found = [...tags.keys()];
    if (text && selector) {
      const needle = text.toLowerCase();
      const says = (el) => squash(el.innerText ?? el.textContent).toLowerCase().includes(needle);
      found = found.filter((el) => says(el) || name(el).toLowerCase().includes(needle));
    }
    if (wanted) found = found.filter((el) => role(el) === wanted);
    if (text) found = exactFirst(found, text.toLowerCase());
    const total = found.length;
    const scrub = T.scrubber();
    const lines = found
      .slice(0, max)
      .map((el) => scrub(`- ${T.describeLine(el, role(el) || el.localName, name(el), refFor(el, tags), prefix)}`));
    return { lines, total };
  }

  function html({ ref, maxChars = 20000 }) {
    const el = ref ? resolve(ref).el : document.documentElement;
    const full = T.htmlOf(el);
    return {
      html: full.length > maxChars ? full.slice(0, maxChars) : full,
      truncated: full.length > maxChars,
      totalChars: full.length,
    };
  }

  // Polls until the condition holds or `timeoutMs` passes; `state` is "visible" or "hidden", or
  // "attached" or "detached" (in the document or not, shown or not).
  // A cancelled call (`call`, its nonce: sw/cancel.js) stops waiting at its next look.
  async function waitFor({ ref, selector, text, state = 'visible', timeoutMs, call }) {
    const t0 = performance.now();
    const inDocument = state === 'attached' || state === 'detached';
    const shown = (el) => inDocument || visible(el);
    const present = () => {
      if (text != null) return byText(text).length > 0;
      if (selector != null) return selectAll(selector).some(shown);
      try {
        const { el } = resolve(ref);
        return el.isConnected && shown(el);
      } catch (e) {
        if (e.code === 'STALE_REF') return false;
        throw e;
      }
    };
    const wanted = state === 'visible' || state === 'attached';
    for (;;) {
      const ok = present() === wanted;
      const waitedMs = Math.round(performance.now() - t0);
      if (ok) return { met: true, waitedMs };
      if (waitedMs >= timeoutMs || T.halted(call)) return { met: false, waitedMs };
      await T.sleep(50);
    }
  }

  // The element's box in the viewport, after scrolling it into view (for element screenshots).
  function rect({ ref }) {
    const { el } = resolve(ref);
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) throw new Refusal('NOT_ACTIONABLE', 'the element has no size to capture');
    return { rect: { x: r.left, y: r.top, width: r.width, height: r.height } };
  }

  Object.assign(T.ops, { find, html, waitFor, rect });
})();
