// A stand-in for the `chrome` the service worker's modules find at their top level (listeners
// added, storage read): every name answers, every call resolves, and what a test sets is kept.
// With it, a module that only wires itself up at load can be imported under node.
export function standIn() {
  const kept = new Map();
  return new Proxy(function () {}, {
    get: (_, name) => (kept.has(name) ? kept.get(name) : name === 'then' ? undefined : standIn()),
    set: (_, name, value) => kept.set(name, value) && true,
    apply: () => Promise.resolve(standIn()),
    construct: () => standIn(),
  });
}

globalThis.chrome ??= standIn();
