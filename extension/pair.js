// Content script on the loopback pairing page: hands the page's one-time code to the extension.
// It may run more than once (declared, and injected by a service worker that started after the
// page loaded); one offer at a time, and a failed one (the worker not up yet) may be made again.
if (
  !globalThis.__tabpilotPairing &&
  location.pathname.startsWith('/pair/') &&
  document.querySelector('meta[name="tabpilot-pairing"]')
) {
  globalThis.__tabpilotPairing = true;
  const REPLACE =
    'This browser is already paired. ' +
    'Click the tabpilot icon and choose "Replace pairing" to pair it with this relay.';
  const status = document.getElementById('status');
  chrome.runtime.sendMessage({ type: 'pair' }).then(
    (r) => {
      if (!status) return;
      if (r?.paired) status.textContent = 'Paired. You can close this tab.';
      else if (r?.needsClick) status.textContent = REPLACE;
      else status.textContent = `Not paired: ${r?.reason || 'unknown error'}`;
    },
    () => {
      globalThis.__tabpilotPairing = false;
    },
  );
}
