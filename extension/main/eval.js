// The one function browser_eval runs in a page's main world. Chrome sends it as source (it is
// `func` to chrome.scripting), so it is self-contained: nothing from this module reaches it.
//
// It shares its world with the page's scripts, which may have replaced any global or built-in
// method, before the call or while it runs. So it takes the built-ins it leans on as it starts
// (a script that replaces JSON, Array.prototype or Object.keys midway does not reach the
// writer), uses no JSON, Promise, iterator or regular expression of the page's, brand-checks
// values with the built-ins' own getters rather than `instanceof`, and answers with a string,
// which no page can make into a thenable. A page that replaced the built-ins before the call can
// garble its own result, no more: the service worker reads the answer as untrusted text, under
// its own timer.
//
// The answer is JSON text: {"value": <the value>, "cut": <path or null>} or
// {"error": {"code", "message"}}. Values JSON cannot hold are written as descriptions in strings:
// "<input#q.search type=text>", "[undefined]", "[NaN]", "[bigint 12]", "[function f]",
// "[cycle: $.a]", "[TypeError: ...]"; a Map is {"[Map]": [[key, value], ...]}, a Set
// {"[Set]": [...]}. Past `maxChars` the writer stops: the string in hand is cut, each container
// left open ends with a "[cut]" marker, and `cut` names the path where it stopped.
export async function evaluateInMain({ expression, source, handover, maxChars }) {
  const R = Reflect;
  const apply = R.apply;
  const ownDesc = R.getOwnPropertyDescriptor;
  const call = (f, self, a, b, c, d) => apply(f, self, [a, b, c, d]);
  const getter = (proto, key) => ownDesc(proto, key)?.get;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const isProto = Object.prototype.isPrototypeOf;
  const toTag = Object.prototype.toString;
  const slice = String.prototype.slice;
  const codeAt = String.prototype.charCodeAt;
  const indexOf = String.prototype.indexOf;
  const hex = Number.prototype.toString;
  const mapEach = Map.prototype.forEach;
  const setEach = Set.prototype.forEach;
  const mapSize = getter(Map.prototype, 'size');
  const setSize = getter(Set.prototype, 'size');
  const time = Date.prototype.getTime;
  const iso = Date.prototype.toISOString;
  const reSource = getter(RegExp.prototype, 'source');
  const reFlags = getter(RegExp.prototype, 'flags');
  const isView = ArrayBuffer.isView;
  const bufferBytes = getter(ArrayBuffer.prototype, 'byteLength');
  const symbolText = getter(Symbol.prototype, 'description');
  const nodeType = getter(Node.prototype, 'nodeType');
  const nodeName = getter(Node.prototype, 'nodeName');
  const textOf = getter(Node.prototype, 'textContent');
  const docUrl = getter(Document.prototype, 'URL');
  const localName = getter(Element.prototype, 'localName');
  const attr = Element.prototype.getAttribute;
  const on = EventTarget.prototype.addEventListener;
  const off = EventTarget.prototype.removeEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const pathOf = Event.prototype.composedPath;
  const stop = Event.prototype.stopImmediatePropagation;
  const EventCtor = Event;
  // The prototypes that matter most are taken from values the engine makes itself, not from
  // globals a page may have replaced (Zone.js and some polyfills replace window.Promise).
  const protoOf = R.getPrototypeOf;
  const made = (f) => ownDesc(protoOf(f), 'constructor').value;
  const FunctionCtor = made(() => {});
  const AsyncFunction = made(async () => {});
  const PromiseProto = protoOf((async () => {})());
  let ErrorProto;
  try {
    (void 0).x;
  } catch (e) {
    ErrorProto = protoOf(protoOf(e)); // a TypeError's prototype's prototype
  }
  const indirectEval = globalThis.eval;
  const weak = [
    ['WeakMap', WeakMap.prototype],
    ['WeakSet', WeakSet.prototype],
    ['WeakRef', WeakRef.prototype],
  ];
  const MAX_DEPTH = 32;
  const BOX = '__tabpilotEvalBox';
  const CSP = "the page's Content-Security-Policy forbids running script from a string here";
  const KEY_MAX = 200;
  const NOTE_MAX = 300;

  // JSON string text for s, with at most `room` characters of escaped output (-1: no limit);
  // a lone surrogate becomes U+FFFD, since it has no UTF-8 and the relay reads UTF-8.
  function quote(s, room = -1) {
    let q = '"';
    const n = s.length;
    let i = 0;
    for (; i < n; i++) {
      const c = call(codeAt, s, i);
      let piece;
      if (c === 34) piece = '\\"';
      else if (c === 92) piece = '\\\\';
      else if (c < 32) piece = '\\u' + call(slice, '000' + call(hex, c, 16), -4);
      else if (c >= 0xd800 && c <= 0xdbff) {
        const d = i + 1 < n ? call(codeAt, s, i + 1) : 0;
        if (d >= 0xdc00 && d <= 0xdfff) {
          piece = s[i] + s[i + 1];
          i++;
        } else piece = '\ufffd';
      } else if (c >= 0xdc00 && c <= 0xdfff) piece = '\ufffd';
      else piece = s[i];
      if (room >= 0 && q.length + piece.length > room) break;
      q += piece;
    }
    return { text: q + (i < n ? '…"' : '"'), whole: i >= n };
  }
  const short = (s, n) => (s.length > n ? call(slice, s, 0, n - 1) + '…' : s);

  // A property name in a path: `.name` when it reads as an identifier, else `["..."]`.
  function step(key) {
    let plain = key.length > 0;
    for (let i = 0; i < key.length && plain; i++) {
      const c = call(codeAt, key, i);
      const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95;
      plain = letter || (i > 0 && c >= 48 && c <= 57);
    }
    return plain ? '.' + key : '[' + quote(short(key, 40)).text + ']';
  }

  // Classes and other space-separated words, joined with dots.
  function dotted(words) {
    let s = '';
    let gap = true;
    for (let i = 0; i < words.length; i++) {
      const c = call(codeAt, words, i);
      if (c === 32 || c === 9 || c === 10 || c === 12 || c === 13) gap = true;
      else {
        s += gap ? '.' + words[i] : words[i];
        gap = false;
      }
    }
    return s;
  }

  // A DOM node as a short description; null when v is not a node.
  function node(v) {
    let type;
    try {
      type = call(nodeType, v);
    } catch (_) {
      return null;
    }
    if (type === 1) {
      const a = (name) => call(attr, v, name);
      let s = '<' + call(localName, v);
      if (a('id')) s += '#' + a('id');
      if (a('class')) s += dotted(a('class'));
      if (a('type')) s += ' type=' + a('type');
      if (a('name')) s += ' name=' + a('name');
      return short(s, 120) + '>';
    }
    if (type === 9) return '[#document ' + short(call(docUrl, v), 200) + ']';
    if (type === 3 || type === 8) return '[' + call(nodeName, v) + ' ' + quote(short(call(textOf, v), 60)).text + ']';
    return '[' + call(nodeName, v) + ']';
  }

  // A value JSON cannot hold, as words; null for an object to write out.
  function describe(v) {
    const n = node(v);
    if (n !== null) return n;
    try {
      if (v.window === v) return v === globalThis ? '[window]' : '[window of another frame]';
    } catch (_) {
      // not a window, and a getter that says no
    }
    if (call(isProto, ErrorProto, v)) return '[' + errorText(v) + ']';
    if (call(isProto, PromiseProto, v)) return '[Promise]';
    for (let i = 0; i < weak.length; i++) if (call(isProto, weak[i][1], v)) return '[' + weak[i][0] + ']';
    try {
      return '[RegExp /' + call(reSource, v) + '/' + call(reFlags, v) + ']';
    } catch (_) {
      // not a regular expression
    }
    if (isView(v)) return '[' + call(slice, call(toTag, v), 8, -1) + ']';
    try {
      return '[ArrayBuffer ' + call(bufferBytes, v) + ' bytes]';
    } catch (_) {
      return null;
    }
  }

  function errorText(e) {
    try {
      const name = e.name;
      const message = e.message;
      return (typeof name === 'string' ? name : 'Error') + ': ' + (typeof message === 'string' ? message : '');
    } catch (_) {
      return 'Error';
    }
  }

  let out = '';
  let cutAt = null;
  const ancestors = [];
  const ancestorPaths = [];

  // A description, bounded like everything else the writer adds past the cap's check.
  const note = (words) => {
    out += quote(short(words, NOTE_MAX)).text;
  };
  const full = (path) => {
    if (out.length < maxChars) return false;
    if (cutAt === null) cutAt = short(path, 300);
    return true;
  };

  function write(v, path, depth) {
    switch (typeof v) {
      case 'string': {
        const { text, whole } = quote(v, maxChars > out.length ? maxChars - out.length : 1);
        out += text;
        if (!whole && cutAt === null) cutAt = short(path, 300);
        return;
      }
      case 'number':
        if (v === v && v !== Infinity && v !== -Infinity) out += '' + v;
        else note('[' + v + ']');
        return;
      case 'boolean':
        out += v ? 'true' : 'false';
        return;
      case 'undefined':
        return note('[undefined]');
      case 'bigint':
        return note('[bigint ' + v + ']');
      case 'symbol':
        return note('[symbol ' + (call(symbolText, v) ?? '') + ']');
      case 'function': {
        const name = ownDesc(v, 'name')?.value;
        return note('[function' + (typeof name === 'string' && name ? ' ' + short(name, 80) : '') + ']');
      }
    }
    if (v === null) {
      out += 'null';
      return;
    }
    for (let i = 0; i < ancestors.length; i++) if (ancestors[i] === v) return note('[cycle: ' + ancestorPaths[i] + ']');
    const words = describe(v);
    if (words !== null) return note(words);
    if (depth >= MAX_DEPTH) return note('[nested too deep]');
    let ms;
    try {
      ms = call(time, v);
    } catch (_) {
      ms = undefined;
    }
    if (ms !== undefined) return note(ms === ms ? call(iso, v) : '[Invalid Date]');
    ancestors[ancestors.length] = v;
    ancestorPaths[ancestorPaths.length] = path;
    try {
      container(v, path, depth);
    } finally {
      ancestors.length--;
      ancestorPaths.length--;
    }
  }

  // A member whose getter throws is described, not thrown.
  function member(read, path, depth) {
    let v;
    try {
      v = read();
    } catch (e) {
      return note('[threw ' + errorText(e) + ']');
    }
    write(v, path, depth);
  }

  // Writes `count` items (item(i) writes the i-th), stopping with a marker once full.
  function list(count, path, item) {
    out += '[';
    for (let i = 0; i < count; i++) {
      if (i > 0) out += ',';
      if (full(path + '[' + i + ']')) {
        out += '"[cut]"';
        break;
      }
      item(i);
    }
    out += ']';
  }

  // The size a built-in getter reads off `v`, or undefined when `v` is not of its kind.
  function sizeBy(getter, v) {
    try {
      return call(getter, v);
    } catch (_) {
      return undefined;
    }
  }

  // Up to maxChars of what a built-in forEach hands out, each as `pick` shapes it.
  function entriesBy(each, v, pick) {
    const items = [];
    call(each, v, (value, key) => {
      if (items.length < maxChars) items[items.length] = pick(value, key);
    });
    return items;
  }

  function container(v, path, depth) {
    if (sizeBy(mapSize, v) !== undefined) {
      const pairs = entriesBy(mapEach, v, (value, key) => [key, value]);
      out += '{"[Map]":';
      list(pairs.length, path, (i) => {
        out += '[';
        write(pairs[i][0], path + '[' + i + '][0]', depth + 1);
        out += ',';
        write(pairs[i][1], path + '[' + i + '][1]', depth + 1);
        out += ']';
      });
      out += '}';
      return;
    }
    if (sizeBy(setSize, v) !== undefined) {
      const items = entriesBy(setEach, v, (value) => value);
      out += '{"[Set]":';
      list(items.length, path, (i) => write(items[i], path + '[' + i + ']', depth + 1));
      out += '}';
      return;
    }
    if (isArray(v)) {
      list(v.length, path, (i) => member(() => v[i], path + '[' + i + ']', depth + 1));
      return;
    }
    let toJSON;
    try {
      toJSON = v.toJSON;
    } catch (_) {
      toJSON = undefined;
    }
    if (typeof toJSON === 'function') return member(() => call(toJSON, v, ''), path, depth + 1);
    const keys = keysOf(v);
    out += '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (i > 0) out += ',';
      if (full(path + step(key))) {
        out += '"…":"[cut]"';
        break;
      }
      out += quote(short(key, KEY_MAX)).text + ':';
      member(() => v[key], path + step(key), depth + 1);
    }
    out += '}';
  }

  const failure = (code, message) =>
    '{"error":{"code":' + quote(code).text + ',"message":' + quote(short(message, 2000)).text + '}}';

  // What a script threw, in words: an error's name and message, anything else as JSON.
  function thrown(e) {
    if (e !== null && (typeof e === 'object' || typeof e === 'function') && call(isProto, ErrorProto, e)) {
      return errorText(e);
    }
    out = '';
    const room = maxChars;
    maxChars = 500;
    write(e, '$', 0);
    maxChars = room;
    return 'threw ' + out;
  }

  // A string the page's policy will not evaluate (no 'unsafe-eval': an EvalError; Trusted
  // Types: a TypeError asking for a TrustedScript).
  const cspBlock = (e) => {
    const words = errorText(e);
    return call(indexOf, words, 'EvalError:') === 0 || call(indexOf, words, 'TrustedScript') >= 0;
  };

  // The script as something to call with the element, which leaves its value in `box`. An
  // expression runs as the body of an async function, so it may await; its value is put in the
  // box rather than returned, so nothing looks up a `then` on it (a page may have planted one on
  // Object.prototype). One that is statements, not an expression, runs as a script, its last
  // statement's value the result.
  const box = { v: undefined };
  function compile() {
    if (source !== undefined) {
      const fn = new FunctionCtor('return (\n' + source + '\n)')();
      if (typeof fn !== 'function') return null;
      return (el) => {
        box.v = fn(el);
      };
    }
    let body;
    try {
      body = new AsyncFunction(BOX, BOX + '.v = (\n' + expression + '\n);');
    } catch (e) {
      if (cspBlock(e)) throw e;
      return () => {
        box.v = indirectEval(expression);
      };
    }
    return () => body(box);
  }

  // Only the browser's own promises are awaited, with `await`, which reads no `then`.
  const promise = (v) => v !== null && typeof v === 'object' && call(isProto, PromiseProto, v);

  try {
    let run;
    try {
      run = compile();
    } catch (e) {
      if (cspBlock(e)) return failure('CSP_BLOCKED', CSP);
      return failure('SCRIPT_ERROR', 'did not compile: ' + thrown(e));
    }
    if (run === null) return failure('BAD_ARGS', 'function is not the source of a function, like (el) => el.value');
    let el;
    if (handover) {
      const take = (e) => {
        el = call(pathOf, e)[0];
        call(stop, e);
      };
      call(on, globalThis, handover.give, take, true);
      try {
        call(dispatch, globalThis, new EventCtor(handover.ask));
      } finally {
        call(off, globalThis, handover.give, take, true);
      }
      if (!el) return failure('STALE_REF', "the ref's element left the page before the script ran");
    }
    let value;
    try {
      const running = run(el);
      if (promise(running)) await running;
      value = box.v;
      if (promise(value)) value = await value;
    } catch (e) {
      if (cspBlock(e)) return failure('CSP_BLOCKED', CSP);
      return failure('SCRIPT_ERROR', thrown(e));
    }
    out = '';
    write(value, '$', 0);
    return '{"value":' + out + ',"cut":' + (cutAt === null ? 'null' : quote(cutAt).text) + '}';
  } catch (e) {
    return failure('SCRIPT_ERROR', "the page's own scripts broke the evaluation: " + errorText(e));
  }
}
