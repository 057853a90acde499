// Page script: handing the element of a ref to the page's main world, for browser_eval. The two
// worlds share the DOM but no JavaScript objects, so the element crosses as the target of an
// event. The service worker picks two one-shot random event names; this side arms a listener
// for the first, `ask`, on the window. The main-world side listens for the second, `give`, on
// the window in the capture phase, dispatches `ask`, and this side answers by dispatching `give`
// on the element (composed, so it crosses open shadow roots), all in one synchronous turn. The
// main world reads the element from the event's composed path and stops the event there.
// A page cannot observe or spoof this cheaply: nothing is written to the DOM (a temporary
// attribute would show in a MutationObserver), the names are unguessable and used once, and
// hearing them takes replacing the DOM's own methods in the main world, which gives a page the
// evaluated script's world anyway.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.handOver) return;

  let armed = null; // the one handover waiting for its ask: { ask, listener }

  function handOver({ ref, ask, give }) {
    const { el } = T.resolve(ref);
    if (armed) removeEventListener(armed.ask, armed.listener, true);
    const listener = () => {
      removeEventListener(ask, listener, true);
      armed = null;
      el.dispatchEvent(new Event(give, { composed: true }));
    };
    armed = { ask, listener };
    addEventListener(ask, listener, true);
    return { element: T.describeEl(el) };
  }

  T.ops.handOver = handOver;
})();
