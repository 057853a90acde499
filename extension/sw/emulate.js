// What an agent's tab is told that is not so, without the debugger: its position and extra
// request headers.
// - The position: a packaged override in the page's main world (main/position.js) answers
//   navigator.geolocation.getCurrentPosition and watchPosition, put into the tab's documents now
//   and into each document it commits later while the position is in force (tracking.js, at
//   commit, injected at once). So that a page's first script gets it too, the override is also
//   registered from the document's start on the sites the tab has been on or is going to (as the
//   activity observer is); Chrome registers by address, not by tab, so there it waits for the
//   word of its document's isolated world (content/position.js), which asks the worker: only a
//   document of the tab with the position in force is told it; any other (a person's tab on the
//   same site) gets null, and the browser's own methods back, its calls made meanwhile sent on
//   to them.
// - Headers: one declarativeNetRequest session rule per tab (`tabIds: [tab]`), so the person's
//   tabs and other agents' never carry them, and only on requests to the origin of the page they
//   were set on (a `regexFilter` of that origin): not to another site the tab goes to or its page
//   asks (a sensitive one, say). Headers set on a page of another origin replace them. Its id is
//   RULE_BASE + the tab's id, clear of the site policy's rules (policy.js leaves ids from
//   RULE_BASE up alone).
// The emulation is its agent's: it ends when the agent lets the tab go, and when another agent
// takes it (`heldNowBy`), as advanced mode does.
// What is in force lives in session storage, like the rules: a worker that restarts finds both.
// The device (viewport, user agent, media, throttling) needs the debugger: devices.js.
import { frameTarget } from './page.js';
import { deviceView, setDevice } from './devices.js';
import { onTabGone } from './tabstate.js';
import { ToolError, getTab } from './errors.js';

export const RULE_BASE = 1_000_000;
const PRIORITY = 10;
const AREA = chrome.storage.session;
const DNR = chrome.declarativeNetRequest;

// Promise of { [tabId]: { owner, geolocation?, headers: { name: value }, origin? } }
let kept = null;
const load = () => (kept ??= AREA.get('emulation').then((s) => s.emulation || {}));
const save = async (all) => AREA.set({ emulation: all });

const POSITION = 'main/position.js';
const ASK = 'content/position.js';
const EARLY_IDS = ['tabpilot-position', 'tabpilot-position-ask'];

// Runs in the page's main world, after main/position.js: the position (null: the browser's own).
function setPosition(position) {
  globalThis[Symbol.for('tabpilot.geolocation')]?.set(position);
}

// Puts the tab's position into one frame's document or all of them (tracking.js calls it for
// each new document of an agent's tab); nothing when none is in force.
export async function installPosition(tabId, frameId, position) {
  const p = position === undefined ? (await load())[tabId]?.geolocation : position;
  if (p === undefined) return;
  const target = frameTarget(tabId, frameId);
  const run = (injection) =>
    chrome.scripting.executeScript({ target, world: 'MAIN', injectImmediately: true, ...injection });
  await run({ files: [POSITION] })
    .then(() => run({ func: setPosition, args: [p] }))
    .catch(() => {});
}

// The web site of a URL as a match pattern (`http://host/*`), or null.
const siteOf = (url) => {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.protocol}//${u.hostname}/*` : null;
  } catch (_) {
    return null;
  }
};

// The override and its ask are registered from each document's start on the sites the tabs with
// a position have been on or are about to load, so a page's first script finds the override
// there; only a tab with a position in force is told one (positionFor). One update at a time.
let registering = Promise.resolve();
function registerEarly(all) {
  const matches = [...new Set(Object.values(all).flatMap((e) => (e.geolocation ? e.sites || [] : [])))].sort();
  registering = registering.then(async () => {
    const have = await chrome.scripting.getRegisteredContentScripts({ ids: EARLY_IDS }).catch(() => []);
    if (have.length === 2 && have[0].matches.join() === matches.join()) return;
    if (have.length) await chrome.scripting.unregisterContentScripts({ ids: EARLY_IDS }).catch(() => {});
    if (!matches.length) return;
    const common = { matches, runAt: 'document_start', allFrames: true, persistAcrossSessions: false };
    await chrome.scripting
      .registerContentScripts([
        { ...common, id: EARLY_IDS[0], js: [POSITION], world: 'MAIN' },
        { ...common, id: EARLY_IDS[1], js: [ASK] },
      ])
      .catch(() => {});
  });
  return registering;
}

