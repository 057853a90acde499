// Page script: locators for an element in Playwright's vocabulary, computed where the element is
// at the moment an agent acts on it, so a recording replays by what the element means (its role
// and name, its label) rather than by a ref, which names it in one snapshot only; and the way
// back, a locator to a ref, for `tabpilot replay`. Each locator is checked to match exactly one
// element of its frame, through open shadow roots, as Playwright's engines pierce them.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.locate) return;
  const { Refusal, squash, role, name, walkElements, resolve, refFor, NAME_MAX, sleep } = T;

  const everything = () => {
    const out = [];
    walkElements(document.documentElement, (el) => out.push(el));
    return out;
  };
  // What Playwright's getByRole leaves out as hidden; counting more only makes a check stricter.
  const shown = (el) => !el.closest('[aria-hidden="true"]') && (el.checkVisibility?.() ?? true);

  // Playwright gives a password field no role (ARIA has none for it), nor a role to what it
  // names differently; such an element is found by its label instead.
  const roleOf = (el) => (el.localName === 'input' && el.type === 'password' ? null : role(el));
  const labelsOf = (el) => {
    const own = [squash(el.getAttribute('aria-label'))];
    for (const l of el.labels || []) own.push(squash(l.textContent));
    return own.filter(Boolean);
  };
  const ownText = (el) => squash(el.innerText ?? el.textContent);
  // The deepest element saying the text: Playwright's getByText skips an element whose child
  // says all of it.
  const saysText = (el, t) =>
    ownText(el) === t && ![...el.children].some((c) => ownText(c) === t);

  const MATCH = {
    role: (el, l) => shown(el) && roleOf(el) === l.role && squash(name(el)) === l.name,
    label: (el, l) => labelsOf(el).includes(l.label),
    placeholder: (el, l) => squash(el.getAttribute('placeholder')) === l.placeholder,
    testId: (el, l) => el.getAttribute('data-testid') === l.testId,
    text: (el, l) => !['script', 'style', 'head', 'title'].includes(el.localName) && saysText(el, l.text),
  };
  const kindOf = (l) => (l.role ? 'role' : Object.keys(MATCH).find((k) => k in l) || 'css');

  function matches(l, pool) {
    if (l.css) return cssMatches(l.css, pool);
    const test = MATCH[kindOf(l)];
    return pool.filter((el) => test(el, l));
  }

  const within = (host) => {
    const out = [];
    walkElements(host, (el) => el !== host && out.push(el));
    return out;
  };
  const select = (pool, css) => {
    try {
      return T.unvalued(() => pool.filter((el) => el.matches(css)));
    } catch (_) {
      throw new Refusal('BAD_ARGS', `${JSON.stringify(css)} is not a valid CSS selector`);
    }
  };
  // A css locator: a path, then one inside each shadow host on the way, joined by ` >>> ` (the
  // export chains them as locators; Playwright's css pierces open shadow roots).
  function cssMatches(css, pool) {
    let found = pool;
    css.split(' >>> ').forEach((part, i) => {
      found = i === 0 ? select(pool, part) : found.flatMap((host) => select(within(host), part));
    });
    return found;
  }

  const nth = (el) => {
    const same = [...(el.parentNode?.children || [])].filter((s) => s.localName === el.localName);
    return same.length > 1 ? `${el.localName}:nth-of-type(${same.indexOf(el) + 1})` : el.localName;
  };
  // The shortest path of tags up from the element that finds it alone among `pool`, within its
  // own root (document or shadow root).
  function pathIn(el, pool) {
    const root = el.getRootNode();
    const steps = [];
    for (let at = el; at && at.nodeType === 1; at = at.parentNode) {
      steps.unshift(nth(at));
      if (select(pool, steps.join(' > ')).length === 1) break;
    }
    return steps.join(' > ') || root.nodeName;
  }
  // The path from the top, each shadow host on the way with its own.
  function cssPath(el, pool) {
    const hosts = [];
    for (let h = el.getRootNode().host; h; h = h.getRootNode().host) hosts.unshift(h);
    const parts = [];
    let scope = pool;
    for (const at of [...hosts, el]) {
      parts.push(pathIn(at, scope));
      scope = within(at);
    }
    return parts.join(' >>> ');
  }

  const exact = (s) => s && s.length < NAME_MAX - 1;
  // Candidates best first, each kept only when it finds this element alone in its frame.
  function locatorsFor(el) {
    const pool = everything();
    const r = roleOf(el);
    const n = squash(name(el));
    const candidates = [];
    if (r && exact(n)) candidates.push({ role: r, name: n });
    for (const label of labelsOf(el)) candidates.push({ label });
    const placeholder = squash(el.getAttribute('placeholder'));
    if (placeholder) candidates.push({ placeholder });
    if (el.getAttribute('data-testid')) candidates.push({ testId: el.getAttribute('data-testid') });
    const text = ownText(el);
    if (exact(text) && saysText(el, text)) candidates.push({ text });
    const found = candidates.filter((l) => {
      const m = matches(l, pool);
      return m.length === 1 && m[0] === el;
    });
    found.push({ css: cssPath(el, pool) });
    return found;
  }

  function kindOfField(el) {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.localName === 'select') return 'select';
    if (el.localName === 'input' && (type === 'checkbox' || type === 'radio')) return 'check';
    return el.localName === 'input' || el.localName === 'textarea' || el.isContentEditable ? 'text' : 'other';
  }
  const oneTime = (el) => /(^|\s)one-time-code(\s|$)/i.test(el.getAttribute('autocomplete') || '');

  // An element's locators, what kind of field it is, and whether what goes into it is a secret
  // (a password, a one-time code, a card's number or code), which a recording never keeps.
  function locate({ ref }) {
    const { el } = resolve(ref, true);
    return { locators: locatorsFor(el), kind: kindOfField(el), secret: T.masked(el) || oneTime(el) };
  }

  // This frame's own name (its parent's element for it says the same, unless a script renamed it).
  const frameSelf = () => ({ name: window.name || '' });

  // The frame elements of this document, each with its locators: by title, by name, by src as
  // written, else its path; what a frame locator in Playwright takes as css.
  function frameHosts() {
    const pool = everything();
    const hosts = pool.filter((el) => el.localName === 'iframe' || el.localName === 'frame');
    return hosts.map((el) => {
      const tag = el.localName;
      const attrs = ['title', 'name', 'src'].filter((a) => el.getAttribute(a));
      const tries = attrs.map((a) => ({ css: `${tag}[${a}=${JSON.stringify(el.getAttribute(a))}]` }));
      const alone = tries.filter((l) => cssMatches(l.css, pool).length === 1);
      return { name: el.name || '', src: el.src || '', locators: [...alone, { css: cssPath(el, pool) }] };
    });
  }

  // The first of `locators` that finds one element, waited for up to `timeout` ms (the page may
  // still be on its way there); NOT_FOUND, or ELEMENT_AMBIGUOUS when each finds several.
  async function findOne(locators, timeout) {
    const deadline = Date.now() + Math.min(timeout ?? 5000, 30000);
    for (;;) {
      const pool = everything();
      let several = null;
      for (const l of locators) {
        const m = matches(l, pool);
        if (m.length === 1) return m[0];
        if (m.length > 1) several = l;
      }
      if (Date.now() >= deadline) {
        const said = JSON.stringify(several || locators[0]);
        if (several) throw new Refusal('ELEMENT_AMBIGUOUS', `${said} matches several elements`);
        throw new Refusal('NOT_FOUND', `no element matches ${said} on ${location.href.split('?')[0]}`);
      }
      await sleep(100);
    }
  }

  const resolveLocator = async ({ locators, timeout }) => ({ ref: refFor(await findOne(locators, timeout)) });
  async function frameAt({ locators, timeout }) {
    const el = await findOne(locators, timeout);
    return { name: el.name || '', src: el.src || '' };
  }

  Object.assign(T.ops, { locate, frameSelf, frameHosts, resolveLocator, frameAt });
})();
