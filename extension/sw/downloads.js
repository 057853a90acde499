// The downloads agents' tabs start. Chrome's DownloadItem names no tab, so each new download is
// given the tab that started it from what the browser did tell us, and nothing else:
// - a request in an agent's tab for the download's URL (webRequest names the tab): a link, a form
//   or a navigation the browser turned into a download;
// - else the page that made it, for a blob: or data: URL or a page's `a.download` (no request of
//   the tab's own): the one agent's tab showing the download's referrer, or the one on the
//   blob's origin.
// When two agents' tabs fit, or none does, the download is the browser's: never listed, and no
// action reports it. Which agent a tab was held by when it started the download is noted then,
// so another agent sees the download only by its URL's origin, and not its file. Kept in the
// service worker's memory (a worker that stops forgets which tab started what).
import { ToolError } from './errors.js';
import { entriesOf } from './netlog.js';
import { isTracked } from './tracking.js';
import { ownerOf } from './sharing.js';
import { cut } from './text.js';

const MAX_KEPT = 100;
const MAX_LISTED = 20;
// How long an action's answer waits for the name of a file it started (Chrome picks it a moment
// after the download begins; a Save As prompt in the person's browser leaves it to them).
const NAME_WAIT_MS = 1000;

const started = new Map(); // download id -> { tab, owner, at }

const sameUrl = (a, b) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch (_) {
    return a === b;
  }
};

const originOf = (url) => {
  try {
    const o = new URL(url).origin;
    return o === 'null' ? null : o;
  } catch (_) {
    return null;
  }
};

// The agent's tab that started `item`, or null.
async function tabOf(item) {
  const ours = (await chrome.tabs.query({})).filter((t) => isTracked(t.id));
  const urls = [item.url, item.finalUrl].filter(Boolean).map((u) => cut(u, 2048));
  const one = (tabs) => (tabs.length === 1 ? tabs[0].id : null);
  const requested = ours.filter((t) => entriesOf(t.id, true).some((e) => urls.includes(e.url)));
  if (requested.length) return one(requested);
  const referred = ours.filter((t) => item.referrer && sameUrl(t.url, item.referrer));
  if (referred.length) return one(referred);
  const origin = /^blob:/.test(item.url) ? originOf(item.url) : null;
  return origin ? one(ours.filter((t) => originOf(t.url) === origin)) : null;
}

chrome.downloads.onCreated.addListener((item) => {
  const at = Date.now();
  tabOf(item)
    .then(async (tab) => {
      if (tab === null) return;
      started.set(item.id, { tab, owner: await ownerOf(tab), at });
      if (started.size > MAX_KEPT) started.delete(started.keys().next().value);
      for (const wake of waiting) wake();
    })
    .catch(() => {});
});

const waiting = new Set();
chrome.downloads.onChanged.addListener(() => {
  for (const wake of waiting) wake();
});

// Resolves when `check()` gives a value, or null at `deadline`; checked at each download event.
function until(check, deadline) {
  return new Promise((resolve) => {
    const wake = async () => {
      const v = await check();
      if (v === null && Date.now() < deadline) return;
      waiting.delete(wake);
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(wake, Math.max(0, deadline - Date.now()));
    waiting.add(wake);
    wake();
  });
}

const item = async (id) => (await chrome.downloads.search({ id }))[0] || null;
const fileName = (d) => d.filename.split(/[\\/]/).pop();
const nameOf = (d) => fileName(d) || decodeURIComponent(new URL(d.finalUrl || d.url).pathname.split('/').pop() || '');

// Whether `tab` started a download since `since` (epoch ms), waiting up to `waitMs` for one: the
// browser ends a navigation it turned into a download as aborted, maybe before the download's
// own event comes.
export async function downloadStarted(tab, since, waitMs) {
  const any = () => ([...started.values()].some((s) => s.tab === tab && s.at >= since) ? true : null);
  return !!(await until(any, Date.now() + waitMs));
}

// The downloads `tab` started since `since` (epoch ms), each as { id, name }: an action's finding.
// Waits a moment for a name Chrome has not picked yet.
export async function startedSince(tab, since) {
  const ids = [...started].filter(([, s]) => s.tab === tab && s.at >= since).map(([id]) => id);
  if (!ids.length) return undefined;
  const named = async () => {
    const items = await Promise.all(ids.map(item));
    return items.every((d) => !d || fileName(d)) ? items : null;
  };
  const items = (await until(named, Date.now() + NAME_WAIT_MS)) || (await Promise.all(ids.map(item)));
  return items.filter(Boolean).map((d) => ({ id: d.id, name: cut(nameOf(d) || 'download', 200) }));
}

// A download as the agent sees it: all of it when its own tab started it, else by origin alone.
function shown(d, mine) {
  const out = {
    id: d.id,
    mine,
    url: mine ? cut(d.finalUrl || d.url, 2048) : originOf(d.finalUrl || d.url) || '(no origin)',
    bytes: d.bytesReceived,
    state: d.state,
    danger: d.danger,
  };
  if (mine && d.filename) out.file = d.filename;
  if (d.mime) out.mime = d.mime;
  if (d.totalBytes > 0) out.totalBytes = d.totalBytes;
  if (d.error) out.error = d.error;
  return out;
}

// The id waited for: the one asked for (this agent's), or with `true` its newest, else the next
// one its tabs start (resolved as it starts).
async function target(wait, owner, deadline) {
  const mine = () => [...started].filter(([, s]) => s.owner === owner).map(([id]) => id);
  if (wait === true) {
    const newest = mine().at(-1);
    if (newest !== undefined) return newest;
    return until(() => mine().at(-1) ?? null, deadline);
  }
  if (!mine().includes(wait)) {
    throw new ToolError('NOT_FOUND', `no download ${wait} of your tabs; browser_downloads lists them`, 'refused');
  }
  return wait;
}

// `downloads` op: the recent downloads agents' tabs started, newest first; with `wait`, after
// the one waited for has ended (TIMEOUT when it has not by the call's deadline).
export async function downloads(call) {
  const owner = call.owner;
  const { wait } = call.args;
  const deadline = Date.now() + call.timeoutMs - 500;
  let waited;
  if (wait !== undefined && wait !== false) {
    const id = await target(wait, owner, deadline);
    if (id === null) throw new ToolError('TIMEOUT', 'none of your tabs started a download in the time given');
    const ended = (d) => (d && d.state !== 'in_progress' ? d : null);
    const d = await until(async () => ended(await item(id)), deadline);
    if (!d) {
      const now = await item(id);
      const got = now ? `${now.bytesReceived} of ${now.totalBytes > 0 ? now.totalBytes : '?'} bytes` : 'gone';
      const held = now && now.danger !== 'safe' && now.danger !== 'accepted';
      const danger = held ? `, held for the person (${now.danger})` : '';
      throw new ToolError('TIMEOUT', `download ${id} has not finished (${got}${danger})`);
    }
    waited = id;
  }
  const ours = [...started].reverse().slice(0, MAX_LISTED);
  const items = await Promise.all(ours.map(([id]) => item(id)));
  const list = items.flatMap((d, i) => (d ? [shown(d, ours[i][1].owner === owner)] : []));
  return waited === undefined ? { downloads: list } : { downloads: list, waited };
}
