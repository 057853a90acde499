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

const OBSERVER = 'main/activity.js';

// Installs the observer (main/activity.js) in one frame of the tab, or in all of them.
export async function installActivity(tabId, frameId) {
  const target = frameTarget(tabId, frameId);
  await chrome.scripting
    .executeScript({ target, world: 'MAIN', files: [OBSERVER], injectImmediately: true })
    .catch(() => {});
}
