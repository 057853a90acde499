// Content script, in every frame from the document's start (the manifest puts it there, so the
// first violations are seen too): notes the problems a page meets that log no console error and
// that only the document can see: content its Content-Security-Policy blocked
// (`securitypolicyviolation`) and the deprecations and interventions the browser reports to it.
// It runs in the extension's isolated world, where the page's own scripts cannot reach its
// listener or its list; browser_issues reads the list (page/issues.js) and the service worker
// hears of each new one (the after-action footer), for a tab an agent works in.
(() => {
  if (globalThis.__tabpilotIssues) return;
  // A page can make violations without end; the first ones tell the story.
  const MAX = 100;
  const MAX_TEXT = 300;
  const list = [];
  let dropped = 0;
  const cut = (s) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT - 1) + '…' : s);

  function add(issue, el) {
    if (list.length >= MAX) {
      dropped++;
      return;
    }
    list.push({ ...issue, at: Date.now(), el: el ? new WeakRef(el) : null });
    chrome.runtime.sendMessage({ type: 'pageIssue' }).catch(() => {});
  }

  const where = (file, line) => (file ? cut(`${file}:${line || 0}`) : undefined);

  // Capturing on the window, added before any script of the page runs, so it hears each
  // violation first whatever the page's own listeners do.
  addEventListener(
    'securitypolicyviolation',
    (e) => {
      const el = e.target instanceof Element ? e.target : null;
      add(
        {
          code: 'CSP_BLOCKED',
          directive: e.effectiveDirective,
          blocked: cut(e.blockedURI || ''),
          source: where(e.sourceFile, e.lineNumber),
          reportOnly: e.disposition === 'report',
        },
        el,
      );
    },
    true,
  );

  if (typeof ReportingObserver === 'function') {
    const codes = { deprecation: 'DEPRECATED_API', intervention: 'BROWSER_INTERVENTION' };
    const observer = new ReportingObserver(
      (reports) => {
        for (const r of reports) {
          const b = r.body || {};
          const message = cut(String(b.message || ''));
          add({ code: codes[r.type], id: b.id, message, source: where(b.sourceFile, b.lineNumber) });
        }
      },
      { types: Object.keys(codes), buffered: true },
    );
    observer.observe();
  }

  globalThis.__tabpilotIssues = { list, dropped: () => dropped };
})();
