// Screenshots of the agent's tab: captureVisibleTab when it is on screen, else the debugger.
import { ToolError, getTab } from './errors.js';
import { runInPage } from './page.js';

export async function screenshot(tabId, { format = 'png', quality }) {
  const tab = await getTab(tabId);
  const viewport = await runInPage(tabId, 'viewport', {});
  const opts = format === 'jpeg' ? { format, quality: quality ?? 80 } : { format };
  // A background tab is not on screen: only the debugger can capture it.
  if (tab.active) {
    const win = await chrome.windows.get(tab.windowId);
    if (win.state !== 'minimized') {
      const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, opts);
      return { data: dataUrl.split(',')[1], format, viewport, debugger: false };
    }
  }
  const target = { tabId };
  await chrome.debugger.attach(target, '1.3');
  try {
    const capture = chrome.debugger.sendCommand(target, 'Page.captureScreenshot', { ...opts, fromSurface: true });
    const stalled = new Promise((_, reject) =>
      setTimeout(() => reject(new ToolError('CAPTURE_STALLED', 'the browser did not render the background tab within 10 s')), 10000),
    );
    const { data } = await Promise.race([capture, stalled]);
    return { data, format, viewport, debugger: true };
  } finally {
    await chrome.debugger.detach(target).catch(() => {});
  }
}
