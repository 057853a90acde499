// The declarativeNetRequest session rules that hold agents' tabs to their site policy, built from
// which tab is held to which lists (policy.js keeps that). Tabs held to the same lists share one
// set of rules, scoped to them:
// - a denied origin gets no request from them at all (every resource type, each redirect hop);
// - with an allow list, no page loads in them outside it (frames and sub-resources from other
//   origins, a CDN's say, still load);
// - a denied origin gets no request either from what a page there sets going beyond its tab:
//   requests with no tab (a service worker's) and requests in a tab not yet known (one the page
//   opened, before it can be held), that come from a site the held tabs have shown. The person's
//   known tabs are left out, and so are the denied sites themselves (their own workers serve the
//   person's tabs of that site). The allow list does not reach that far: a new tab the person
//   opens from the same site would have its first load blocked.
// The higher priority wins a request two rules match: a denied origin stays blocked whatever an
// allow list says, and an allowed page load is let through the block on every other.
const PRIORITY = { outside: 1, allowed: 2, denied: 3 };

// `tabs`: { [tabId]: { net: { allow: [regex] | null, deny: [regex] }, sites: [host] } };
// `known`: the id of every tab open now.
export function rulesFor(tabs, known) {
  const groups = new Map();
  for (const [tab, { net, sites }] of Object.entries(tabs)) {
    const key = JSON.stringify(net);
    if (!groups.has(key)) groups.set(key, { net, tabIds: [], sites: new Set() });
    groups.get(key).tabIds.push(Number(tab));
    for (const site of sites) groups.get(key).sites.add(site);
  }
  const every = Object.values(chrome.declarativeNetRequest.ResourceType);
  const rules = [];
  const add = (priority, type, condition) =>
    rules.push({ id: rules.length + 1, priority, action: { type }, condition });
  for (const { net, tabIds, sites } of groups.values()) {
    const others = known.filter((t) => !tabIds.includes(t));
    let unheld = null;
    if (sites.size) unheld = { initiatorDomains: [...sites] };
    if (unheld && others.length) unheld.excludedTabIds = others;
    for (const regexFilter of net.deny) {
      add(PRIORITY.denied, 'block', { regexFilter, tabIds, resourceTypes: every });
      if (unheld) add(PRIORITY.denied, 'block', { regexFilter, ...unheld, resourceTypes: every });
    }
    if (!net.allow) continue;
    const pages = { tabIds, resourceTypes: ['main_frame'] };
    add(PRIORITY.outside, 'block', { urlFilter: '|http', ...pages });
    for (const regexFilter of net.allow) add(PRIORITY.allowed, 'allow', { regexFilter, ...pages });
  }
  return rules;
}
