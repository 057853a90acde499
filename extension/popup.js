// The popup: whether the relay link is up, which agents are connected, and the pairing button.
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
const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
if (tab?.url?.startsWith('http://127.0.0.1:') && new URL(tab.url).pathname.startsWith('/pair/')) {
  const button = document.getElementById('pair');
  button.hidden = false;
  button.onclick = async () => {
    const r = await chrome.runtime.sendMessage({ type: 'pair-confirm', tabId: tab.id });
    button.textContent = r.paired ? 'Paired' : `Not paired: ${r.reason}`;
  };
}
