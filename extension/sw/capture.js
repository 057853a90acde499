// Screenshots of the agent's tab: captureVisibleTab when the tab is on screen, else (a
// background tab, a full page, webp) the debugger, attached for the one capture.
import { ToolError, getTab } from './errors.js';
import { runInPage, runOnRef } from './page.js';
import { withDebugger } from './debugger.js';
import { inFront, toTop } from './input.js';
import { slowdown, restoreViewport } from './devices.js';
import { anyFilled } from './secrets.js';

const STALL_MS = 10000;
const MAX_FULL_PAGE_PX = 8192; // taller pages are cut, and the result says so

// Each field of the tab holding a secret filled by name is veiled while the capture is taken
// (page/held.js draws its characters as discs), and shown as it was after; with no secret filled
// yet there is none, and the frames are not asked.
export async function screenshot(tabId, args) {
  if (!(await anyFilled())) return shoot(tabId, args);
  const func = (on) => globalThis.__tabpilot?.veil?.(on) ?? 0;
  const veil = (on) =>
    chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func, args: [on] }).catch(() => []);
  const veiled = await veil(true);
  try {
    return await shoot(tabId, args);
  } finally {
    if (veiled.some((r) => r.result)) await veil(false);
  }
}

async function shoot(tabId, { format = 'png', quality, ref, fullPage }) {
  let rect = null;
  if (ref) {
    // An element in a frame: its box is in its frame's viewport, and the capture is of the top one.
    const r = await runOnRef(tabId, 'rect', { ref });
    rect = { ...r.rect, ...(await toTop(tabId, r.frameId, r.rect)) };
  }
  const viewport = await runInPage(tabId, 'viewport', {});
  const opts = format === 'png' ? { format } : { format, quality: quality ?? 80 };
  const base = { format, viewport, rect };
  if (!fullPage && format !== 'webp') {
    const data = await captureInFront(tabId, opts);
    if (data) return { ...base, data, debugger: false };
  }
  // A background tab sometimes never draws the frame a capture waits for (seen after a
  // full-page capture grew and shrank its view); a fresh attach draws it, so a stalled first try
  // gets one more.
  const once = (stallMs) =>
    fullPage
      ? fullPageCapture(tabId, opts, viewport, stallMs)
      : capture(tabId, opts, stallMs).then((data) => ({ data }));
  try {
    return { ...base, ...(await once((STALL_MS / 3) * slowdown(tabId))), debugger: true };
  } catch (e) {
    if (!(e instanceof ToolError && e.code === 'CAPTURE_STALLED')) throw e;
    return { ...base, ...(await once(STALL_MS * slowdown(tabId))), debugger: true };
  }
}

// Chrome lets an extension call captureVisibleTab twice a second, browser-wide: several agents'
// tabs, each in front of its own window, capture in turn, spaced so none is refused. The spacing
// runs from the end of the capture before, not its start: the browser counts a call when it
// reaches it, and a call held up on its way (a busy machine) came within a second of two others
// and was refused (capture::agents_screenshotting_at_once_all_get_their_captures_within_chromes_quota).
const CAPTURE_SPACING_MS = 520;
let lastCapture = Promise.resolve(0);
function paced(capture) {
  const done = lastCapture
    .then(async (at) => {
      const wait = at + CAPTURE_SPACING_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    })
    .then(capture);
  const ended = () => Date.now();
  lastCapture = done.then(ended, ended);
  return done;
}

// captureVisibleTab takes whatever tab is in front of the window, not a tab by its id: the
// agent's tab must be in front when it is taken and stay there throughout (the person may switch
// tabs while the agent's page keeps us waiting), or the capture is dropped and taken of the tab's
// own target instead. Null when the tab is not on screen.
async function captureInFront(tabId, opts) {
  const tab = await getTab(tabId);
  let moved = false;
  const onActivated = (info) => {
    if (info.windowId === tab.windowId) moved = true;
  };
  chrome.tabs.onActivated.addListener(onActivated);
  try {
    if (!(await inFront(tabId))) return null;
    const dataUrl = await paced(() => chrome.tabs.captureVisibleTab(tab.windowId, opts));
    if (moved || !(await inFront(tabId))) return null;
    return dataUrl.split(',')[1];
  } finally {
    chrome.tabs.onActivated.removeListener(onActivated);
  }
}

function fullPageCapture(tabId, opts, viewport, stallMs) {
  return withDebugger(tabId, async (send) => {
    const { cssContentSize } = await send('Page.getLayoutMetrics');
    const height = Math.min(Math.ceil(cssContentSize.height), MAX_FULL_PAGE_PX);
    await send('Emulation.setDeviceMetricsOverride', {
      width: viewport.width,
      height,
      deviceScaleFactor: 0,
      mobile: false,
    });
    try {
      const data = await withStall(send('Page.captureScreenshot', { ...opts, fromSurface: true }), stallMs);
      return { data, cut: cssContentSize.height > MAX_FULL_PAGE_PX };
    } finally {
      // The agent's emulated device, in advanced mode, is put back rather than cleared.
      await restoreViewport(tabId, send).catch(() => {});
    }
  });
}

function withStall(promise, stallMs = STALL_MS) {
  const stalled = new Promise((_, reject) =>
    setTimeout(
      () => reject(new ToolError('CAPTURE_STALLED', `the browser did not draw the tab within ${stallMs / 1000} s`)),
      stallMs,
    ),
  );
  return Promise.race([promise, stalled]).then((r) => r.data);
}

// One animation frame of the tab's top document, in the isolated world (the page's own
// requestAnimationFrame is not asked): a background tab runs one only once it draws.
const drawing = (tabId) =>
  chrome.scripting.executeScript({
    target: { tabId, frameIds: [0] },
    func: () => new Promise((r) => requestAnimationFrame(() => r(true))),
  });

// The first capture asked of a background tab through a fresh attach makes the tab draw for it,
// but the frame it waits for is lost: every capture after a tab's first waited its stall out, and
// only the next attach's drew (a CPU-starved browser ran that one out too: CAPTURE_STALLED).
// Once an animation frame runs in the tab, it draws: a second capture asked then gets its frame.
function capture(tabId, opts, stallMs) {
  const shot = (send) => {
    const ask = () => send('Page.captureScreenshot', { ...opts, fromSurface: true });
    let answered = false;
    const first = ask().finally(() => (answered = true));
    const second = drawing(tabId).then(() => (answered ? first : ask()));
    const either = Promise.any([first, second]).catch(() => first);
    return withStall(either, stallMs);
  };
  return withDebugger(tabId, shot);
}
