// Cookies through chrome.cookies, always in the cookie store of the call's own tab: a private
// window's tab has a jar of its own, and reading the profile's store there would read the
// person's real cookies. Values leave the service worker only when the call asks (`values`);
// the controller decides that (the person's setting, the origins) before it asks.
import { ToolError, getTab } from './errors.js';
import { judgeUrl } from './policy.js';

// Cookies said in one answer: more than a site sets, few enough to stay small.
const MAX_COOKIES = 200;

// The tab's cookie store, and the address the call is about (default: the tab's page).
async function jarOf(tabId, url) {
  const tab = await getTab(tabId);
  const stores = await chrome.cookies.getAllCookieStores();
  const found = stores.find((s) => s.tabIds.includes(tabId));
  const store = found ? found.id : tab.incognito ? '1' : '0';
  const at = url || tab.url || '';
  if (!/^https?:\/\//i.test(at)) {
    const why = `cookies belong to http and https pages; tab ${tabId} shows ${at.split('?')[0] || 'nothing'}`;
    throw new ToolError('BAD_ARGS', `${why}: give url`, 'refused');
  }
  return { url: at, store, ...(tab.incognito ? { private: true } : {}) };
}

function shown(c, values) {
  return {
    name: c.name,
    ...(values ? { value: c.value } : {}),
    len: c.value.length,
    domain: c.domain,
    path: c.path,
    secure: c.secure,
    httpOnly: c.httpOnly,
    sameSite: c.sameSite,
    ...(c.session ? {} : { expires: c.expirationDate }),
    ...(c.partitionKey?.topLevelSite ? { partition: c.partitionKey.topLevelSite } : {}),
  };
}

// Every cookie the store sends to `url`, partitioned ones too where the browser can say so.
async function sentTo(details) {
  try {
    return await chrome.cookies.getAll({ ...details, partitionKey: {} });
  } catch {
    return chrome.cookies.getAll(details);
  }
}

// The cookies of a denied or not-allowed address are never read.
export async function cookies({ tab, args, guard }) {
  const jar = await jarOf(tab, args.url);
  judgeUrl(jar.url, guard, false);
  const details = { url: jar.url, storeId: jar.store, ...(args.name ? { name: args.name } : {}) };
  const all = await sentTo(details);
  const list = all.slice(0, MAX_COOKIES).map((c) => shown(c, args.values));
  return { ...jar, cookies: list };
}

// Sets or deletes a cookie, judged as an action on its address.
export async function setCookie({ tab, args, guard }) {
  const jar = await jarOf(tab, args.url);
  judgeUrl(jar.url, guard, true);
  const named = { url: jar.url, name: args.name, storeId: jar.store };
  if (args.delete) {
    const had = await chrome.cookies.get(named);
    if (had) await chrome.cookies.remove(named);
    return { ...jar, deleted: !!had };
  }
  const details = { ...named, value: args.value ?? '' };
  for (const k of ['domain', 'path', 'secure', 'httpOnly', 'sameSite']) if (args[k] != null) details[k] = args[k];
  if (args.expires != null) details.expirationDate = args.expires;
  const set = await chrome.cookies.set(details).catch((e) => {
    throw new ToolError('BAD_ARGS', `the browser refused the cookie: ${e?.message || e}`, 'refused');
  });
  if (!set) {
    const why = 'a Secure cookie needs https, SameSite=None needs Secure, and a domain must cover the address';
    throw new ToolError('BAD_ARGS', `the browser refused the cookie (${why})`, 'refused');
  }
  return { ...jar, cookie: shown(set, false) };
}
