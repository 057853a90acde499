// The tabs agents act in, and the one place that installs our main-world pieces in them: each
// new document of a tracked tab gets every piece as it commits (as early as an extension reaches
// a page without the debugger, though a fast page may have run its first scripts by then), and a
// page already open when its tab becomes tracked gets the pieces that are safe to add late.
import { installDialogs } from './dialogs.js';
import { installActivity, noteSite } from './activity.js';
import { installKeeper } from './console.js';
import { installPosition } from './emulate.js';
import { perTab } from './tabstate.js';

// The activity observer first: the sooner it is in, the more of the page's own start it sees.
const PIECES = [
  // Only from a document's start: the scripts of a page already running may hold their own
  // fetch from before, past the observer's reach (see activity.js).
  { install: installActivity, intoOpenPage: false },
  { install: installDialogs, intoOpenPage: true },
  // Hands a document's console log over as it goes; it needs to be in only by then.
  { install: installKeeper, intoOpenPage: true },
  // A faked position (browser_emulate), in force in the tab: nothing when none is.
  { install: (tabId, frameId) => installPosition(tabId, frameId), intoOpenPage: false },
];

const tracked = perTab(Set);

// Starts tracking a tab (idempotent).
export function track(tabId) {
  if (tabId === null || tracked.has(tabId)) return;
  tracked.add(tabId);
  for (const piece of PIECES) if (piece.intoOpenPage) piece.install(tabId);
}

// Whether an agent works in the tab (what only those tabs get: their network log, say).
export const isTracked = (tabId) => tracked.has(tabId);

chrome.webNavigation.onCommitted.addListener((d) => {
  if (!tracked.has(d.tabId)) return;
  for (const piece of PIECES) piece.install(d.tabId, d.frameId);
  if (d.frameId === 0) noteSite(d.tabId, d.url);
});
