// The activity observer, injected whole into the page's main world of each new document in an
// agent's tab (sw/activity.js says what it notes and why, and who asks it).
(() => {
  const KEY = Symbol.for('tabpilot.activity');
  if (Object.hasOwn(window, KEY)) return;
  Object.defineProperty(window, KEY, { value: true });
  // A timer is the action's while its chain's delays add up to at most this: a page's debounce
  // (an editor writing what was typed into its form, Draftail's 250 ms; a search box) is its
  // round trip as much as a request is. settleMs bounds the wait.
  const SHORT_MS = 500;
  // A message sent on a WebSocket is work until the socket's answer has come and it has then been
  // quiet this long (an app's rerun comes back in several messages).
  const ANSWERED_QUIET_MS = 150;
  const MAX_HOPS = 10; // and it is at most this many timers deep (a zero-delay loop is not)
  const now = Date.now;
  const installedAt = now();
  const pending = new Set(); // { origin }: work under way, and when its chain began
  const timers = new Map(); // timer id -> its entry in `pending`
  const bodies = new WeakMap(); // a fetched Response -> its request's origin
  const clocks = new Map(); // timer or interval id -> when it is next due
  let posted = null; // when the page last posted a message
  let chain = null; // the chain of the timer callback running now: { origin, due, hops }
  let watched = 0; // asks that want a report each time something ends
  const { apply } = Reflect;
  const nativeTimeout = setTimeout;
  const nativeClear = clearTimeout;
  const then = Promise.prototype.then;
  const listen = EventTarget.prototype.addEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const { parse, stringify } = JSON;
  const Custom = CustomEvent;
  const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState').get;

  const tell = (type, detail) => dispatch.call(window, new Custom(type, { detail: stringify(detail) }));
  const origin = () => (chain ? chain.origin : now());
  const begin = (from) => {
    const entry = { origin: from };
    pending.add(entry);
    return entry;
  };
  const end = (entry) => {
    if (pending.delete(entry) && watched > 0) tell('tabpilot-activity-change', null);
  };
  // Ends `entry` once `promise` settles, on a side chain that never rejects.
  const endWith = (promise, entry, onValue) => {
    try {
      then.call(
        promise,
        (value) => {
          try {
            onValue?.(value);
          } catch (_) {
            // a value we cannot note is still an end
          }
          end(entry);
        },
        () => end(entry),
      );
    } catch (_) {
      end(entry); // not a promise we can follow: nothing to wait for
    }
  };
  const argsOf = (list, from = 0) => {
    const out = [];
    for (let i = from; i < list.length; i++) out[out.length] = list[i];
    return out;
  };
  // Puts make(original) in place of obj[name], with the property's own attributes, name and
  // length; false when the page has made that impossible.
  const wrap = (obj, name, make) => {
    const d = Object.getOwnPropertyDescriptor(obj, name);
    if (!d || typeof d.value !== 'function' || (!d.writable && !d.configurable)) return false;
    const fn = make(d.value);
    Object.defineProperty(fn, 'name', { value: name });
    Object.defineProperty(fn, 'length', { value: d.value.length });
    Object.defineProperty(obj, name, { ...d, value: fn });
    return true;
  };
  // Runs a callback as part of `mine`: the work it starts belongs to the same chain.
  const within = (mine, handler) =>
    function () {
      const outer = chain;
      chain = mine;
      try {
        return apply(handler, this, arguments);
      } finally {
        chain = outer;
      }
    };

  // The timers: each short one is work its chain began; each due time is noted.
  function wrapTimers() {
    const timeout = wrap(window, 'setTimeout', (native) =>
      function (handler, delay) {
        if (typeof handler !== 'function') return apply(native, this, arguments);
        const ms = Number(delay);
        const parent = chain || { origin: now(), due: 0, hops: 0 };
        const mine = { origin: parent.origin, due: parent.due + (ms > 0 ? ms : 0), hops: parent.hops + 1 };
        const entry = mine.due <= SHORT_MS && mine.hops <= MAX_HOPS ? begin(mine.origin) : null;
        const run = within(mine, handler);
        let id;
        const args = argsOf(arguments);
        args[0] = function () {
          clocks.delete(id);
          timers.delete(id);
          try {
            return apply(run, this, arguments);
          } finally {
            if (entry) end(entry);
          }
        };
        args[1] = ms;
        try {
          id = apply(native, this, args);
        } catch (e) {
          if (entry) end(entry);
          throw e;
        }
        clocks.set(id, now() + (ms > 0 ? ms : 0));
        if (entry) timers.set(id, entry);
        return id;
      },
    );
    // An interval is nobody's short work, but what its callbacks start belongs to whoever set it.
    const interval = wrap(window, 'setInterval', (native) =>
      function (handler, delay) {
        if (typeof handler !== 'function') return apply(native, this, arguments);
        const period = Number(delay) > 0 ? Number(delay) : 0;
        const run = within({ origin: origin(), due: Infinity, hops: Infinity }, handler);
        let id;
        const args = argsOf(arguments);
        args[0] = function () {
          clocks.set(id, now() + period);
          return apply(run, this, arguments);
        };
        id = apply(native, this, args);
        clocks.set(id, now() + period);
        return id;
      },
    );
    const clear = (native) =>
      function (id) {
        const key = typeof id === 'string' ? Number(id) : id;
        clocks.delete(key);
        const entry = timers.get(key);
        if (entry) {
          timers.delete(key);
          end(entry);
        }
        return apply(native, this, arguments);
      };
    const cleared = wrap(window, 'clearTimeout', clear) && wrap(window, 'clearInterval', clear);
    return timeout && interval && cleared;
  }

  // Messages the page posts: when it last did.
  function wrapPosts() {
    const noted = (native) =>
      function () {
        posted = now();
        return apply(native, this, arguments);
      };
    return wrap(window, 'postMessage', noted) && wrap(MessagePort.prototype, 'postMessage', noted);
  }

  // Copies of the text bodies the page's own script fetched, for browser_get_network_request
  // (sw/netbody.js asks for one by its exact URL): only in the top document and frames of its
  // origin, only JSON, text, HTML and XML by content type, each cut at the tool's body cap, the
  // newest MAX_COPIES kept (so at most MAX_COPIES x MAX_COPY_CHARS characters). A fetch's copy
  // is read from a clone, whose reading the page's own promise never waits for.
  const MAX_COPIES = 50;
  const MAX_COPY_CHARS = 10000; // MAX_BODY_CHARS in sw/netbody.js
  const TEXTUAL = /^\s*(text\/(?!event-stream)|application\/([\w.+-]+\+)?(json|xml)\b)/i;
  const test = RegExp.prototype.test;
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name)?.get;
  const get = (g, self) => apply(g, self, []);
  const { slice } = String.prototype;
  const upTo = (text) => apply(slice, text, [0, MAX_COPY_CHARS]);
  const res = { url: getter(Response.prototype, 'url'), status: getter(Response.prototype, 'status') };
  Object.assign(res, { headers: getter(Response.prototype, 'headers'), body: getter(Response.prototype, 'body') });
  const { clone } = Response.prototype;
  const header = Headers.prototype.get;
  const readerOf = ReadableStream.prototype.getReader;
  const { read: readChunk, cancel } = ReadableStreamDefaultReader.prototype;
  const Decoder = TextDecoder;
  const { decode } = TextDecoder.prototype;
  const xhr = { url: getter(XMLHttpRequest.prototype, 'responseURL') };
  Object.assign(xhr, {
    status: getter(XMLHttpRequest.prototype, 'status'),
    kind: getter(XMLHttpRequest.prototype, 'responseType'),
    text: getter(XMLHttpRequest.prototype, 'responseText'),
    header: XMLHttpRequest.prototype.getResponseHeader,
  });
  const copies = [];
  let copied = 0;
  const ownsCopies = (() => {
    try {
      return window.top === window || window.top.location.origin === location.origin;
    } catch (_) {
      return false; // a frame of another origin than the tab's page
    }
  })();
  const textual = (type) => typeof type === 'string' && apply(test, TEXTUAL, [type]);
  const keepCopy = (url, status, body, cut) => {
    copies[copied % MAX_COPIES] = { url, status, body, cut };
    copied++;
  };
  async function readCopy(response) {
    const reader = apply(readerOf, get(res.body, apply(clone, response, [])), []);
    const decoder = new Decoder();
    let body = '';
    for (;;) {
      const chunk = await apply(readChunk, reader, []);
      if (chunk.done) return { body, cut: false };
      body += apply(decode, decoder, [chunk.value, { stream: true }]);
      if (body.length > MAX_COPY_CHARS) {
        then.call(apply(cancel, reader, []), undefined, () => {});
        return { body: upTo(body), cut: true };
      }
    }
  }
  const copyResponse = (response) => {
    try {
      if (!ownsCopies || !textual(apply(header, get(res.headers, response), ['content-type']))) return;
      const url = get(res.url, response);
      const status = get(res.status, response);
      const copy = readCopy(response);
      then.call(copy, (c) => keepCopy(url, status, c.body, c.cut), () => {});
    } catch (_) {
      // a body we cannot copy is left to the debugger
    }
  };
  const copyXhr = (request) => {
    try {
      const kind = get(xhr.kind, request);
      if (!ownsCopies || (kind !== '' && kind !== 'text')) return;
      if (!textual(apply(xhr.header, request, ['content-type']))) return;
      const text = get(xhr.text, request);
      const cut = text.length > MAX_COPY_CHARS;
      keepCopy(get(xhr.url, request), get(xhr.status, request), cut ? upTo(text) : text, cut);
    } catch (_) {
      // a body we cannot copy is left to the debugger
    }
  };
  // The newest copy of the body at `url` as JSON (null: none), for the service worker alone to
  // ask: it is this document's own data either way.
  const copyOf = (url) => {
    for (let i = copied - 1; i >= 0 && i >= copied - MAX_COPIES; i--) {
      const c = copies[i % MAX_COPIES];
      if (c.url === url) return stringify(c);
    }
    return null;
  };
  if (ownsCopies) Object.defineProperty(window, Symbol.for('tabpilot.bodies'), { value: copyOf });

  // Requests: a fetch, the reading of its body, an XMLHttpRequest.
  function wrapRequests() {
    const fetched = wrap(window, 'fetch', (native) =>
      function () {
        const promise = apply(native, this, arguments);
        const entry = begin(origin());
        endWith(promise, entry, (response) => {
          bodies.set(response, entry.origin);
          copyResponse(response);
        });
        return promise;
      },
    );
    // Reading a fetched body is part of the request: the page renders what it read.
    let read = true;
    for (const name of ['arrayBuffer', 'blob', 'bytes', 'formData', 'json', 'text']) {
      if (!Object.hasOwn(Response.prototype, name)) continue;
      const ok = wrap(Response.prototype, name, (native) =>
        function () {
          const promise = apply(native, this, arguments);
          const from = bodies.get(this);
          if (from !== undefined) endWith(promise, begin(from));
          return promise;
        },
      );
      read = read && ok;
    }
    const sent = wrap(XMLHttpRequest.prototype, 'send', (native) =>
      function () {
        const entry = begin(origin());
        try {
          listen.call(this, 'loadend', () => end(entry), { once: true });
          listen.call(this, 'loadend', () => copyXhr(this), { once: true });
          return apply(native, this, arguments);
        } catch (e) {
          end(entry);
          throw e;
        }
      },
    );
    return fetched && read && sent;
  }

  // WebSockets: a message the page sends (a click asking its server to rerun) is work until its
  // answer is in: the first message back, and the quiet after the last of them.
  function wrapSockets() {
    const waiting = new WeakMap(); // socket -> { entries, quiet timer }
    const answered = (socket) => {
      const w = waiting.get(socket);
      if (!w.entries.length) return;
      apply(nativeClear, window, [w.timer]);
      w.timer = apply(nativeTimeout, window, [() => w.entries.splice(0).forEach(end), ANSWERED_QUIET_MS]);
    };
    const over = (socket) => waiting.get(socket)?.entries.splice(0).forEach(end);
    return wrap(WebSocket.prototype, 'send', (native) =>
      function () {
        const result = apply(native, this, arguments);
        if (!waiting.has(this)) {
          waiting.set(this, { entries: [], timer: null });
          listen.call(this, 'message', () => answered(this));
          listen.call(this, 'close', () => over(this));
        }
        waiting.get(this).entries.push(begin(origin()));
        return result;
      },
    );
  }

  // Whether the page has an animation frame callback waiting. Each request marks it; a callback
  // of our own, asked after it, clears the mark in that frame when no request came since ours
  // (a frame runs its callbacks in the order asked, all in one task), else asks again for the
  // next frame: a callback that asks for another frame keeps the mark. The page's callback goes
  // to the browser as it is, unwrapped, so the browser's long-frame reports keep naming it. A
  // cancelled request stays marked until its frame would have come: a look too many, never one
  // too few.
  let framesAsked = false;
  function wrapFrames() {
    let asks = 0;
    let clearing = false;
    return wrap(window, 'requestAnimationFrame', (native) => {
      const clearAfter = (seen) => () => {
        if (asks !== seen) return void apply(native, window, [clearAfter(asks)]);
        clearing = false;
        framesAsked = false;
      };
      return function () {
        const id = apply(native, this, arguments);
        asks++;
        framesAsked = true;
        if (!clearing) {
          clearing = true;
          apply(native, window, [clearAfter(asks)]);
        }
        return id;
      };
    });
  }

  // How long the page's own scheduled work stays off: ms until its next timer or interval is due
  // (null: none), whether the document is visible, so animation frames may run (a hidden one runs
  // none), whether an animation frame callback of the page's waits (`frames`; undefined when
  // that cannot be told), and ms since it last posted a message (null: never), which is how a
  // loop that moves things runs where timers are throttled. An element nothing of this can move
  // stands still.
  const quiet = () => {
    const t = now();
    let next = null;
    for (const due of clocks.values()) next = next === null ? due - t : Math.min(next, due - t);
    const visible = apply(visibility, document, []) === 'visible';
    const frames = framed ? framesAsked : undefined;
    return { next, visible, frames, posted: posted === null ? null : t - posted };
  };

  // Answers asks; `clocked`: whether `quiet` can be told.
  function answerAsks(clocked) {
    // An ask: { since, watch }. The answer counts the work begun since `since` still pending;
    // `watch: true` asks for a change report each time something ends, `false` stops that.
    listen.call(window, 'tabpilot-activity-ask', (e) => {
      let ask;
      try {
        ask = parse(e.detail);
      } catch (_) {
        return;
      }
      if (ask?.watch === true) watched++;
      else if (ask?.watch === false) watched = Math.max(0, watched - 1);
      const since = typeof ask?.since === 'number' ? ask.since : 0;
      let count = 0;
      for (const entry of pending) if (entry.origin >= since) count++;
      tell('tabpilot-activity', { pending: count, from: installedAt, quiet: clocked ? quiet() : undefined });
    });
  }

  const timed = wrapTimers();
  const clocked = wrapPosts(); // without it, `quiet` is left out of the answer
  const framed = wrapFrames(); // without it, `quiet.frames` is left out
  const requested = wrapRequests();
  wrapSockets(); // without it, an action's wait ends before a socket's answer, as before
  // With any of them missing, the observer would say "nothing started" and be wrong: it stays
  // silent, and the wait falls back to the browser's reports.
  if (timed && requested) answerAsks(clocked);
})();
