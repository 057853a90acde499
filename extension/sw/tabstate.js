// What the service worker keeps per tab lives in maps and sets made here, and one listener
// forgets a closed tab in all of them; a module that must do more when a tab goes (tell the
// relay, drop its network rules) says so with `onTabGone`.
const kept = [];
const more = [];

// A Map (or, with `Set`, a Set) keyed by tab id, emptied of a tab when it closes.
export function perTab(Kind = Map) {
  const store = new Kind();
  kept.push(store);
  return store;
}

// Runs `forget(tabId)` when a tab closes, after the per-tab stores have let it go.
export function onTabGone(forget) {
  more.push(forget);
}

chrome.tabs.onRemoved.addListener((tabId) => {
  for (const store of kept) store.delete(tabId);
  for (const forget of more) {
    try {
      Promise.resolve(forget(tabId)).catch(() => {});
    } catch (_) {
      // One module's cleanup failing leaves the others theirs.
    }
  }
});
