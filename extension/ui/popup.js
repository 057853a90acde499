// The popup: whether the relay link is up, the agents in this browser (a person releases one
// here), this browser's label, sharing the tab in front, and pairing.

// The person's label for this browser; the link reconnects so the relay sees it. (Handled before
// anything is awaited: a form submitted with no handler would reload the popup.)
document.getElementById('label-form').onsubmit = async (event) => {
  event.preventDefault();
  const r = await chrome.runtime.sendMessage({ type: 'set-label', label: document.getElementById('label').value });
  const said = r.error ? `Not saved: ${r.error}` : r.label ? `Saved: agents now see "${r.label}".` : 'Label cleared.';
  document.getElementById('label-result').textContent = said;
};
// The label as stored (with none, the relay's is the field's placeholder).
const { label } = await chrome.storage.local.get('label');
document.getElementById('label').value = label || '';

const s = await chrome.runtime.sendMessage({ type: 'status' });
const where = s.remote ? `to the relay at ${s.remote.address}` : `on port ${s.port}`;
const words = {
  connected: `connected ${where}, ${s.controllers.length} agent(s) connected`,
  retrying: `not connected; retrying in ${s.retryMs / 1000} s`,
  unpaired: 'not paired; run tabpilot pair',
  connecting: 'connecting…',
  starting: 'starting…',
};
document.getElementById('state').textContent = words[s.state] || s.state;
// A proxy an agent set is the whole browser's, this person's tabs too: it is shown while it holds.
if (s.proxy) {
  const where = s.proxy.server || s.proxy.pacUrl || s.proxy.mode;
  document.getElementById('proxy').textContent =
    `Proxy set by an agent: ${where} (every tab uses it until the agent's session ends)`;
}
const agents = document.getElementById('agents');
if (s.state === 'connected') await showAgents();

// The agents holding tabs in this browser, each tab with its page's title and how long the agent
// left it idle, and a button for the person to release the agent: the tabs it opened close, and
// its next call is LEASE_LOST saying a person released it.
async function showAgents() {
  const r = await chrome.runtime.sendMessage({ type: 'agents' });
  if (r.error) {
    agents.textContent = `Agents: ${r.error}`;
    return;
  }
  const here = r.status.agents
    .map((a) => ({ ...a, tabs: a.tabs.filter((t) => t.browserId === r.browserId) }))
    .filter((a) => a.tabs.length);
  const mine = r.status.browsers.find((b) => b.browserId === r.browserId);
  if (mine?.label) document.getElementById('label').placeholder = mine.label;
  // The titles first: the list is drawn whole, never an agent without its tabs.
  const titles = new Map();
  for (const t of here.flatMap((a) => a.tabs)) {
    titles.set(t.tab, await chrome.tabs.get(t.tab).then((tab) => tab.title || tab.url, () => '(closed)'));
  }
  // The browser's own word on which tabs a debugger is attached to (advanced mode, or one call's).
  const targets = await chrome.debugger.getTargets().catch(() => []);
  const debugged = new Set(targets.filter((t) => t.attached && t.tabId).map((t) => t.tabId));
  const list = document.createElement('ul');
  for (const a of here) {
    const item = list.appendChild(document.createElement('li'));
    item.className = 'agent';
    item.dataset.agent = a.id;
    item.append(`${a.name} (${a.id})${a.connected ? '' : ', disconnected'}`);
    const release = item.appendChild(document.createElement('button'));
    release.type = 'button';
    release.textContent = 'Release';
    release.onclick = () => releaseAgent(a, release);
    const tabs = item.appendChild(document.createElement('ul'));
    tabs.className = 'tabs';
    for (const t of a.tabs) {
      const age = t.lapsed ? 'lapsed' : `idle ${Math.round(t.idleMs / 1000)} s`;
      const mode = debugged.has(t.tab) ? ', debugger attached (advanced mode)' : '';
      tabs.appendChild(document.createElement('li')).textContent = `tab ${t.tab}: ${titles.get(t.tab)}, ${age}${mode}`;
    }
  }
  agents.replaceChildren(here.length ? 'Agents in this browser:' : 'No agent holds a tab in this browser.', list);
}

async function releaseAgent(agent, button) {
  button.disabled = true;
  const r = await chrome.runtime.sendMessage({ type: 'release-agent', agent: agent.id });
  const said = document.getElementById('release-result');
  if (r.error) said.textContent = `Not released: ${r.error}`;
  else said.textContent = `Released ${agent.name} (${agent.id}); closed ${r.closed.length} tab(s).`;
  await showAgents();
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

// A relay on another computer: its address and the code `tabpilot pair --remote` printed there.
// Once paired, the relay's key fingerprint (which that terminal printed too), whether the link is
// up and why not; Forget goes back to this computer's relay.
if (!offer.managed) {
  const form = document.getElementById('remote');
  const forget = document.getElementById('forget');
  const said = document.getElementById('remote-result');
  form.hidden = false;
  if (s.remote) {
    const up = s.state === 'connected' ? 'connected' : `not connected${s.refusal ? `: ${s.refusal}` : ''}`;
    document.getElementById('remote-state').textContent =
      `Paired with the relay at ${s.remote.address}, key fingerprint ${s.remote.fingerprint}: ${up}.`;
    document.getElementById('remote-address').value = s.remote.address;
    forget.hidden = false;
  }
  form.onsubmit = async (event) => {
    event.preventDefault();
    const address = document.getElementById('remote-address').value;
    const code = document.getElementById('remote-code').value;
    const r = await chrome.runtime.sendMessage({ type: 'pair-remote', address, code });
    said.textContent = r.paired
      ? `Paired with ${r.address}. Key fingerprint ${r.fingerprint}: it must be the one your terminal printed.`
      : `Not paired: ${r.reason}`;
  };
  forget.onclick = async () => {
    await chrome.runtime.sendMessage({ type: 'forget-remote' });
    said.textContent = 'Forgotten: this browser joins the relay on this computer, if paired with one.';
    forget.hidden = true;
  };
}
