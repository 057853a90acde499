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

  // Rules about the whole page (one main landmark, one level-one heading, all content in
  // landmarks, a way to skip blocks), which axe judges over every frame together: a frame's own
  // document alone would always break them.
  const WHOLE_PAGE = ['region', 'landmark-one-main', 'page-has-heading-one', 'bypass'];

  T.ops.a11y = async ({ prefix = '' }) => {
    const axe = globalThis.axe;
    if (typeof axe?.run !== 'function') throw new Error('axe-core is not loaded in this frame');
    const options = { elementRef: true, resultTypes: ['violations'], iframes: false };
    if (prefix) options.rules = Object.fromEntries(WHOLE_PAGE.map((id) => [id, { enabled: false }]));
    const r = await axe.run(document, options);
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
