// The browser's proxy, through chrome.proxy: the whole browser's, the person's tabs included (the
// controller says so in every answer). tabpilot's setting is taken away with `clear`, which gives
// the browser back what it had before (the person's or the system's, or another extension's), so
// nothing of the earlier setting needs keeping here.
const SETTING = chrome.proxy.settings;
const MODES = { direct: 'direct', fixed: 'fixed_servers', pac: 'pac_script', system: 'system' };

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

// `proxy` op: sets the browser's proxy, or takes tabpilot's setting away.
export async function setProxy({ mode, server, pacUrl, bypass, clear }) {
  if (clear) {
    await SETTING.clear({ scope: 'regular' });
    return current();
  }
  const value = { mode: MODES[mode] };
  if (mode === 'fixed') value.rules = { singleProxy: server, bypassList: bypass };
  if (mode === 'pac') value.pacScript = { url: pacUrl, mandatory: false };
  await SETTING.set({ value, scope: 'regular' });
  return current();
}

// `proxyState` op.
export const proxyState = () => current();
