// Which tabs agents may use: the tabs opened for them, and the tabs the person shared from the
// popup (or every tab, when the person turned that check off there). The person's own tabs are
// theirs: an agent cannot read, drive or close one they did not share.
//
// The lists live here, in memory, and are written through to session storage, so a service
// worker that restarts remembers them and a browser restart forgets them with the tabs. Every
// change is made to the one in-memory copy, so calls that open tabs at once lose none.
const AREA = chrome.storage.session;
let lists = null;

function load() {
  const keys = ['agentTabs', 'sharedTabs', 'owners', 'openers', 'popups'];
  lists ??= Promise.all([AREA.get(keys), chrome.storage.local.get('anyTab')]).then(
    ([s, choice]) => ({
      agentTabs: new Set(s.agentTabs || []),
      sharedTabs: new Set(s.sharedTabs || []),
      // Whose books each agent's tab is in now (the relay names them), for a relay that restarts,
      // and whose books it was opened for (a release closes only the tabs an agent opened).
      owners: s.owners || {},
      openers: s.openers || {},
      // Tabs a page in an agent's tab opened (a link to a new tab, window.open): the agent's
      // work, not the person's, though no agent's to use.
      popups: new Set(s.popups || []),
      // The person's choice to let agents use every tab (kept across browser restarts).
      anyTab: choice.anyTab === true,
    }),
  );
  return lists;
}

async function change(edit) {
  const l = await load();
  edit(l);
  await AREA.set({
    agentTabs: [...l.agentTabs],
    sharedTabs: [...l.sharedTabs],
    owners: l.owners,
    openers: l.openers,
    popups: [...l.popups],
  });
}

// A tab opened for an agent, whose books are `owner`'s.
export function openedForAgent(tabId, owner) {
  return change((l) => {
    l.agentTabs.add(tabId);
    if (owner) {
      l.owners[tabId] = owner;
      l.openers[tabId] = owner;
    }
  });
}

// An agent's call runs in the tab: it holds the tab now (the relay's books decided so; another
// agent took it, or the person shared it).
export async function heldBy(tabId, owner) {
  if (!owner || (await load()).owners[tabId] === owner) return;
  await change((l) => {
    l.owners[tabId] = owner;
  });
}

// A tab the person shared from the popup.
export function sharedByPerson(tabId) {
  return change((l) => l.sharedTabs.add(tabId));
}

// A closed tab leaves every list.
export function closed(tabId) {
  return change((l) => {
    l.agentTabs.delete(tabId);
    l.sharedTabs.delete(tabId);
    l.popups.delete(tabId);
    delete l.owners[tabId];
    delete l.openers[tabId];
  });
}

// Chrome swapped a tab for another (a prerendered page took its place): it keeps its standing.
export function replaced(old, tab) {
  return change((l) => {
    for (const set of [l.agentTabs, l.sharedTabs, l.popups]) if (set.has(old)) set.add(tab);
    if (l.owners[old]) l.owners[tab] = l.owners[old];
    if (l.openers[old]) l.openers[tab] = l.openers[old];
  });
}

// Whether the person let agents use every tab (a choice in the popup, off by default).
export async function anyTab() {
  return (await load()).anyTab;
}

export async function setAnyTab(on) {
  (await load()).anyTab = !!on;
  await chrome.storage.local.set({ anyTab: !!on });
}

export async function mayUse(tabId) {
  const l = await load();
  return l.anyTab || l.agentTabs.has(tabId) || l.sharedTabs.has(tabId);
}

// Whether a tab is agents' work: opened for an agent, or by a page in such a tab.
export async function isAgentsWork(tabId) {
  const l = await load();
  return l.agentTabs.has(tabId) || l.popups.has(tabId);
}

async function openedBy(source, tabId) {
  if (source === undefined || !(await isAgentsWork(source))) return;
  await change((l) => l.popups.add(tabId));
}

chrome.tabs.onCreated.addListener((t) => openedBy(t.openerTabId, t.id).catch(() => {}));
chrome.webNavigation.onCreatedNavigationTarget.addListener((d) => openedBy(d.sourceTabId, d.tabId).catch(() => {}));

export async function isShared(tabId) {
  return (await load()).sharedTabs.has(tabId);
}

// `owner` gives up its tabs: those it opened and holds still, to close (when it asks), and the
// rest, which are nobody's from now on.
export async function letGo(owner) {
  const l = await load();
  const tabs = Object.keys(l.owners).filter((tab) => l.owners[tab] === owner);
  await change((edit) => tabs.forEach((tab) => delete edit.owners[tab]));
  return {
    opened: tabs.filter((tab) => l.openers[tab] === owner).map(Number),
    handed: tabs.filter((tab) => l.openers[tab] !== owner).map(Number),
  };
}

// What a relay that restarted needs to have its books back: the agents' tabs still open.
export async function held() {
  const open = new Set((await chrome.tabs.query({})).map((t) => t.id));
  const l = await load();
  return Object.entries(l.owners)
    .filter(([tab]) => open.has(Number(tab)))
    .map(([tab, owner]) => ({ tab: Number(tab), owner, opened: l.openers[tab] === owner }));
}

// Whose books the tab is in now (null: nobody's).
export async function ownerOf(tabId) {
  return (await load()).owners[tabId] ?? null;
}
