// What an agent's tab is told that is not so, without the debugger: its position and extra
// request headers.
// - The position: a packaged override in the page's main world answers
//   navigator.geolocation.getCurrentPosition and watchPosition, put into the tab's documents now
//   and into each document it commits later while the position is in force (tracking.js, at
//   commit, injected at once). The race accepted: a page whose first script asks for its position
//   before the commit's injection lands (a fast inline script) gets the browser's own answer; a
//   page asking after load, or on the person's click, gets ours.
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

// Runs in the page's main world: our function, with the position (null: the browser's own again).
function fakePosition(position) {
  const KEY = Symbol.for('tabpilot.geolocation');
  const proto = globalThis.Geolocation?.prototype;
  if (!proto) return;
  if (!window[KEY]) {
    const native = {
      get: proto.getCurrentPosition,
      watch: proto.watchPosition,
      clear: proto.clearWatch,
    };
    const state = { position: null, watches: new Map(), next: 1 };
    const answer = (success) => {
      const p = state.position;
      const coords = { latitude: p.latitude, longitude: p.longitude, accuracy: p.accuracy ?? 10 };
      Object.assign(coords, { altitude: null, altitudeAccuracy: null, heading: null, speed: null });
      setTimeout(() => success({ coords, timestamp: Date.now() }), 0);
    };
    const methods = {
      getCurrentPosition(success, error, options) {
        if (!state.position) return native.get.call(this, success, error, options);
        answer(success);
      },
      watchPosition(success, error, options) {
        if (!state.position) return native.watch.call(this, success, error, options);
        const id = -state.next++;
        state.watches.set(id, success);
        answer(success);
        return id;
      },
      clearWatch(id) {
        if (!state.watches.delete(id)) native.clear.call(this, id);
      },
    };
    for (const [name, value] of Object.entries(methods)) {
      Object.defineProperty(proto, name, { value, writable: true, configurable: true });
    }
    Object.defineProperty(window, KEY, { value: state });
    state.answer = answer;
  }
  const state = window[KEY];
  state.position = position;
  if (position) for (const success of state.watches.values()) state.answer(success);
}

// Puts the tab's position into one frame's document or all of them (tracking.js calls it for
// each new document of an agent's tab); nothing when none is in force.
export async function installPosition(tabId, frameId, position) {
  const p = position === undefined ? (await load())[tabId]?.geolocation : position;
  if (p === undefined) return;
  const target = frameTarget(tabId, frameId);
  await chrome.scripting
    .executeScript({ target, world: 'MAIN', func: fakePosition, args: [p], injectImmediately: true })
    .catch(() => {});
}

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
  await putRule(tabId, next.headers, next.origin);
  if (next.geolocation || Object.keys(next.headers).length) all[tabId] = next;
  else delete all[tabId];
  await save(all);
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
  await DNR.updateSessionRules({ removeRuleIds: [RULE_BASE + tabId] });
  if (had) await installPosition(tabId, undefined, null);
}

// Another agent now holds the tab: the emulation of the one before ends with its hold.
export async function emulationHeldBy(tabId, owner) {
  const e = (await load())[tabId];
  if (e && owner && e.owner && e.owner !== owner) await endEmulation(tabId);
}

onTabGone(endEmulation);
