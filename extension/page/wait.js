// Page script: waiting for the page to settle after an action, and moving through history.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.settle) return;

  const QUIET_MS = 50; // once the DOM changes, it counts as settled after this long unchanged

  // Resolves { settled } once the DOM has not changed for QUIET_MS, or at `end`: a page that
  // does not change within two turns of its event loop is settled at once, so an action with no
  // visible effect costs no fixed delay.
  async function domQuiet(end, call) {
    let last = null;
    const observer = new MutationObserver(() => {
      last = performance.now();
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    await T.turn();
    await T.turn();
    const waiting = () => last !== null && performance.now() - last < QUIET_MS && performance.now() < end;
    while (waiting() && !T.halted(call)) await T.sleep(10);
    observer.disconnect();
    return last === null || performance.now() - last >= QUIET_MS;
  }

  // `auto` with the observer: waits until nothing begun since `since` is pending (requests,
  // short timers), then for the DOM; again if the DOM's turn started more. A navigation seen
  // meanwhile is reported; one that leaves the document ends the wait, since the service worker
  // waits for the next document.
  async function quiet(since, end, call) {
    let seen = null;
    let wake = () => {};
    const onNavigate = (e) => {
      // A link with `download` starts a download, which leaves the document where it is.
      if (e.downloadRequest !== null && e.downloadRequest !== undefined) return;
      seen = { url: e.destination.url, sameDocument: e.destination.sameDocument };
      wake();
    };
    const onChange = () => wake();
    // A cancelled call (sw/cancel.js) stops waiting at once.
    const unwatch = T.whenCancelled(() => wake());
    const nav = globalThis.navigation;
    nav?.addEventListener('navigate', onNavigate);
    window.addEventListener('tabpilot-activity-change', onChange);
    let timeUp = null;
    // A page that stops answering (it can, being the page) counts as an observer put in just now.
    const look = (watch) => T.activity(since, watch) || { pending: 0, from: Date.now() };
    try {
      for (let a = look(true); ; a = look()) {
        if (seen && !seen.sameDocument) return { settled: false, from: a.from, navigation: seen };
        if (T.halted(call)) return { settled: false, from: a.from, navigation: seen, cancelled: true };
        if (a.pending === 0) {
          const settled = await domQuiet(end, call);
          const again = look();
          if (again.pending === 0 || performance.now() >= end) {
            return { settled: settled && again.pending === 0, from: a.from, navigation: seen };
          }
          continue;
        }
        if (performance.now() >= end) return { settled: false, from: a.from, navigation: seen };
        timeUp ??= T.sleep(end - performance.now());
        await Promise.race([timeUp, new Promise((r) => (wake = r))]);
      }
    } finally {
      T.activity(since, false);
      unwatch();
      nav?.removeEventListener('navigate', onNavigate);
      window.removeEventListener('tabpilot-activity-change', onChange);
    }
  }

  // until: "load" waits for the document to finish loading; "dom" also for the DOM to stop
  // changing; "auto" first for the work begun since `since` to end, as the main-world observer
  // sees it, then for the DOM ({ observed: false } at once when the document has no observer:
  // the service worker then waits on the browser's reports of requests instead). Bounded by
  // maxMs and by `deadline` (ms since the epoch). Resolves { settled, waitedMs, observed?, from?,
  // navigation? }.
  async function settle({ until = 'dom', maxMs = 1000, since = 0, deadline = Infinity, call }) {
    const t0 = performance.now();
    const end = t0 + Math.max(0, Math.min(maxMs, deadline - Date.now()));
    const waited = (r) => ({ ...r, waitedMs: Math.round(performance.now() - t0) });
    if (until === 'auto' && !T.activity(since)) return waited({ settled: false, observed: false });
    while (document.readyState !== 'complete' && performance.now() < end) await T.sleep(20);
    if (document.readyState !== 'complete') return waited({ settled: false, observed: until === 'auto' });
    if (until === 'load') return waited({ settled: true });
    if (until === 'auto') return waited({ ...(await quiet(since, end, call)), observed: true });
    return waited({ settled: await domQuiet(end, call) });
  }

  // Goes one step back or forward, as the page's own history does (the browser's back button
  // skips entries made without a user gesture; an agent's navigations are all such entries).
  function go({ direction }) {
    const nav = globalThis.navigation;
    const can = direction === 'back' ? nav.canGoBack : nav.canGoForward;
    if (!can) throw new T.Refusal('NAVIGATION_FAILED', `there is no page ${direction} in this tab's history`);
    if (direction === 'back') history.back();
    else history.forward();
    return { started: true };
  }

  // Whether a loaded page is still drawing itself, as a person would see it: null when nothing
  // says so, else what does. A progress bar, a busy region or a loading skeleton shown; a splash
  // screen over the middle of the view (an element named for one, as JupyterLab's is, half the
  // view or more); or a main content with no text and nothing to see yet while the page's requests, short timers
  // or socket messages are under way (Streamlit before its first run).
  const SPLASH = /splash|loading|loader|spinner|preload/i;
  const SEEN = 'img, svg, canvas, video, iframe, input, select, textarea, button';
  // Loading skeletons, by the name every toolkit gives them (MUI, Ant, Chakra, Streamlit's).
  const PLACEHOLDERS = '[class*=skeleton i], [id*=skeleton i], [data-testid*=skeleton i]';
  function drawing() {
    const busy = [...document.querySelectorAll('[role=progressbar], progress, [aria-busy=true]')].find(T.visible);
    if (busy) return busy.matches('[aria-busy=true]') ? 'a part of it is marked busy' : 'a progress bar shows';
    const stand = [...document.querySelectorAll(PLACEHOLDERS)].find(T.visible);
    if (stand) return 'placeholders stand where its content will be';
    const half = (r) => r.width * r.height >= (innerWidth * innerHeight) / 2;
    for (let el of document.elementsFromPoint(innerWidth / 2, innerHeight / 2)) {
      for (; el && el !== document.body; el = el.parentElement) {
        const named = `${el.id} ${typeof el.className === 'string' ? el.className : ''}`;
        if (SPLASH.test(named) && half(el.getBoundingClientRect())) return 'a splash screen covers it';
      }
    }
    const main = document.querySelector('main, [role=main]') || document.body;
    if (!main || main.innerText.trim() || [...main.querySelectorAll(SEEN)].some(T.visible)) return null;
    // Empty, and its scripts still at work (a blank page is done).
    return T.activity(0)?.pending > 0 ? 'its main content is still empty' : null;
  }

  T.ops.drawing = drawing;
  T.ops.settle = settle;
  T.ops.go = go;
})();
