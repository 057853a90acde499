// Page script: the page's own performance figures, read from the browser's buffers through a
// PerformanceObserver (buffered, so a page that loaded long ago still answers), and its JS heap
// over time. It runs in the isolated world, so the page's globals cannot fake what it reads.
// Figures only: the controller rates them and says what a missing one means.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.vitals) return;
  const { refFor, describeEl, cut } = T;

  const MAX_FRAMES = 10; // long animation frames (or long tasks) reported, longest first
  const MAX_SCRIPTS = 3; // scripts named per long frame
  const MAX_SHIFTED = 5; // elements named for the layout shifts that make up CLS
  const MAX_SAMPLES = 600; // heap samples in one memory call
  const MAX_BLOCKING = 20; // render-blocking resources reported, the last to finish first
  const BUFFER_WAIT_MS = 150; // an empty buffer calls no observer back: how long to give it

  const ms = (t) => Math.round(t * 10) / 10;
  const supports = (type) => PerformanceObserver.supportedEntryTypes.includes(type);

  // The buffered entries of one type; null when this browser does not record the type.
  function buffered(type, extra = {}) {
    if (!supports(type)) return Promise.resolve(null);
    return new Promise((resolve) => {
      const got = [];
      const obs = new PerformanceObserver((list) => got.push(...list.getEntries()));
      obs.observe({ type, buffered: true, ...extra });
      T.sleep(BUFFER_WAIT_MS).then(() => {
        got.push(...obs.takeRecords());
        obs.disconnect();
        resolve(got);
      });
    });
  }

  // An element as a result names it: its ref (the one a snapshot gives) and a short description.
  function named(node, tags, memo) {
    const el = node?.nodeType === 3 ? node.parentElement : node;
    if (!el || el.nodeType !== 1 || !el.isConnected) return null;
    return { ref: refFor(el, tags, memo), element: describeEl(el) };
  }

  // CLS as web-vitals computes it: shifts without recent input, in session windows (each shift
  // within 1 s of the last and 5 s of the first); the window with the largest sum.
  function cls(shifts) {
    let best = { value: 0, entries: [] };
    let win = { value: 0, entries: [] };
    for (const e of shifts.filter((s) => !s.hadRecentInput)) {
      const first = win.entries[0];
      const last = win.entries[win.entries.length - 1];
      if (last && e.startTime - last.startTime < 1000 && e.startTime - first.startTime < 5000) {
        win.value += e.value;
        win.entries.push(e);
      } else {
        win = { value: e.value, entries: [e] };
      }
      if (win.value > best.value) best = { value: win.value, entries: [...win.entries] };
    }
    return best;
  }

  // INP as web-vitals computes it from what is kept: each interaction's longest event, then the
  // worst, skipping one for every 50 interactions; named by the first of its events with a target
  // still in the page.
  function inp(events, firstInput) {
    const byId = new Map();
    for (const e of [...events, ...firstInput]) {
      if (!e.interactionId) continue;
      const one = byId.get(e.interactionId) || { duration: 0, event: e.name, target: null };
      one.duration = Math.max(one.duration, e.duration);
      if (!one.target && e.target?.isConnected) Object.assign(one, { target: e.target, event: e.name });
      byId.set(e.interactionId, one);
    }
    const all = [...byId.values()].sort((a, b) => b.duration - a.duration);
    if (!all.length) return null;
    return { worst: all[Math.min(Math.floor(all.length / 50), all.length - 1)], interactions: all.length };
  }

  function longFrames(loaf, tasks) {
    const top = (list) => [...list].sort((a, b) => b.duration - a.duration).slice(0, MAX_FRAMES);
    if (loaf) {
      return top(loaf).map((f) => ({
        startMs: ms(f.startTime),
        durationMs: ms(f.duration),
        blockingMs: ms(f.blockingDuration || 0),
        scripts: [...(f.scripts || [])]
          .sort((a, b) => b.duration - a.duration)
          .slice(0, MAX_SCRIPTS)
          .map((s) => ({
            invoker: cut(s.invoker || '', 120),
            source: cut(s.sourceURL || '', 200),
            function: cut(s.sourceFunctionName || '', 80),
            durationMs: ms(s.duration),
          })),
      }));
    }
    return top(tasks || []).map((t) => ({
      startMs: ms(t.startTime),
      durationMs: ms(t.duration),
      scripts: (t.attribution || []).map((a) => ({ invoker: a.containerType || a.name, source: a.containerSrc || '' })),
    }));
  }

  // The largest contentful paint with the breakdown web-vitals' attribution gives: first byte,
  // the wait until the resource's request began, its load, and the wait from then until it was
  // drawn; and what says why the image's request began when it did (how it was found, the
  // element's loading and fetchpriority attributes).
  function largest(lcp, nav, since) {
    const ttfb = nav ? since(nav.responseStart) : 0;
    const res = lcp.url ? performance.getEntriesByName(lcp.url, 'resource')[0] : null;
    const reqStart = Math.max(ttfb, res ? since(res.requestStart || res.startTime) : 0);
    const resEnd = Math.max(reqStart, res ? since(res.responseEnd) : 0);
    const shown = Math.max(resEnd, since(lcp.startTime));
    const el = lcp.element;
    return {
      ms: since(lcp.startTime),
      url: lcp.url ? cut(lcp.url, 200) : undefined,
      breakdown: nav && {
        ttfbMs: ttfb,
        loadDelayMs: ms(reqStart - ttfb),
        loadTimeMs: ms(resEnd - reqStart),
        renderDelayMs: ms(shown - resEnd),
      },
      initiator: res?.initiatorType || undefined,
      loading: (lcp.url && el?.getAttribute?.('loading')) || undefined,
      fetchPriority: (lcp.url && el?.getAttribute?.('fetchpriority')) || undefined,
    };
  }

  // What held the first render: Resource Timing's render-blocking resources (stylesheets and
  // synchronous scripts in the head, `blocking=render`), the last to finish first; null where
  // the browser does not say.
  function renderBlocking(since) {
    if (!('renderBlockingStatus' in PerformanceResourceTiming.prototype)) return null;
    const kinds = { link: 'stylesheet', css: 'stylesheet (@import)', script: 'script' };
    const all = performance
      .getEntriesByType('resource')
      .filter((r) => r.renderBlockingStatus === 'blocking')
      .map((r) => ({
        url: cut(r.name, 200),
        kind: kinds[r.initiatorType] || r.initiatorType,
        startMs: since(r.startTime),
        endMs: since(r.responseEnd),
      }))
      .sort((a, b) => b.endMs - a.endMs);
    return { count: all.length, resources: all.slice(0, MAX_BLOCKING) };
  }

  T.ops.vitals = async () => {
    const [lcps, shifts, events, firstInput, loaf, tasks, seen] = await Promise.all([
      buffered('largest-contentful-paint'),
      buffered('layout-shift'),
      buffered('event', { durationThreshold: 16 }),
      buffered('first-input'),
      buffered('long-animation-frame'),
      // Long tasks only where long animation frames, which say more, are not recorded.
      supports('long-animation-frame') ? null : buffered('longtask'),
      buffered('visibility-state'),
    ]);
    const tags = T.tagAll(document.documentElement);
    const memo = new Map();
    const nav = performance.getEntriesByType('navigation')[0];
    const start = nav?.activationStart || 0;
    const since = (t) => ms(Math.max(t - start, 0));
    // Hidden pages paint nothing: what came after the page was first hidden is not counted.
    const hiddenAt = seen?.find((v) => v.name === 'hidden')?.startTime ?? (document.hidden ? 0 : null);
    const before = (e) => hiddenAt === null || e.startTime < hiddenAt;
    const out = {
      url: location.href,
      hiddenAt: hiddenAt === null ? null : ms(hiddenAt),
      supported: { lcp: !!lcps, cls: !!shifts, inp: !!events },
    };
    const ttfb = nav ? since(nav.responseStart) : null;
    out.ttfb = ttfb;
    const fcp = performance.getEntriesByName('first-contentful-paint').find(before);
    out.fcp = fcp ? since(fcp.startTime) : null;
    const lcp = (lcps || []).filter(before).pop();
    if (lcp) out.lcp = { ...largest(lcp, nav, since), ...named(lcp.element, tags, memo) };
    if (shifts) {
      const c = cls(shifts);
      const moved = new Map();
      for (const e of c.entries) {
        for (const s of e.sources || []) {
          const n = named(s.node, tags, memo);
          if (n && moved.size < MAX_SHIFTED) moved.set(n.ref, n);
        }
      }
      out.cls = { value: Math.round(c.value * 10000) / 10000, shifts: c.entries.length, shifted: [...moved.values()] };
    }
    const slowest = events ? inp(events, firstInput || []) : null;
    if (slowest) {
      const { worst, interactions } = slowest;
      out.inp = { ms: ms(worst.duration), event: worst.event, interactions, ...named(worst.target, tags, memo) };
    }
    out.longFrames = longFrames(loaf, tasks);
    out.longFramesKind = loaf ? 'long-animation-frame' : tasks ? 'longtask' : null;
    out.renderBlocking = renderBlocking(since);
    return out;
  };

  // The JS heap every `everyMs` for `durationMs` (timed by the service worker, so a background
  // tab's throttled timers do not stretch it): [ms since the first sample, used bytes].
  T.ops.memory = async ({ durationMs, everyMs }) => {
    if (!performance.memory) return { supported: false };
    const samples = [];
    const t0 = performance.now();
    for (;;) {
      samples.push([ms(performance.now() - t0), performance.memory.usedJSHeapSize]);
      if (performance.now() - t0 + everyMs > durationMs || samples.length >= MAX_SAMPLES) break;
      await T.sleep(everyMs);
    }
    return { supported: true, samples, limitBytes: performance.memory.jsHeapSizeLimit };
  };
})();
