// Page script: runs axe-core (injected before, into this same isolated world) on the document
// and answers its violations with a few of their elements each, by ref.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.a11y) return;
  const { refFor, cut, squash } = T;

  const EXAMPLES = 3; // elements shown per violation

  // axe's failure summary, its "Fix any of the following:" headings left out: one clause a line.
  const reasons = (summary) =>
    (summary || '')
      .split('\n')
      .map(squash)
      .filter((l) => l && !/^Fix (any|all) of the following:$/.test(l))
      .join('; ');

  T.ops.a11y = async ({ prefix = '' }) => {
    const axe = globalThis.axe;
    if (typeof axe?.run !== 'function') throw new Error('axe-core is not loaded in this frame');
    const r = await axe.run(document, { elementRef: true, resultTypes: ['violations'], iframes: false });
    const tags = T.tagAll(document.documentElement);
    const memo = new Map();
    const violations = r.violations.map((v) => ({
      id: v.id,
      impact: v.impact || 'minor',
      help: v.help,
      helpUrl: v.helpUrl,
      count: v.nodes.length,
      examples: v.nodes.slice(0, EXAMPLES).map((n) => ({
        ref: n.element?.isConnected ? prefix + refFor(n.element, tags, memo) : null,
        html: cut(squash(n.html), 160),
        why: cut(reasons(n.failureSummary), 160),
      })),
    }));
    return { version: axe.version, violations };
  };
})();
