// Page script: the problems this document met that log no console error, as issue-watch.js noted
// them from its start (blocked content, deprecations, interventions), each with its element's
// ref where there is one, and the insecure (http) content an https page asks for, read now.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.issues) return;

  const MAX_MIXED = 20;
  const INSECURE = [
    'script[src^="http:"]',
    'iframe[src^="http:"]',
    'img[src^="http:"]',
    'link[href^="http:"][rel~=stylesheet]',
    'audio[src^="http:"]',
    'video[src^="http:"]',
    'source[src^="http:"]',
    'object[data^="http:"]',
  ].join(', ');

  // Mixed content: what the browser blocked (scripts, frames, styles) or upgraded (images,
  // media) on an https page; it logs a console warning at most, and the page just lacks it.
  function mixed() {
    if (location.protocol !== 'https:') return [];
    const memo = new Map();
    return [...document.querySelectorAll(INSECURE)].slice(0, MAX_MIXED).map((el) => ({
      code: 'MIXED_CONTENT',
      blocked: T.cut(el.getAttribute('src') || el.getAttribute('href') || el.getAttribute('data'), 300),
      element: el.localName,
      ref: T.refFor(el, null, memo),
    }));
  }

  // The element that asked for a blocked URL, when the violation did not name one (an element's
  // load starts before it is in the document, and then the event goes to the document).
  const LOADERS = 'img, script, iframe, link, video, audio, source, object, embed, frame';
  const loaderOf = (url) =>
    /^[a-z][a-z0-9+.-]*:/i.test(url || '')
      ? [...document.querySelectorAll(LOADERS)].find((el) => [el.src, el.href, el.data].includes(url))
      : undefined;

  T.ops.issues = () => {
    const watch = globalThis.__tabpilotIssues;
    const memo = new Map();
    const noted = (watch?.list || []).map(({ el, ...issue }) => {
      const node = el?.deref() || (issue.code === 'CSP_BLOCKED' ? loaderOf(issue.blocked) : undefined);
      return node?.isConnected ? { ...issue, element: node.localName, ref: T.refFor(node, null, memo) } : issue;
    });
    return { issues: [...noted, ...mixed()], dropped: watch?.dropped() || 0, watched: !!watch };
  };
})();
