// The console capture, in the page's main world of every document from its start: console.js
// registers this file as a content script (world MAIN, document_start, every frame), so it runs
// before the page's first script. It notes the console messages (with the caller's url:line:col),
// uncaught errors and unhandled rejections (with their stacks) and the page's service-worker
// lifecycle, in three bounded rings per document, and keeps them here: nothing leaves the page until
// tabpilot reads it (console.js, in an agent's tab only), so a tab no agent uses is only wrapped.
//
// The wrappers keep what the page sees: each calls the native console method with the same `this`
// and arguments; the service-worker register() answers the same registration, one microtask later
// (its failure is noted on our side chain, and the page's promise still rejects unhandled when the
// page ignores it). Everything used after the start is taken now, so a page that replaces a global
// later changes nothing here. A page can still forge entries or hide its own (it could as well not
// log): what is read back is data, held to its bounds again by the service worker.
(() => {
  const KEY = Symbol.for('tabpilot.console');
  if (Object.hasOwn(window, KEY)) return;
  const MAX_LOGS = 250; // console messages and service-worker events per document, newest kept
  const MAX_ERRORS = 50; // uncaught errors and rejections, apart so a flood of logs cannot push them out
  const MAX_WARNINGS = 50; // console.warn and console.error, apart for the same reason
  const MAX_TEXT = 1000;
  const MAX_STACK = 2000;
  const MAX_ITEMS = 10; // items and keys shown of an object logged

  const { apply, ownKeys, getOwnPropertyDescriptor: own, getPrototypeOf } = Reflect;
  const defineProperty = Object.defineProperty;
  const now = Date.now;
  const NativeError = Error;
  const CustomEv = CustomEvent;
  const isArray = Array.isArray;
  const { stringify } = JSON;
  const toTag = Object.prototype.toString;
  const objectProto = Object.prototype;
  const then = Promise.prototype.then;
  const listen = EventTarget.prototype.addEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const { slice, indexOf, lastIndexOf, charAt } = String.prototype;
  const getter = (proto, name) => own(proto, name)?.get;
  const get = (g, self) => (g ? apply(g, self, []) : undefined);
  const targetOf = getter(Event.prototype, 'target');
  const error = {
    message: getter(ErrorEvent.prototype, 'message'),
    filename: getter(ErrorEvent.prototype, 'filename'),
    lineno: getter(ErrorEvent.prototype, 'lineno'),
    colno: getter(ErrorEvent.prototype, 'colno'),
    error: getter(ErrorEvent.prototype, 'error'),
  };
  const reasonOf = getter(PromiseRejectionEvent.prototype, 'reason');
  const dataOf = getter(MessageEvent.prototype, 'data');
  const detailOf = getter(CustomEvent.prototype, 'detail');
  const hasWorkers = typeof ServiceWorkerContainer === 'function';
  const worker = hasWorkers
    ? {
        state: getter(ServiceWorker.prototype, 'state'),
        url: getter(ServiceWorker.prototype, 'scriptURL'),
        installing: getter(ServiceWorkerRegistration.prototype, 'installing'),
        scope: getter(ServiceWorkerRegistration.prototype, 'scope'),
        controller: getter(ServiceWorkerContainer.prototype, 'controller'),
      }
    : null;

  const rings = { logs: [], errors: [], warnings: [] };
  const written = { logs: 0, errors: 0, warnings: 0 };
  const CAPS = { logs: MAX_LOGS, errors: MAX_ERRORS, warnings: MAX_WARNINGS };
  const RINGS = ['logs', 'errors', 'warnings'];
  let seq = 0;
  // Keeps the newest `cap` entries: a slot is reused, never an array method the page could replace.
  const note = (ring, entry) => {
    const cap = CAPS[ring];
    rings[ring][written[ring] % cap] = entry;
    written[ring]++;
  };
  const noteMessage = (e) => note(e.level === 'warn' || e.level === 'error' ? 'warnings' : 'logs', e);
  const cut = (s, max) => (s.length > max ? apply(slice, s, [0, max - 1]) + '…' : s);
  const str = (v) => {
    try {
      return typeof v === 'string' ? v : `${v}`;
    } catch (_) {
      return '[unprintable]';
    }
  };

  // An error's own stack: V8 keeps it as an own accessor of the error (a data property where the
  // page set one); nothing from the prototype chain.
  const stackOf = (thrown) => {
    if (thrown === null || typeof thrown !== 'object') return undefined;
    let stack;
    try {
      const d = own(thrown, 'stack');
      stack = d && ('value' in d ? d.value : d.get ? apply(d.get, thrown, []) : undefined);
    } catch (_) {
      return undefined;
    }
    return typeof stack === 'string' ? cut(stack, MAX_STACK) : undefined;
  };

  // A value as the console would show it, briefly, reading only own data properties (a getter
  // of the page's is not run).
  const describe = (v, depth) => {
    if (typeof v === 'string') return depth === 0 ? v : stringify(cut(v, 100));
    if (typeof v === 'symbol') return apply(Symbol.prototype.toString, v, []);
    if (typeof v === 'function') return `ƒ ${str(own(v, 'name')?.value || '')}`;
    if (v === null || typeof v !== 'object') return str(v);
    const stack = stackOf(v);
    if (stack !== undefined) return stack;
    const tag = apply(toTag, v, []);
    if (depth > 1) return isArray(v) ? '[…]' : tag === '[object Object]' ? '{…}' : tag;
    let keys;
    try {
      keys = ownKeys(v);
    } catch (_) {
      return tag;
    }
    const parts = [];
    for (let i = 0; i < keys.length && parts.length < MAX_ITEMS; i++) {
      const k = keys[i];
      if (typeof k !== 'string' || (isArray(v) && k === 'length')) continue;
      const d = own(v, k);
      if (!d || !d.enumerable) continue;
      const shown = 'value' in d ? describe(d.value, depth + 1) : '(…)';
      parts[parts.length] = isArray(v) ? shown : `${k}: ${shown}`;
    }
    let body = '';
    for (let i = 0; i < parts.length; i++) body += (i ? ', ' : '') + parts[i];
    if (keys.length > parts.length + (isArray(v) ? 1 : 0)) body += ', …';
    if (isArray(v)) return `[${body}]`;
    const proto = getPrototypeOf(v);
    const name = proto === objectProto || proto === null ? '' : `${apply(slice, tag, [8, -1])} `;
    return `${name}{${body}}`;
  };

  // The console's own way of joining its arguments: a first string's %s %d %i %f %o %O %c take
  // the arguments after it in turn; the rest follow, separated by spaces.
  const format = (args) => {
    let text = '';
    let next = 0;
    if (typeof args[0] === 'string') {
      const f = args[0];
      next = 1;
      for (let i = 0; i < f.length && text.length <= MAX_TEXT; i++) {
        const c = apply(charAt, f, [i]);
        const d = apply(charAt, f, [i + 1]);
        if (c !== '%' || d === '' || apply(indexOf, 'sdifoOc%', [d]) < 0) {
          text += c;
          continue;
        }
        i++;
        if (d === '%') text += '%';
        else if (next < args.length) {
          const a = args[next++];
          if (d !== 'c') text += d === 'o' || d === 'O' ? describe(a, 1) : str(d === 's' ? describe(a, 0) : a);
        }
      }
    }
    for (; next < args.length && text.length <= MAX_TEXT; next++) text += (text ? ' ' : '') + describe(args[next], 0);
    return cut(text, MAX_TEXT);
  };

  // The caller's url:line:col from a stack taken in our wrapper: its third line (after "Error"
  // and the wrapper itself).
  const callerOf = (stack) => {
    if (typeof stack !== 'string') return undefined;
    let at = 0;
    for (let n = 0; n < 2; n++) {
      at = apply(indexOf, stack, ['\n', at]) + 1;
      if (at === 0) return undefined;
    }
    const end = apply(indexOf, stack, ['\n', at]);
    let line = apply(slice, stack, [at, end < 0 ? stack.length : end]);
    if (line[line.length - 1] === ')') line = apply(slice, line, [apply(lastIndexOf, line, ['(']) + 1, -1]);
    else line = apply(slice, line, [apply(indexOf, line, ['at ']) + 3]);
    return cut(line, 500);
  };

  const entry = (kind, level, text, at, stack) => ({ seq: ++seq, t: now(), kind, level, text, at, stack });

  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const d = own(console, level);
    if (!d || typeof d.value !== 'function' || !d.writable) continue;
    const native = d.value;
    const wrapper = function () {
      try {
        const where = callerOf(new NativeError().stack);
        noteMessage(entry('console', level, format(arguments), where));
      } catch (_) {
        // a message we cannot note is still logged
      }
      return apply(native, this, arguments);
    };
    defineProperty(wrapper, 'name', { value: level });
    defineProperty(wrapper, 'length', { value: native.length });
    defineProperty(console, level, { ...d, value: wrapper });
  }

  const messageOf = (thrown) => {
    if (thrown !== null && typeof thrown === 'object') {
      const m = own(thrown, 'message')?.value;
      if (typeof m === 'string') return cut(m, MAX_TEXT);
    }
    return cut(describe(thrown, 1), MAX_TEXT);
  };

  const on = (target, type, handler, capture) => apply(listen, target, [type, handler, capture]);
  on(
    window,
    'error',
    (e) => {
      // A resource that failed to load fires `error` at its element, not at the window.
      if (get(targetOf, e) !== window) return;
      try {
        const where = `${get(error.filename, e)}:${get(error.lineno, e)}:${get(error.colno, e)}`;
        // The browser's message starts "Uncaught "; the entry's kind says that already.
        let text = str(get(error.message, e));
        if (apply(indexOf, text, ['Uncaught ']) === 0) text = apply(slice, text, [9]);
        text = cut(text, MAX_TEXT);
        note('errors', entry('exception', 'error', text, where, stackOf(get(error.error, e))));
      } catch (_) {
        // an error event we cannot read is left out
      }
    },
    true,
  );
  on(window, 'unhandledrejection', (e) => {
    try {
      const reason = get(reasonOf, e);
      note('errors', entry('rejection', 'error', messageOf(reason), undefined, stackOf(reason)));
    } catch (_) {
      // a rejection we cannot read is left out
    }
  });

  // The page's service-worker lifecycle: registration and its failure, each state a worker goes
  // through, the controller changing, and messages posted to the page.
  const told = (level, text) => noteMessage(entry('worker', level, cut(text, MAX_TEXT)));
  const follow = (sw) => {
    if (!sw) return;
    const url = str(get(worker.url, sw));
    on(sw, 'statechange', () => told('info', `worker ${url} is ${str(get(worker.state, sw))}`));
  };
  if (hasWorkers) {
    const proto = ServiceWorkerContainer.prototype;
    const d = own(proto, 'register');
    if (d && typeof d.value === 'function' && d.writable) {
      const native = d.value;
      const register = function (script) {
        const promise = apply(native, this, arguments);
        const url = str(script);
        return apply(then, promise, [
          (reg) => {
            told('info', `registered ${url} (scope ${str(get(worker.scope, reg))})`);
            follow(get(worker.installing, reg));
            return reg;
          },
          (e) => {
            told('error', `registering ${url} failed: ${messageOf(e)}`);
            throw e;
          },
        ]);
      };
      defineProperty(register, 'name', { value: 'register' });
      defineProperty(register, 'length', { value: native.length });
      defineProperty(proto, 'register', { ...d, value: register });
    }
    let container = null;
    try {
      container = navigator.serviceWorker;
    } catch (_) {
      // an opaque origin has none
    }
    if (container) {
      on(container, 'controllerchange', () => {
        const sw = get(worker.controller, container);
        told('info', `controllerchange: the page is now controlled by ${sw ? str(get(worker.url, sw)) : 'none'}`);
      });
      on(container, 'message', (e) => told('log', `message from the service worker: ${describe(get(dataOf, e), 1)}`));
    }
  }

  // The entries noted at or after `since` (ms since the epoch) and the document's address, as
  // JSON written here: a string, so nothing awaits it as a promise (a page may put `then` on
  // every object), and no `toJSON` of the page's is asked (JSON.stringify is given strings only).
  const q = (v) => (typeof v === 'string' ? stringify(v) : 'null');
  const read = (since) => {
    const from = typeof since === 'number' ? since : 0;
    let out = `{"url":${q(location.href)}`;
    let dropped = 0;
    for (let r = 0; r < RINGS.length; r++) {
      const ring = RINGS[r];
      const cap = CAPS[ring];
      const n = written[ring];
      dropped += n > cap ? n - cap : 0;
      let list = '';
      for (let i = n > cap ? n - cap : 0; i < n; i++) {
        const e = rings[ring][i % cap];
        if (e.t < from) continue;
        list += `${list ? ',' : ''}{"seq":${e.seq},"t":${e.t},"kind":${q(e.kind)},"level":${q(e.level)},`;
        list += `"text":${q(e.text)},"at":${q(e.at)},"stack":${q(e.stack)}}`;
      }
      out += `,"${ring}":[${list}]`;
    }
    return `${out},"dropped":${dropped}}`;
  };
  defineProperty(window, KEY, { value: read });
  // The keeper tabpilot puts into an agent's tab (console.js) asks for the whole log as the
  // document goes, to keep it for the tab's later calls.
  on(window, 'tabpilot-console-ask', () => {
    apply(dispatch, window, [new CustomEv('tabpilot-console-dump', { detail: read(0) })]);
  });
  // An action's page script asks for what the log gained since the action began (page/kit.js),
  // so that its answer carries it. Heard in the capture phase, before any listener a page adds:
  // the answer the asker takes, the first, is this one.
  on(
    window,
    'tabpilot-console-since',
    (e) => {
      const since = get(detailOf, e);
      if (typeof since !== 'number') return;
      apply(dispatch, window, [new CustomEv('tabpilot-console-read', { detail: read(since) })]);
    },
    true,
  );
})();
