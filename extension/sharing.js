// Which tabs agents may use: the tabs opened for them, and the tabs the person shared from the
// popup (or every tab, when the person turned that check off there). The person's own tabs are
// theirs: an agent cannot read, drive or close one they did not share. Kept in session storage,
// so a service worker that restarts remembers, and a browser restart forgets, with the tabs.
const AREA = chrome.storage.session;

async function tabs(key) {
  return new Set((await AREA.get(key))[key] || []);
}

async function add(key, tabId) {
  const set = await tabs(key);
  set.add(tabId);
  await AREA.set({ [key]: [...set] });
}

// The tabs opened for agents, each with the books it belongs in (the relay names them).
async function owners() {
  return (await AREA.get('owners')).owners || {};
}

// A tab opened for an agent, whose books are `owner`'s.
export async function openedForAgent(tabId, owner) {
  await add('agentTabs', tabId);
  if (owner) await AREA.set({ owners: { ...(await owners()), [tabId]: owner } });
}

// What a relay that restarted needs to have its books back: the agents' tabs still open.
export async function held() {
  const open = new Set((await chrome.tabs.query({})).map((t) => t.id));
  return Object.entries(await owners())
    .filter(([tab]) => open.has(Number(tab)))
    .map(([tab, owner]) => ({ tab: Number(tab), owner }));
}

// A closed tab leaves every list.
export async function closed(tabId) {
  const o = await owners();
  delete o[tabId];
  await AREA.set({ owners: o });
  for (const key of ['agentTabs', 'sharedTabs']) {
    const set = await tabs(key);
    if (set.delete(tabId)) await AREA.set({ [key]: [...set] });
  }
}

// A tab the person shared from the popup.
export const sharedByPerson = (tabId) => add('sharedTabs', tabId);

// Whether the person let agents use every tab (a choice in the popup, off by default).
export async function anyTab() {
  return (await chrome.storage.local.get('anyTab')).anyTab === true;
}

export async function setAnyTab(on) {
  await chrome.storage.local.set({ anyTab: !!on });
}

export async function mayUse(tabId) {
  if (await anyTab()) return true;
  return (await tabs('agentTabs')).has(tabId) || (await tabs('sharedTabs')).has(tabId);
}

export async function isShared(tabId) {
  return (await tabs('sharedTabs')).has(tabId);
}

// Chrome swapped a tab for another (a prerendered page took its place): it keeps its standing.
export async function replaced(old, tab) {
  for (const key of ['agentTabs', 'sharedTabs']) {
    if ((await tabs(key)).has(old)) await add(key, tab);
  }
  const o = await owners();
  if (o[old]) await AREA.set({ owners: { ...o, [tab]: o[old] } });
}
