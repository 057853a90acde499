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
  } catch (_) {
    throw new ToolError('TAB_GONE', `tab ${tabId} is closed`, 'refused');
  }
}