// The tab with a position will be on `url`'s site: that site gets the override from the start.
export async function positionEarly(tabId, url) {
  const all = await load();
  const e = all[tabId];
  const site = siteOf(url);
  if (!e?.geolocation || !site || e.sites?.includes(site)) return;
  e.sites = [...(e.sites || []), site];
  await save(all);
  await registerEarly(all);
}

// What a document asking from its start (content/position.js) is told: the position in force
// in its tab, which the browser names (a page cannot say it is another tab); null elsewhere.
export async function positionFor(sender) {
  return (await load())[sender.tab?.id]?.geolocation ?? null;
}

// A tab with a position that goes to another site (a link, the page's own navigation) gets the
// override from the start there too, for its next document.
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId === 0) positionEarly(d.tabId, d.url).catch(() => {});
});

const every = () => Object.values(DNR.ResourceType);

// `origin` as a regular expression that matches the URLs of that origin and no other.
export function originFilter(origin) {
  return `^${origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[/?#]`;
}

// The web origin of the tab's page, which headers set now are for.
async function originOf(tabId) {
  const url = (await getTab(tabId)).url || '';
  if (/^https?:\/\//i.test(url)) return new URL(url).origin;
  const why = `headers go only to the origin of the page they are set on, and tab ${tabId} shows no web page`;
  throw new ToolError('BAD_ARGS', `${why}: browser_navigate there first`, 'refused');
}

async function putRule(tabId, headers, origin) {
  const id = RULE_BASE + tabId;
  const requestHeaders = Object.entries(headers).map(([header, value]) => ({ header, operation: 'set', value }));
  const action = { type: 'modifyHeaders', requestHeaders };
  // Headers kept from before origins were recorded have none: they go nowhere.
  const condition = { tabIds: [tabId], resourceTypes: every(), regexFilter: originFilter(origin || 'none:') };
  const addRules = requestHeaders.length ? [{ id, priority: PRIORITY, action, condition }] : [];
  await DNR.updateSessionRules({ removeRuleIds: [id], addRules });
}

const view = (tabId, e) => ({
  ...(e?.geolocation ? { geolocation: e.geolocation } : {}),
  headers: Object.keys(e?.headers || {}).sort(),
  ...deviceView(tabId),
});

// `emulate` op: sets or clears the tab's device, position and headers, and answers what is in
// force. The device goes first: refused with advanced mode off, it leaves the rest as it was.
export async function emulate(tabId, args, owner) {
  const { geolocation, headers, clear, clearGeolocation, device, clearDevice } = args;
  const origin = Object.keys(headers || {}).length ? await originOf(tabId) : null;
  await setDevice(tabId, device, clearDevice);
  const all = await load();
  const was = all[tabId] || { headers: {} };
  const next = { ...was, owner, headers: { ...was.headers } };
  if (clear === true) next.headers = {};
  else for (const name of Array.isArray(clear) ? clear : []) delete next.headers[name];
  if (clearGeolocation) delete next.geolocation;
  // Headers set on another origin's page are that origin's: the earlier ones are not carried over.
  if (origin && origin !== was.origin) next.headers = {};
  if (origin) next.origin = origin;
  Object.assign(next.headers, headers || {});
  if (geolocation) next.geolocation = geolocation;
  const site = next.geolocation ? siteOf((await getTab(tabId)).url || '') : null;
  if (site && !next.sites?.includes(site)) next.sites = [...(next.sites || []), site];
  if (!next.geolocation) delete next.sites;
  await putRule(tabId, next.headers, next.origin);
  if (next.geolocation || Object.keys(next.headers).length) all[tabId] = next;
  else delete all[tabId];
  await save(all);
  await registerEarly(all);
  if (geolocation || (was.geolocation && !next.geolocation)) {
    await installPosition(tabId, undefined, next.geolocation ?? null);
  }
  return view(tabId, next);
}

// `emulation` op: what is in force in the tab.
export async function emulation(tabId) {
  return view(tabId, (await load())[tabId]);
}

// Ends the tab's emulation: it closed, or its agent let it go (a tab handed back to the person
// keeps neither a faked position nor the agent's headers).
export async function endEmulation(tabId) {
  const all = await load();
  if (!all[tabId]) return;
  const had = all[tabId].geolocation;
  delete all[tabId];
  await save(all);
  await registerEarly(all);
  await DNR.updateSessionRules({ removeRuleIds: [RULE_BASE + tabId] });
  if (had) await installPosition(tabId, undefined, null);
}

// Another agent now holds the tab: the emulation of the one before ends with its hold.
export async function emulationHeldBy(tabId, owner) {
  const e = (await load())[tabId];
  if (e && owner && e.owner && e.owner !== owner) await endEmulation(tabId);
}

onTabGone(endEmulation);
