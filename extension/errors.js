// Errors the extension answers with: a code from the contract's closed set and an outcome.
export class ToolError extends Error {
  constructor(code, message, outcome = 'failed') {
    super(message);
    this.code = code;
    this.outcome = outcome;
  }
}

export async function getTab(tabId) {
  try {
    return await chrome.tabs.get(tabId);
  } catch (e) {
    // Only the browser's word that there is no such tab makes it gone: the relay drops a gone tab
    // from the agent's books, and a failure of another kind (a worker shutting down) is not that.
    const msg = String(e?.message || e);
    if (/No tab with id/i.test(msg)) throw new ToolError('TAB_GONE', `tab ${tabId} is closed`, 'refused');
    throw new ToolError('INTERNAL', `the browser could not look up tab ${tabId}: ${msg}`);
  }
}
