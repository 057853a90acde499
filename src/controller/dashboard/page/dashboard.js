'use strict';
// The dashboard's page: asks its server for the state every second and shows it. Addresses are
// relative: the page lives under a path of its own (/d/RANDOM/). Everything shown is text
// (titles and addresses are the pages' own words); nothing is put in as HTML.

const POLL_MS = 1000;
const shown = { browsers: '', agents: '', calls: '' };

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function table(head, rows) {
  const t = el('table');
  const tr = t.appendChild(el('thead')).appendChild(el('tr'));
  for (const h of head) tr.appendChild(el('th', h));
  const body = t.appendChild(el('tbody'));
  for (const row of rows) {
    const r = body.appendChild(el('tr'));
    for (const cell of row) r.appendChild(cell instanceof Node ? cell : el('td', cell));
  }
  return t;
}

// Draws a section again only when what it shows changed, so the page stays put between polls.
function redraw(name, data, draw) {
  const shape = JSON.stringify(data);
  if (shape === shown[name]) return;
  shown[name] = shape;
  document.getElementById(name).replaceChildren(...draw(data));
}

function drawBrowsers(browsers) {
  if (!browsers.length) return [el('p', 'No browser is connected.', 'muted')];
  return [
    table(
      ['Label', 'Kind', 'Browser', 'Extension', 'Agents', 'Tabs', 'Proxy', 'Id'],
      // A proxy an agent set is the whole browser's: the person's own tabs use it too.
      browsers.map((b) => [b.label || '', b.kind, b.browser || '', b.extension || '', String(b.agents),
        String(b.tabs), b.proxy ? `set by an agent: ${b.proxy}` : '', b.browserId]),
    ),
  ];
}

function age(t) {
  return t.lapsed ? 'lapsed' : `idle ${Math.round(t.idleMs / 1000)} s`;
}

function where(url) {
  try {
    const u = new URL(url);
    return u.protocol.startsWith('http') ? u.origin + u.pathname : u.href;
  } catch (_) {
    return url || '';
  }
}

function drawAgents(agents) {
  if (!agents.length) return [el('p', 'No agent is connected.', 'muted')];
  return agents.map((a) => {
    const card = el('article', undefined, 'agent');
    const who = card.appendChild(el('div', undefined, 'who'));
    const state = a.connected ? `pid ${a.pid}` : 'disconnected';
    who.append(el('b', a.name), el('span', a.id, 'id'), el('span', state, 'muted'));
    if (a.tabs.length) {
      const release = who.appendChild(el('button', 'Release'));
      release.type = 'button';
      release.setAttribute('aria-label', `Release ${a.name} ${a.id}`);
      release.onclick = () => releaseAgent(a, release);
    }
    // Its recording as a Playwright test (the server has it when the agent records to disk).
    const test = who.appendChild(el('a', 'Export test'));
    test.href = `api/export/${encodeURIComponent(a.id)}`;
    if (!a.tabs.length) card.appendChild(el('div', 'holds no tab', 'muted'));
    const list = card.appendChild(el('ul'));
    for (const t of a.tabs) {
      const item = list.appendChild(el('li'));
      const marks = `${t.private ? ' (private)' : ''}${t.advanced ? ' (advanced mode)' : ''}${t.current ? '' : ' (not current)'}`;
      item.append(`tab ${t.tab}${marks}: `, el('b', t.title || '(untitled)'), ' ');
      item.append(el('span', where(t.url), 'muted'), ' · ');
      const ageText = item.appendChild(el('span', age(t), t.lapsed ? 'age lapsed' : 'age'));
      ageText.id = `age-${t.browserId}-${t.tab}`;
    }
    return card;
  });
}

function drawCalls(calls) {
  if (!calls.length) return [el('p', 'No calls in the audit trail yet (TABPILOT_AUDIT).', 'muted')];
  const rows = calls
    .slice()
    .reverse()
    .map((c) => {
      const outcome = el('td', c.code ? `${c.outcome} ${c.code}` : c.outcome || '', `outcome-${c.outcome}`);
      const time = new Date(c.time);
      const clock = Number.isNaN(time.getTime()) ? c.time : time.toTimeString().slice(0, 8);
      return [clock, c.agent, c.tool, c.tab === undefined ? '' : String(c.tab), c.origin || '', outcome,
        el('td', `${c.ms} ms`, 'ms')];
    });
  return [table(['Time', 'Agent', 'Tool', 'Tab', 'Origin', 'Outcome', 'Took'], rows)];
}

async function releaseAgent(agent, button) {
  button.disabled = true;
  const said = document.getElementById('said');
  try {
    const r = await fetch('api/release', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agent: agent.id }),
    });
    const body = await r.json();
    said.textContent = r.ok
      ? `Released ${agent.name} (${agent.id}); closed ${body.closed.length} tab(s).`
      : `Not released: ${body.error.code}: ${body.error.message}`;
  } catch (e) {
    said.textContent = `Not released: ${e.message}`;
  }
  await poll();
}

async function poll() {
  let state;
  try {
    const r = await fetch('api/state');
    if (!r.ok) throw new Error(await r.text());
    state = await r.json();
  } catch (e) {
    document.getElementById('relay').textContent = `dashboard unreachable: ${e.message}`;
    return;
  }
  document.getElementById('relay').textContent = state.relay
    ? `relay ${state.relay.version} on port ${state.relay.port}`
    : `relay not reachable: ${state.error}`;
  redraw('browsers', state.browsers, drawBrowsers);
  // The ages change every second; the cards only when an agent or a tab does.
  const still = state.agents.map((a) => ({ ...a, tabs: a.tabs.map((t) => ({ ...t, idleMs: 0 })) }));
  redraw('agents', still, () => drawAgents(state.agents));
  for (const a of state.agents) {
    for (const t of a.tabs) {
      const text = document.getElementById(`age-${t.browserId}-${t.tab}`);
      if (text) text.textContent = age(t);
    }
  }
  redraw('calls', state.calls, drawCalls);
}

async function loop() {
  await poll();
  setTimeout(loop, POLL_MS);
}
loop();
