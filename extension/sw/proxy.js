// The browser's proxy, through chrome.proxy: the whole browser's, the person's tabs included (the
// controller says so in every answer, and sets it only when the person allowed it). tabpilot's
// setting is taken away with `clear`, which gives the browser back what it had before (the
// person's or the system's, or another extension's), so nothing of the earlier setting needs
// keeping here; what is kept is whose session set it, so that its end takes it away too.
const SETTING = chrome.proxy.settings;
const MODES = { direct: 'direct', fixed: 'fixed_servers', pac: 'pac_script', system: 'system' };
// The session whose agent set the proxy (chrome.storage.local: the setting outlives the worker).
const HOLDER = 'proxyHolder';
// Chrome never proxies loopback but for this rule: the relay's link runs there, so it never goes
// to Chrome, whatever the controller sent.
const PROXIES_LOOPBACK = /^<-loopback>$/i;

// What Chrome reports, in the contract's shape.
async function current() {
  const { value, levelOfControl } = await SETTING.get({ incognito: false });
  const out = { mode: value.mode, control: levelOfControl };
  const single = value.rules?.singleProxy;
  if (single) out.server = `${single.scheme || 'http'}://${single.host}:${single.port}`;
  if (value.rules?.bypassList?.length) out.bypass = value.rules.bypassList;
  if (value.pacScript?.url) out.pacUrl = value.pacScript.url;
  return out;
}

async function giveBack() {
  await SETTING.clear({ scope: 'regular' });
  await chrome.storage.local.remove(HOLDER);
}

// `proxy` op: sets the browser's proxy for `owner`'s session, or takes tabpilot's setting away.
export async function setProxy({ mode, server, pacUrl, bypass, clear }, owner) {
  if (clear) {
    await giveBack();
    return current();
  }
  const value = { mode: MODES[mode] };
  if (mode === 'fixed') {
    value.rules = { singleProxy: server, bypassList: (bypass || []).filter((b) => !PROXIES_LOOPBACK.test(b)) };
  }
  if (mode === 'pac') value.pacScript = { url: pacUrl, mandatory: false };
  await chrome.storage.local.set({ [HOLDER]: owner || 'unknown' });
  await SETTING.set({ value, scope: 'regular' });
  return current();
}

// `owner`'s session ended (its release): the proxy it set goes with it.
export async function endProxyOf(owner) {
  const { [HOLDER]: holder } = await chrome.storage.local.get(HOLDER);
  if (holder && holder === owner) await giveBack();
}

// The proxy tabpilot holds now, for the popup; null when it holds none.
export async function heldProxy() {
  const now = await current();
  return now.control === 'controlled_by_this_extension' ? now : null;
}

// A browser that starts again has no agent session that set its proxy: a setting tabpilot left
// (the browser stopped before the session ended) is given back.
chrome.runtime.onStartup.addListener(() => {
  chrome.storage.local.get(HOLDER).then((got) => (got[HOLDER] ? giveBack() : null)).catch(() => {});
});

// `proxyState` op.
export const proxyState = () => current();
