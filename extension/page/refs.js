// Page script (kit): refs. Every element a snapshot would list is tagged with a ref derived from
// what it is; a ref is resolved back to its element, re-tagging the document once when the
// element was re-rendered.
(() => {
  const T = globalThis.__tabpilot;
  if (T.tagAll) return;
  const { Refusal, squash, cut, walkElements, role, name, labelledBy, INTERACTIVE, NAME_MAX } = T;
  // A ref inside this document (the service worker took off any frame's prefix): the contract's.
  const LOCAL_REF = new RegExp(`^(?:${globalThis.__tabpilotContract.REF.local})$`);

  // A ref is a hash of what the element is (tag, id, name, type, role, label, own text), not
  // where it is, so a re-render of the same elements yields the same refs.
  function identity(el, labelOf = name) {
    // What a person types into an editable element is its value, not what it is: leave it out,
    // so the ref stays put as it is filled.
    const editable = el.isContentEditable;
    const own = editable
      ? ''
      : Array.from(el.childNodes)
          .filter((n) => n.nodeType === 3)
          .map((n) => n.textContent)
          .join(' ');
    const label = editable ? squash(el.getAttribute('aria-label')) || squash(labelledBy(el)) : labelOf(el);
    return [
      el.localName,
      el.id,
      el.getAttribute('name'),
      el.getAttribute('type'),
      role(el),
      label,
      cut(squash(own), 40),
    ].join('\u0001');
  }

  function hash(text) {
    let h = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return 'e' + h.toString(36).padStart(7, '0').slice(-4);
  }

  let refs = new Map(); // ref -> WeakRef(element), from the last tagging of this document

  // Tags every element that would get a ref, in document order; twins get `.2`, `.3`, ...
  function tagAll(root) {
    const seen = new Map();
    const fresh = new Map();
    const order = [];
    walkElements(root, (el) => {
      if (!refable(el)) return;
      const base = hash(identity(el));
      const n = (seen.get(base) || 0) + 1;
      seen.set(base, n);
      const ref = n === 1 ? base : `${base}.${n}`;
      fresh.set(ref, new WeakRef(el));
      order.push([el, ref]);
    });
    refs = fresh;
    return new Map(order);
  }

  function refable(el) {
    const r = role(el);
    return (r && INTERACTIVE.has(r)) || el.hasAttribute('onclick') || (el.tabIndex >= 0 && el.hasAttribute('tabindex'));
  }

  // Refs for elements a snapshot does not tag (a paragraph found by text, say): the same kind of
  // hash, over an identity marked apart so it never meets a tagged element's, numbered among
  // same-tag elements in document order.
  const extras = new Map(); // ref -> WeakRef(element)
  const plainBase = (el) => hash(identity(el, lead) + '\u0002');

  // A plain element's label: its ARIA name, else the first words of its text, read no further
  // than needed (a plain element may hold the whole page, and all of it would cost a snapshot
  // naming many regions dearly).
  function lead(el) {
    const aria = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
    if (aria) return cut(aria, NAME_MAX);
    const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let text = '';
    while (text.length < 2 * NAME_MAX && texts.nextNode()) {
      if (!['script', 'style'].includes(texts.currentNode.parentElement?.localName)) text += texts.currentNode.data;
    }
    return cut(squash(text), NAME_MAX);
  }

  function plainTwins(base, tag, memo) {
    let all = memo?.get(tag);
    if (!all) {
      all = Array.from(document.getElementsByTagName(tag))
        .filter((o) => !refable(o))
        .map((o) => [o, plainBase(o)]);
      memo?.set(tag, all);
    }
    return all.filter(([, b]) => b === base).map(([o]) => o);
  }

  // `memo` (a Map, optional) keeps each tag's plain elements for the next call, so naming many
  // elements of one document costs one pass per tag (a snapshot's summaries).
  function refFor(el, tags, memo) {
    const tagged = tags?.get(el);
    if (tagged) return tagged;
    if (refable(el)) return tagAll(document.documentElement).get(el);
    const base = plainBase(el);
    const n = plainTwins(base, el.localName, memo).indexOf(el) + 1 || 1;
    const ref = n === 1 ? base : `${base}.${n}`;
    extras.set(ref, new WeakRef(el));
    return ref;
  }

  // Refs a look (`resolve(ref, true)`: a recording's locators, taken before the action) found
  // re-rendered: the action that follows still says so.
  const owed = new Set();

  // Finds the element for a ref; when the node was replaced, tags the document afresh once.
  function resolve(ref, look = false) {
    if (typeof ref !== 'string' || !LOCAL_REF.test(ref)) {
      throw new Refusal('BAD_ARGS', `ref ${JSON.stringify(ref)} is not a ref from a snapshot (like e7k2f)`);
    }
    const known = refs.get(ref)?.deref() || extras.get(ref)?.deref();
    if (known && known.isConnected) return { el: known, retagged: !look && owed.delete(ref) };
    const found = retag(ref, known);
    if (look && found.retagged) owed.add(ref);
    return found;
  }

  function retag(ref, known) {
    tagAll(document.documentElement);
    let el = refs.get(ref)?.deref();
    if (!el && known) {
      const [base, n] = ref.split('.');
      el = plainTwins(base, known.localName)[(Number(n) || 1) - 1];
    }
    if (el) return { el, retagged: !!known };
    throw new Refusal('STALE_REF', `ref ${ref} matches nothing on the page now`);
  }

  Object.assign(T, { tagAll, resolve, refFor });
})();
