// The person's approval of a page tool's call, in a window this extension owns: an extension
// page no web page can script, showing the page, the tool and the exact arguments, with Approve
// and Deny. Nothing the agent sends and nothing the page declares (readOnlyHint) approves a
// call: only the Approve button in that window, before the timeout.
const pending = new Map(); // id -> { details, settle }

const PAGE = 'ui/approve.html';

// Resolves to 'person' when approved; otherwise to why not: 'denied', 'closed', 'timeout'.
export async function askPerson(details, timeoutMs) {
  const id = crypto.randomUUID();
  let settle;
  const decided = new Promise((resolve) => {
    settle = resolve;
  });
  pending.set(id, { details: { ...details, timeoutMs }, settle });
  const timer = setTimeout(() => settle('timeout'), timeoutMs);
  let windowId = null;
  const closed = (id) => id === windowId && settle('closed');
  chrome.windows.onRemoved.addListener(closed);
  try {
    const url = chrome.runtime.getURL(`${PAGE}#${id}`);
    windowId = (await chrome.windows.create({ url, type: 'popup', width: 560, height: 620, focused: true })).id;
    return await decided;
  } finally {
    clearTimeout(timer);
    chrome.windows.onRemoved.removeListener(closed);
    pending.delete(id);
    if (windowId !== null) chrome.windows.remove(windowId).catch(() => {});
  }
}

// The approval page's messages; only that page of this extension is heard.
export function approvalMessage(msg, sender, reply) {
  if (!sender.url?.startsWith(chrome.runtime.getURL(PAGE))) return false;
  const entry = pending.get(msg.id);
  if (msg.type === 'approval-details') reply(entry ? entry.details : null);
  if (msg.type === 'approval-answer') {
    entry?.settle(msg.approve === true ? 'person' : 'denied');
    reply(!!entry);
  }
  return false;
}
