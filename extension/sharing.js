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

// A tab opened for an agent.
export const openedForAgent = (tabId) => add('agentTabs', tabId);

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
}
