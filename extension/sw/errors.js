import { CONTRACT } from './contract.js';

const CODES = new Set(CONTRACT.codes);

// Errors the extension answers with: a code from the contract's closed set and an outcome. A code
// outside the set (a page script's slip) goes as INTERNAL, naming it, never as itself.
export class ToolError extends Error {
  constructor(code, message, outcome = 'failed') {
    const known = CODES.has(code);
    super(known ? message : `${message} (the extension said ${code}, a code outside the contract)`);
    this.code = known ? code : 'INTERNAL';
    this.outcome = outcome;
  }
}

// An issue as it leaves (issues.js): its code from the contract's closed set, or INTERNAL naming
// the code it had, as a ToolError's is.
export function inContract(issue) {
  if (CODES.has(issue.code)) return issue;
  const said = `the extension said ${issue.code}, a code outside the contract`;
  return { ...issue, code: 'INTERNAL', message: issue.message ? `${issue.message} (${said})` : said };
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
