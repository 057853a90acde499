// The popup: whether the relay link is up, which agents are connected, and pairing.
const s = await chrome.runtime.sendMessage({ type: 'status' });
const words = {
  connected: `connected on port ${s.port}`,
  retrying: `not connected; retrying in ${s.retryMs / 1000} s`,
  unpaired: 'not paired; run tabpilot pair',
  connecting: 'connecting…',
  starting: 'starting…',
};
document.getElementById('state').textContent = words[s.state] || s.state;
const agents = document.getElementById('agents');
if (s.state === 'connected') {
  const names = s.controllers.map((c) => `${c.name} (pid ${c.pid})`);
  agents.textContent = names.length ? 'Agents:' : 'No agents connected.';
  if (names.length) {
    const ul = document.createElement('ul');
    for (const n of names) ul.appendChild(document.createElement('li')).textContent = n;
    agents.appendChild(ul);
  }
}
// The tab in front is the person's: agents may use it only once shared here. (A popup opened as
// a page for a given tab says which in its address, `#tab=<id>`.)
const [front] = await chrome.tabs.query({ active: true, currentWindow: true });
const named = Number(new URLSearchParams(location.hash.slice(1)).get('tab'));
const tab = named ? { id: named } : front;
if (tab?.id !== undefined) {
  const sharing = document.getElementById('sharing');
  const share = document.getElementById('share');
  const any = document.getElementById('any-tab');
  const now = await chrome.runtime.sendMessage({ type: 'sharing', tabId: tab.id });
  sharing.hidden = false;
  any.checked = now.any;
  if (now.shared) share.disabled = true;
  share.onclick = async () => {
    await chrome.runtime.sendMessage({ type: 'share-tab', tabId: tab.id });
    share.disabled = true;
    document.getElementById('share-result').textContent = 'Shared: agents may work in this tab.';
  };
  any.onchange = () => chrome.runtime.sendMessage({ type: 'any-tab', on: any.checked });
}

// Pairing a user's own browser: the code from the person's terminal, for the port they see here.
const offer = await chrome.runtime.sendMessage({ type: 'pairing-offer', tabId: tab?.id ?? -1 });
if (!offer.managed) {
  const form = document.getElementById('pair');
  form.hidden = false;
  document.getElementById('port').value = offer.port ?? s.port ?? 47311;
  form.onsubmit = async (event) => {
    event.preventDefault();
    const port = document.getElementById('port').value;
    const code = document.getElementById('code').value;
    const r = await chrome.runtime.sendMessage({ type: 'pair-claim', port, code });
    document.getElementById('pair-result').textContent = r.paired ? 'Paired.' : `Not paired: ${r.reason}`;
  };
}
