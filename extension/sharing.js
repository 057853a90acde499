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
  lists ??= Promise.all([AREA.get(['agentTabs', 'sharedTabs', 'owners']), chrome.storage.local.get('anyTab')]).then(
    ([s, choice]) => ({
      agentTabs: new Set(s.agentTabs || []),
      sharedTabs: new Set(s.sharedTabs || []),
      // Each agent tab's books (the relay names them), for a relay that restarts.
      owners: s.owners || {},
      // The person's choice to let agents use every tab (kept across browser restarts).
      anyTab: choice.anyTab === true,
    }),
  );
  return lists;
}

async function change(edit) {
  const l = await load();
  edit(l);
  await AREA.set({ agentTabs: [...l.agentTabs], sharedTabs: [...l.sharedTabs], owners: l.owners });
}

// A tab opened for an agent, whose books are `owner`'s.
export function openedForAgent(tabId, owner) {
  return change((l) => {
    l.agentTabs.add(tabId);
    if (owner) l.owners[tabId] = owner;
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
    delete l.owners[tabId];
  });
}

// Chrome swapped a tab for another (a prerendered page took its place): it keeps its standing.
export function replaced(old, tab) {
  return change((l) => {
    for (const set of [l.agentTabs, l.sharedTabs]) if (set.has(old)) set.add(tab);
    if (l.owners[old]) l.owners[tab] = l.owners[old];
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

export async function isShared(tabId) {
  return (await load()).sharedTabs.has(tabId);
}

// The tabs opened for `owner`'s books that are still listed.
export async function openedFor(owner) {
  return Object.entries((await load()).owners)
    .filter(([, o]) => o === owner)
    .map(([tab]) => Number(tab));
}

// What a relay that restarted needs to have its books back: the agents' tabs still open.
export async function held() {
  const open = new Set((await chrome.tabs.query({})).map((t) => t.id));
  return Object.entries((await load()).owners)
    .filter(([tab]) => open.has(Number(tab)))
    .map(([tab, owner]) => ({ tab: Number(tab), owner }));
}
