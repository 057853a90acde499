// Page script: waiting for the page to settle after an action, and moving through history.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.settle) return;

  const QUIET_MS = 50; // once the DOM changes, it counts as settled after this long unchanged

  // until: "load" waits for the document to finish loading; "auto" also for the DOM to stop
  // changing: a page that does not change within two turns of its event loop is settled at
  // once, so an action with no visible effect costs no fixed delay. Resolves
  // { settled, waitedMs } by maxMs at the latest.
  async function settle({ until = 'auto', maxMs = 1000 }) {
    const t0 = performance.now();
    const deadline = t0 + maxMs;
    while (document.readyState !== 'complete' && performance.now() < deadline) await T.sleep(20);
    let settled = document.readyState === 'complete';
    if (until === 'auto' && settled) {
      let last = null;
      const observer = new MutationObserver(() => {
        last = performance.now();
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      await T.sleep(0);
      await T.sleep(0);
      while (last !== null && performance.now() - last < QUIET_MS && performance.now() < deadline) await T.sleep(10);
      observer.disconnect();
      settled = last === null || performance.now() - last >= QUIET_MS;
    }
    return { settled, waitedMs: Math.round(performance.now() - t0) };
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

  T.ops.settle = settle;
  T.ops.go = go;
})();
