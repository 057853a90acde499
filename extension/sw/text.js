// Text the service worker hands on, bounded: the one truncation helper of the service worker's
// modules. (Page scripts have theirs in page/kit.js; scripts in a page's main world keep their
// own, written against the builtins they captured, which the page cannot replace.)

// At most `n` characters, '…' standing in for what was cut.
export const cut = (s, n) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
