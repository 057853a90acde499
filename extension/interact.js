// The interaction tools as the browser runs them: each takes (tabId, args, timeoutMs) and runs
// its page operation in the frame its ref names, through act(): the wait after it (args.after)
// and any navigation it caused are reported.
import { ToolError } from './errors.js';
import { act, sameUrl, settle } from './navigation.js';
import { locate, runInPage, runOnRef } from './page.js';

export const interactions = {
  // Without a ref, click is at a viewport point of the top frame.
  click: (tabId, args, timeoutMs) => act(tabId, 'click', args, timeoutMs),
  type: (tabId, args, timeoutMs) => act(tabId, 'type', args, timeoutMs),
  hover: (tabId, args, timeoutMs) => act(tabId, 'hover', args, timeoutMs),
  select: (tabId, args, timeoutMs) => act(tabId, 'select', args, timeoutMs),
  clear: (tabId, args, timeoutMs) => act(tabId, 'clear', args, timeoutMs),
  upload: (tabId, args, timeoutMs) => act(tabId, 'upload', args, timeoutMs),
  upload_part: (tabId, args) => runOnRef(tabId, 'uploadPart', args),
  drag: async (tabId, args, timeoutMs) => {
    const [a, b] = [await locate(tabId, args.startRef), await locate(tabId, args.endRef)];
    if (a.frameId !== b.frameId) throw new ToolError('BAD_ARGS', 'startRef and endRef are in different frames; a drag stays in one frame', 'refused');
    return act(tabId, 'drag', { ref: args.startRef, endRef: b.ref, after: args.after }, timeoutMs);
  },
  press: async (tabId, args, timeoutMs) => act(tabId, 'press', { ...args, frameId: await focusedFrame(tabId) }, timeoutMs),
  scroll: (tabId, args) => (args.ref === undefined ? runInPage(tabId, 'scroll', args, 0) : runOnRef(tabId, 'scroll', args)),
  fill_form: fillForm,
};

// The frame that holds the focus: follow each document's focused <iframe> down to its frame.
async function focusedFrame(tabId) {
  const probe = () => {
    const a = document.activeElement;
    return a && (a.localName === 'iframe' || a.localName === 'frame') ? a.src : null;
  };
  let found = [];
  try {
    found = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: probe });
  } catch (_) {
    return 0;
  }
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) || [];
  let frameId = 0;
  for (let depth = 0; depth < 10; depth++) {
    const src = found.find((r) => r.frameId === frameId)?.result;
    if (!src) break;
    const kids = frames.filter((f) => f.parentFrameId === frameId);
    const kid = kids.find((f) => sameUrl(f.url, src)) || (kids.length === 1 ? kids[0] : null);
    if (!kid) break;
    frameId = kid.frameId;
  }
  return frameId;
}

// Many fields, maybe in several frames. Every address and value is checked in every frame
// before the first write, so a refused call wrote nothing; then the fields are written in the
// order given (a run of fields in one frame in one page call), each with its own outcome.
async function fillForm(tabId, { fields, after }, timeoutMs) {
  const started = Date.now();
  const located = [];
  for (const [i, f] of fields.entries()) {
    const { frameId, ref } = await locate(tabId, f.ref);
    located.push({ i, frameId, ref, value: f.value });
  }
  const checks = new Map();
  const frames = [...new Set(located.map((l) => l.frameId))];
  await Promise.all(
    frames.map(async (frameId) => {
      const mine = located.filter((l) => l.frameId === frameId).map(({ i, ref, value }) => ({ i, ref, value }));
      const r = await runInPage(tabId, 'formCheck', { fields: mine }, frameId);
      for (const c of r.fields) checks.set(c.i, c);
    }),
  );
  const problems = [];
  located.forEach((l, n) => {
    const c = checks.get(l.i);
    const ref = fields[l.i].ref;
    if (c.error) problems.push({ code: c.error.code, text: `${ref}: ${c.error.message}` });
    // Hidden or disabled is allowed only where an earlier field in the same document could
    // change that (a country revealing its states); such a field is checked again at its turn.
    else if (c.waiting && !located.slice(0, n).some((p) => p.frameId === l.frameId)) {
      problems.push({ code: 'NOT_ACTIONABLE', text: `${ref}: ${c.element} is hidden or disabled, and no earlier field could change that` });
    }
  });
  if (problems.length) {
    throw new ToolError(problems[0].code, `nothing was filled; ${problems.map((p) => p.text).join('; ')}`, 'refused');
  }
  const results = [];
  for (let n = 0; n < located.length; ) {
    let end = n + 1;
    while (end < located.length && located[end].frameId === located[n].frameId) end++;
    const run = located.slice(n, end);
    try {
      const r = await runInPage(tabId, 'formFill', { fields: run.map(({ i, ref, value }) => ({ i, ref, value })) }, run[0].frameId);
      results.push(...r.fields);
    } catch (e) {
      for (const l of run) results.push({ i: l.i, outcome: 'failed', error: { code: e.code || 'INTERNAL', message: e.message } });
    }
    n = end;
  }
  const settled = await settle(tabId, { waitUntil: 'auto', ...after }, started + timeoutMs, started);
  return {
    fields: results.map((r) => ({ ref: fields[r.i].ref, element: r.element || checks.get(r.i).element, outcome: r.outcome, ...(r.error ? { error: r.error } : {}) })),
    settled,
  };
}
