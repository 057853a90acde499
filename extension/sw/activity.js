// What the page starts, seen from inside it. A packaged observer in the page's main world (each
// new document of an agent's tab gets it as it commits: tracking.js) notes the requests (fetch,
// XMLHttpRequest, the reading of a fetched body) and the short timers the page starts, each with
// the time its chain of work began. The wait after an action asks it, over window events, whether
// anything begun since the action is still pending (page/wait.js), so an action that starts
// nothing returns at once instead of waiting for the browser's late report of a request. The
// same answer says how long the page's own timers and message loops stay off, and whether it is
// visible (where animation frames run), so a click whose element nothing can move skips the frame
// its stability look costs (page/actionable.js).
//
// The wrappers keep what the page sees: each calls the page's own function with the same `this`
// and arguments and returns what that returns (fetch: the page's own promise); the notes hang
// off side chains that never reject.
//
// A page can tell the wrappers are there, and a hostile page can fake or hide its own activity
// (answer the asks itself, call a fetch it kept from before the observer came): that changes only
// how long the wait after an action lasts, which settleMs bounds. Nothing else trusts the
// observer. It also keeps bounded copies of the text bodies the page's own script fetched, for
// browser_get_network_request (netbody.js): the page's own data, left in the page until asked.
import { frameTarget } from './page.js';
import { onTabGone, perTab } from './tabstate.js';

const OBSERVER = 'main/activity.js';
const EARLY_ID = 'tabpilot-activity';

// The observer is also registered as a content script, from each top document's start, on the
// sites agents' tabs are on or about to load: installed as a document commits, it comes after an
// inline script that fetches as the page loads, and that request (its body above all) is the one
// an agent most often asks about. Chrome registers content scripts by address, not by tab, so a
// person's own tab on one of those sites gets it too: it keeps what it notes inside that page,
// and only agents' tabs are ever asked. The sites are those of the agents' tabs, nothing more.
const sites = perTab(); // tabId -> match pattern of its site
const soon = new Map(); // a site a tab is about to load -> until when it stays registered for it
const SOON_MS = 60_000;
let registering = Promise.resolve();
let registered = null; // the matches last registered (null: not known, as when the worker starts)

const siteOf = (url) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.hostname}/*` : null;
  } catch (_) {
    return null;
  }
};

// Registers the observer early on the agents' sites and those their tabs are about to load; one
// update at a time, in order.
function registerEarly() {
  const now = Date.now();
  for (const [site, until] of soon) if (until < now) soon.delete(site);
  const matches = [...new Set([...sites.values(), ...soon.keys()])].sort();
  // Any tab's closing asks again; most change nothing, and cost no call to the browser.
  if (matches.join() === registered) return registering;
  registered = matches.join();
  registering = registering.then(async () => {
    const have = await chrome.scripting.getRegisteredContentScripts({ ids: [EARLY_ID] }).catch(() => []);
    if (have.length && have[0].matches.join() === matches.join()) return;
    if (have.length) await chrome.scripting.unregisterContentScripts({ ids: [EARLY_ID] }).catch(() => {});
    if (!matches.length) return;
    const script = { id: EARLY_ID, js: [OBSERVER], matches, runAt: 'document_start', world: 'MAIN' };
    await chrome.scripting.registerContentScripts([{ ...script, persistAcrossSessions: false }]).catch(() => {
      registered = null; // tried again at the next ask
    });
  });
  return registering;
}

// Before an agent's tab loads `url`: its site gets the observer from the document's start.
export function observeEarly(url) {
  const site = siteOf(url);
  if (site) soon.set(site, Date.now() + SOON_MS);
  return registerEarly();
}

// An agent's tab is on `url` now (its top document committed there).
export function noteSite(tabId, url) {
  const site = siteOf(url);
  if (sites.get(tabId) === site) return;
  if (site) sites.set(tabId, site);
  else sites.delete(tabId);
  registerEarly();
}

onTabGone(() => registerEarly());
// A service worker that starts again knows no agent's site yet: what an earlier one registered goes.
registerEarly();

// Installs the observer (main/activity.js) in one frame of the tab, or in all of them.
export async function installActivity(tabId, frameId) {
  const target = frameTarget(tabId, frameId);
  await chrome.scripting
    .executeScript({ target, world: 'MAIN', files: [OBSERVER], injectImmediately: true })
    .catch(() => {});
}
