// The site policy in the browser: what each call's `guard` (an agent's allow, deny and sensitive
// lists, as regular expressions) asks of the tab it drives.
//
// At the moment of an action, the tab's page is judged where it is now, not where the agent last
// saw it. In the network, the tab is held to the lists by session rules (netrules.js) from before
// the call has any effect. Each tab is held to the guard of the last agent call on it, and keeps
// it until the tab closes or that agent's session ends, so agents with different lists keep each
// other's blocks; a tab opened from it is held to the same. Each held tab also keeps the sites it
// has shown: what their service workers, and tabs not yet known, send to a denied origin is
// blocked too.
//
// Which tab is held to what lives here, in memory, written through to session storage, like the
// session rules themselves: a service worker that restarts finds both, a browser restart clears
// both.
import { ToolError, getTab } from './errors.js';
import { rulesFor } from './netrules.js';
import { onTabGone } from './tabstate.js';
import { RULE_BASE } from './emulate.js';

const AREA = chrome.storage.session;
const DNR = chrome.declarativeNetRequest;
const SETTINGS = { allow: 'TABPILOT_ALLOW_ORIGINS', deny: 'TABPILOT_DENY_ORIGINS', sens: 'TABPILOT_SENSITIVE_ORIGINS' };

// Promise of { tabs: { [tabId]: { owner, net: { allow: [regex] | null, deny: [regex] }, sites } },
// rules: the rules last put in place }.
let held = null;
let queue = Promise.resolve();

function load() {
  held ??= AREA.get('guarded').then((s) => ({ tabs: s.guarded || {}, rules: null }));
  return held;
}

// What a guard asks of the network: its deny list, and its allow list if it has one. A guard with
// only a sensitive list asks nothing of it.
function netOf(guard) {
  const deny = (guard?.deny || []).map((r) => r.regex);
  const allow = guard?.allow ? guard.allow.map((r) => r.regex) : null;
  return allow || deny.length ? { allow, deny } : null;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

// The host of a web page at `url` that a tab held to `net` has shown, or null: not a web page, a
// denied one, or an IPv6 address (which a rule cannot name as an initiator).
function siteOf(url, net) {
  if (!/^https?:\/\//i.test(url) || net.deny.some((re) => new RegExp(re).test(url))) return null;
  const host = new URL(url).hostname;
  return host.startsWith('[') ? null : host;
}

// Applies an edit of the held tabs (none: the browser's tabs changed): the rules are swapped in
// one update first, and the edit kept only once they are in place. Edits run one at a time, each
// on the last one's result.
function change(edit = () => {}) {
  const run = queue.then(async () => {
    const state = await load();
    const next = structuredClone(state.tabs);
    edit(next);
    const known = (await chrome.tabs.query({})).map((t) => t.id);
    const rules = Object.keys(next).length ? rulesFor(next, known) : [];
    if (same(next, state.tabs) && same(rules, state.rules)) return;
    // Only the policy's own rules: those from RULE_BASE up are browser_emulate's headers.
    const old = (await DNR.getSessionRules()).filter((r) => r.id < RULE_BASE);
    try {
      await DNR.updateSessionRules({ removeRuleIds: old.map((r) => r.id), addRules: rules });
    } catch (e) {
      const why = `the browser could not put the site policy's network rules in place (${e?.message || e})`;
      throw new ToolError('INTERNAL', why, 'refused');
    }
    state.rules = rules;
    if (same(next, state.tabs)) return;
    state.tabs = next;
    await AREA.set({ guarded: next });
  });
  queue = run.catch(() => {});
  return run;
}

// Holds `tabId` to the guard of the call about to drive it, before the call has any effect: a
// call with no guard (an agent with no site policy) frees it.
export async function guardTab(tabId, owner, guard) {
  const net = netOf(guard);
  const now = (await load()).tabs[tabId];
  if (same(now && { owner: now.owner, net: now.net }, net && { owner, net })) return;
  // A closed tab is TAB_GONE, and holds no rule; an open one starts with the site it shows.
  const site = net && siteOf((await getTab(tabId)).url || '', net);
  await change((tabs) => {
    if (net) tabs[tabId] = { owner, net, sites: site ? [site] : [] };
    else delete tabs[tabId];
  });
}

// A held tab is going to (or has committed) a page at `url`, in any of its frames: that site's
// workers are held to the tab's deny list from before its first request.
async function shows(tabId, url) {
  const entry = (await load()).tabs[tabId];
  const site = entry && siteOf(url, entry.net);
  if (!site || entry.sites.includes(site)) return;
  await change((tabs) => {
    if (tabs[tabId] && !tabs[tabId].sites.includes(site)) tabs[tabId].sites.push(site);
  });
}

// A page in a held tab opened another (a link to a new tab, window.open): held to the same. Until
// it is, the rules hold it as a tab not yet known; once it is known, the others' rules leave it.
async function opened(source, tabId, url) {
  const entry = (await load()).tabs[source];
  const site = entry && siteOf(url || '', entry.net);
  await change((tabs) => {
    if (!entry || tabs[tabId]) return;
    tabs[tabId] = { ...structuredClone(entry), sites: [...new Set([...entry.sites, ...(site ? [site] : [])])] };
  });
}

chrome.tabs.onCreated.addListener((t) => opened(t.openerTabId, t.id, t.pendingUrl).catch(() => {}));
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) =>
  opened(d.sourceTabId, d.tabId, d.url).catch(() => {}),
);
chrome.webNavigation.onBeforeNavigate.addListener((d) => shows(d.tabId, d.url).catch(() => {}));
chrome.webNavigation.onCommitted.addListener((d) => shows(d.tabId, d.url).catch(() => {}));

