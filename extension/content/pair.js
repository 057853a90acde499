// Content script on the relay's pairing page: tells the extension such a page is open (it badges
// its icon and suggests the page's port in the popup). It hands over nothing; pairing needs the
// person to type their terminal's code into the popup.
const isPairingPage = location.pathname === '/pair' && document.querySelector('meta[name="tabpilot-pairing"]');
if (!globalThis.__tabpilotPairing && isPairingPage) {
  globalThis.__tabpilotPairing = true;
  chrome.runtime.sendMessage({ type: 'pairing-page' }).catch(() => {
    globalThis.__tabpilotPairing = false;
  });
}
