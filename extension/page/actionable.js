// Page script (kit): visibility and actionability. Before a page action, the element must be
// visible and enabled; where the action reads a point from its box, also stable, and where the
// events go to that point (a click), also not covered. A failing check is waited out for a
// moment, then refused with what failed.
(() => {
  const T = globalThis.__tabpilot;
  if (T.actionable) return;
  const { Refusal, sleep, describeEl } = T;

  function visible(el) {
    if (!el.checkVisibility) {
      const r = el.getBoundingClientRect();
      return r.width > 0 || r.height > 0;
    }
    if (el.checkVisibility({ checkOpacity: false, checkVisibilityCSS: true })) return true;
    // A wrapper with no box of its own (`display: contents`, as React apps wrap portals and
    // listboxes) shows what it holds: it counts as shown when something in it is.
    const style = getComputedStyle(el);
    if (style.display !== 'contents' || style.visibility === 'hidden') return false;
    return [...el.childNodes].some((n) => (n.nodeType === 1 ? visible(n) : n.nodeType === 3 && /\S/.test(n.data)));
  }

  const ACT_WAIT_MS = 1000; // how long a failing check is waited out before the refusal
  const POLL_MS = 50;
  // Two looks at the box at least this far apart: one frame. Timers, not requestAnimationFrame,
  // which does not run in the background tabs agents work in.
  const STABLE_MS = 16;
  // A sleep comes back later than asked, by its message there and back (1.3 ms or more here), so
  // the stability look asks for this much less, measures the gap, and tops it up if it fell short.
  const SLEEP_LAG_MS = 1;
  // What an action needs of its element. An action that writes to the element itself (typing,
  // a value, an option) lands wherever the box is, so a moving element takes it as well as a
  // still one: that skips the frame the stability look costs.
  const NEEDS = {
    pointer: { stable: true, uncovered: true }, // events at a point in the box: a click, a hover
    point: { stable: true, uncovered: false }, // a point read from the box: where a drag drops
    // An element an EditContext gives its input to (Monaco's) may have no box of its own: the
    // editor draws its text elsewhere, and keys reach it by focus.
    input: { stable: false, uncovered: false, sizeless: (el) => !!el.editContext },
  };

  // A page that posted a message this recently may be running a message loop: how a page moves
  // things where its timers are held back. On a busy machine such a loop stalls for tens of ms at
  // a time, so a quiet moment in it is no sign of an element at rest.
  const LOOP_MS = 100;

  // Whether a page running a message loop has had a turn a frame or more after `since` (ms since
  // the epoch): on a busy machine the sleep's answer can come before the page ran at all, and a
  // look across no page work proves nothing. True where no loop runs.
  function pageRan(since) {
    const q = T.activity(Date.now())?.quiet;
    if (!q || q.posted === null) return true;
    const last = Date.now() - q.posted;
    return last >= since + STABLE_MS || last < since - LOOP_MS;
  }

  // Whether nothing could move the element in the frame the stability look would watch: no
  // animation or transition runs, and the main-world observer (activity.js) says no timer of the
  // page's is due, no animation frame callback of the page's waits (or the document is hidden, so
  // none runs) and no message loop runs.
  // What it does not see (a response arriving, a worker's message) moves an element at one
  // moment, not over a frame, and the events go to the box read in the same task either way.
  // A page that lies here only skips its own element's stability look.
  function still() {
    const q = T.activity(Date.now())?.quiet;
    if (!q || (q.visible && q.frames !== false)) return false;
    if ((q.next !== null && !(q.next > STABLE_MS)) || (q.posted !== null && !(q.posted > LOOP_MS))) return false;
    return document.getAnimations().every((a) => a.playState !== 'running');
  }

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
  async function look(el, need) {
    if (!el.isConnected) throw new Refusal('STALE_REF', 'the element left the page');
    if (!visible(el)) return { why: 'not visible' };
    if (disabled(el)) return { why: 'disabled' };
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const a = el.getBoundingClientRect();
    if (need.sizeless?.(el)) return { x: a.left, y: a.top };
    if (a.width === 0 || a.height === 0) return { why: 'not visible (no size)' };
    let b = a;
    if (need.stable && !still()) {
      const t = performance.now();
      const since = Date.now();
      await sleep(STABLE_MS - SLEEP_LAG_MS);
      const short = STABLE_MS - (performance.now() - t);
      if (short > 0) await sleep(short);
      for (const end = performance.now() + LOOP_MS; !pageRan(since) && performance.now() < end; ) await sleep(4);
      b = el.getBoundingClientRect();
      if (a.x !== b.x || a.y !== b.y || a.width !== b.width || a.height !== b.height) {
        return { why: 'not stable (moving)' };
      }
    }
    const x = b.left + b.width / 2;
    const y = b.top + b.height / 2;
    if (!need.uncovered) return { x, y };
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return { why: 'outside the viewport' };
    const hit = hitAt(x, y);
    const ok = !hit || within(el, hit) || Array.from(el.labels || []).some((l) => within(l, hit));
    return ok ? { x, y } : { why: `covered by ${describeEl(hit)}` };
  }

  // Visible and enabled, and what `need` adds (a key of NEEDS); a failing check is polled for up
  // to ACT_WAIT_MS (a banner fading out, a button enabling) before the refusal names it.
  // A call cancelled meanwhile (`call`, its nonce) stops here: its action is never done.
  async function actionable(el, need, call = undefined, waitMs = ACT_WAIT_MS) {
    const t0 = performance.now();
    for (;;) {
      T.halt(call, 'the element was still being checked; nothing was done');
      const r = await look(el, NEEDS[need]);
      T.halt(call, 'the element was still being checked; nothing was done');
      if (!r.why) return r;
      const waited = performance.now() - t0;
      if (waited >= waitMs) {
        throw new Refusal('NOT_ACTIONABLE', `${describeEl(el)} is ${r.why} (checked for ${Math.round(waited)} ms)`);
      }
      await sleep(POLL_MS);
    }
  }

  Object.assign(T, { visible, actionable, within, hitAt });
})();