// An agent's session ended: the tabs it drove are free again.
export function releaseOwner(owner) {
  return change((tabs) => {
    for (const [tab, entry] of Object.entries(tabs)) if (entry.owner === owner) delete tabs[tab];
  });
}

onTabGone((tabId) => change((tabs) => delete tabs[tabId]));
// Chrome swapped a tab for another (a prerendered page took its place): the rules follow it.
chrome.tabs.onReplaced.addListener((added, removed) =>
  change((tabs) => {
    if (tabs[removed]) tabs[added] = tabs[removed];
    delete tabs[removed];
  }).catch(() => {}),
);

export function matching(list, url) {
  return (list || []).find((r) => new RegExp(r.regex).test(url));
}

// Why the guard keeps agents from a page at `url`, or null: reading it when it is denied or
// left out of the allow list; acting on it (`acts`) when it is sensitive too.
function refusal(guard, url, acts) {
  const denied = matching(guard.deny, url);
  if (denied) return `is not for agents: it matches ${denied.pattern} in ${SETTINGS.deny}`;
  if (guard.allow && !matching(guard.allow, url)) return `is not for agents: it matches nothing in ${SETTINGS.allow}`;
  const sensitive = acts && matching(guard.sensitive, url);
  if (sensitive) return `is for agents to read, not to act on: it matches ${sensitive.pattern} in ${SETTINGS.sens}`;
  return null;
}

// Refuses what the guard keeps agents from at `url` (a page, a frame, a cookie's address), as
// `refusal` says. Only web addresses are judged.
export function judgeUrl(url, guard, acts) {
  const why = guard && /^https?:\/\//i.test(url) && refusal(guard, url, acts);
  if (why) throw new ToolError('ORIGIN_BLOCKED', `${url.slice(0, 200)} ${why}`, 'refused');
}

// Refuses an action on a page whose origin the guard denies, leaves out of its allow list, or
// marks sensitive, judged by the top document's URL right now.
export async function judge(tabId, guard) {
  if (!guard?.acts) return;
  judgeUrl((await getTab(tabId)).url || '', guard, true);
}
