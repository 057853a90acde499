// Waiting for an element or text in the page (the ref's frame, else the top one), or for the
// tab's URL to match.
import { getTab } from './errors.js';
import { runInPage, runOnRef } from './page.js';

const URL_POLL_MS = 50;

// A URL pattern where `*` stands for any run of characters and the rest is literal.
function urlPattern(url) {
  const literal = (p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp('^' + url.split('*').map(literal).join('.*') + '$');
}

export async function waitFor(tabId, args) {
  if (args.url == null) return args.ref ? runOnRef(tabId, 'waitFor', args) : runInPage(tabId, 'waitFor', args);
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
