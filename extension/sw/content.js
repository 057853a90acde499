// What a tab shows, as an agent reads it: the snapshot of all its frames and its main content,
// each with the tab's URL and title.
import { getTab } from './errors.js';
import { runInPage } from './page.js';
import { snapshotTab } from './outline.js';

// An empty tab (about:blank, with a fragment too) has nothing to read, and the browser does not
// let extensions into it.
const blank = (url) => url === 'about:blank' || url?.startsWith('about:blank#');

export async function snapshot(tabId, args) {
  const tab = await getTab(tabId);
  if (blank(tab.url)) return { text: '', refs: 0, capped: false, url: tab.url, title: '' };
  return { ...(await snapshotTab(tabId, args)), url: tab.url, title: tab.title };
}

export async function read(tabId, args) {
  const tab = await getTab(tabId);
  if (blank(tab.url)) return { content: '', truncated: false, totalChars: 0, format: args.format, url: tab.url };
  return { ...(await runInPage(tabId, 'read', args)), url: tab.url, title: tab.title };
}
