// The debugger, for the few calls nothing else can serve: attached to the tab for the one call
// and detached straight after, whatever happens (Chrome shows its banner while it is attached).
export async function withDebugger(tabId, run) {
  const target = { tabId };
  await chrome.debugger.attach(target, '1.3');
  try {
    return await run((method, params) => chrome.debugger.sendCommand(target, method, params));
  } finally {
    await chrome.debugger.detach(target).catch(() => {});
  }
}
