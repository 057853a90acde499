// Content script, from the document's start on the sites of tabs with a faked position
// (sw/emulate.js registers it beside main/position.js): asks the worker which position this
// document is told (the browser names the tab and frame that ask; only an agent's tab with a
// position in force gets one) and hands the answer to the main world's override.
(() => {
  const tell = (position) =>
    window.dispatchEvent(new CustomEvent('tabpilot-position', { detail: JSON.stringify(position ?? null) }));
  chrome.runtime.sendMessage({ type: 'position' }).then(tell, () => tell(null));
})();
