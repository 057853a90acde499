// Content script on the relay's pairing page: tells the extension such a page is open (it badges
// its icon and suggests the page's port in the popup). It hands over nothing; pairing needs the
// person to type their terminal's code into the popup.
// The words are the contract's (page/contract.js, which the manifest runs first).
const { HANDSHAKE } = globalThis.__tabpilotContract;
const isPairingPage =
  location.pathname === HANDSHAKE.pairPath && document.querySelector(`meta[name="${HANDSHAKE.pairingMark}"]`);
if (!globalThis.__tabpilotPairing && isPairingPage) {
  globalThis.__tabpilotPairing = true;
  chrome.runtime.sendMessage({ type: 'pairing-page' }).catch(() => {
    globalThis.__tabpilotPairing = false;
  });
}
