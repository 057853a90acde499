// Waiting for an element or text in the page (the ref's frame, else the top one), or for the
// tab's URL to match.
import { getTab } from './errors.js';
import { PageReplaced, runInPage, runOnRef } from './page.js';
import { nextDocument } from './navigation.js';

const URL_POLL_MS = 50;

// A URL pattern where `*` stands for any run of characters and the rest is literal.
function urlPattern(url) {
  const literal = (p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp('^' + url.split('*').map(literal).join('.*') + '$');
}

// Waits in the page; a wait for text or an element (no ref) that outlives its page goes on in
// the next one, within the same time.
async function waitInPage(tabId, args) {
  if (args.ref) return runOnRef(tabId, 'waitFor', args);
  const t0 = Date.now();
  for (;;) {
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
      await new Promise((r) => setTimeout(r, URL_POLL_MS));
    } finally {
      next.stop();
    }
  }
}

export async function waitFor(tabId, args) {
  if (args.url == null) return waitInPage(tabId, args);
  const t0 = Date.now();
  const pattern = urlPattern(args.url);
  for (;;) {
    const url = (await getTab(tabId)).url || '';
    const met = pattern.test(url) || (!args.url.includes('*') && url.includes(args.url));
    const waitedMs = Date.now() - t0;
    if (met || waitedMs >= args.timeoutMs) return { met, waitedMs, url };
    await new Promise((r) => setTimeout(r, URL_POLL_MS));
  }
}
