// Waiting for an element or text in the page (the ref's frame, else the top one), or for the
// tab's URL to match (or a frame's, as it navigates there).
import { ToolError, getTab } from './errors.js';
import { PageReplaced, locate, runInPage, runOnRef } from './page.js';
import { nextDocument } from './navigation.js';

const URL_POLL_MS = 50;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// Written `/…/` with a regular expression's own characters in it, a regular expression: `/…/`
// without them is a path, a substring as before (and a regular expression of only letters,
// digits and `.` finds what the substring does).
const REGEX_CHARS = /[\^$+?()[\]{}|\\]/;
const isRegex = (url) => url.length > 2 && url.startsWith('/') && url.endsWith('/') && REGEX_CHARS.test(url);

// A URL pattern where `*` stands for any run of characters and the rest is literal; or a regular
// expression found anywhere in the URL (refused when it is none).
function urlPattern(url) {
  if (isRegex(url)) {
    try {
      return new RegExp(url.slice(1, -1));
    } catch (e) {
      throw new ToolError('BAD_ARGS', `url ${JSON.stringify(url)} is not a regular expression: ${e.message}`);
    }
  }
  const literal = (p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp('^' + url.split('*').map(literal).join('.*') + '$');
}

// A wait on a ref. The element goes with its document: a wait for it to hide (or be detached) is
// met when its frame leaves that document (the page script's answer is dropped as the frame
// starts to go, and the next document's commit is when it has gone); a wait for it to show (or
// be attached) is STALE_REF then.
async function waitOnRef(tabId, args) {
  const t0 = Date.now();
  const { frameId } = await locate(tabId, args.ref);
  const next = nextDocument(tabId, frameId);
  try {
    return await runOnRef(tabId, 'waitFor', args);
  } catch (e) {
    if (!(e instanceof PageReplaced) || (args.state !== 'hidden' && args.state !== 'detached')) throw e;
    const left = Math.max(0, args.timeoutMs - (Date.now() - t0));
    const gone = await Promise.race([next.committed.then(() => true), pause(left).then(() => false)]);
    return { met: gone, waitedMs: Date.now() - t0 };
  } finally {
    next.stop();
  }
}

// Waits in the page; a wait for text or an element (no ref) that outlives its page goes on in
// the next one, within the same time.
async function waitInPage(tabId, args, job) {
  if (args.ref) return waitOnRef(tabId, args);
  const t0 = Date.now();
  for (;;) {
    job?.check();
    const left = args.timeoutMs - (Date.now() - t0);
    // A page that goes into the back/forward cache never answers: its next document ends it.
    const next = nextDocument(tabId, 0);
    const run = runInPage(tabId, 'waitFor', { ...args, timeoutMs: Math.max(0, left) });
    run.catch(() => {}); // its answer no longer counts once the page has gone
    const gone = next.committed.then(() => {
      throw new PageReplaced(tabId);
    });
    try {
      const r = await Promise.race([run, gone]);
      return { ...r, waitedMs: Date.now() - t0 };
    } catch (e) {
      if (!(e instanceof PageReplaced) || left <= 0) throw e;
      await pause(URL_POLL_MS);
    } finally {
      next.stop();
    }
  }
}

// `run`: the call's cancellation (sw/cancel.js); a cancelled wait stops, here and in the page.
export async function waitFor(tabId, args, run = null) {
  run?.at('waiting');
  if (args.url == null) return waitInPage(tabId, run ? { ...args, call: run.page(crypto.randomUUID()) } : args, run);
  const t0 = Date.now();
  const pattern = urlPattern(args.url);
  const plain = !args.url.includes('*') && !isRegex(args.url);
  const matches = (url) => pattern.test(url) || (plain && url.includes(args.url));
  // A frame that navigates there meets it too: a commit from now on only, so that a frame
  // already at such an address (another site's, say) does not.
  let framed = null;
  const committed = (d) => {
    if (d.tabId === tabId && d.frameId !== 0 && framed === null && matches(d.url)) framed = d.url;
  };
  chrome.webNavigation.onCommitted.addListener(committed);
  try {
    for (;;) {
      const url = (await getTab(tabId)).url || '';
      const met = matches(url) || framed !== null;
      const waitedMs = Date.now() - t0;
      if (met || waitedMs >= args.timeoutMs || run?.cancelled) {
        return { met, waitedMs, url: matches(url) ? url : (framed ?? url) };
      }
      await pause(URL_POLL_MS);
    }
  } finally {
    chrome.webNavigation.onCommitted.removeListener(committed);
  }
}
