// A frame's Web Storage (localStorage or sessionStorage), read and written in the isolated world:
// an extension's script in a frame shares its page's origin storage, so no script of the page's
// and no caller's code runs (it works under TABPILOT_NO_EVAL). Values leave the page only when
// the call asks (`values`), bounded in count and size, and what the bounds left out is said.
import { ToolError, getTab } from './errors.js';
import { inject, locate } from './page.js';
import { judgeUrl } from './policy.js';

const BOUNDS = { keys: 100, value: 2000, total: 20000 };

// Runs in the frame: one function, sent whole, with nothing of the service worker's.
function inFrame(area, action, key, value, values, bounds) {
  let s;
  try {
    s = area === 'session' ? sessionStorage : localStorage;
  } catch (e) {
    return { error: `this page's origin has no ${area} storage (${e?.message || e})` };
  }
  try {
    if (action === 'set') s.setItem(key, value);
    if (action === 'remove') s.removeItem(key);
    if (action === 'clear') s.clear();
  } catch (e) {
    return { error: `the page's ${area} storage refused the change (${e?.message || e})` };
  }
  const keys = [];
  for (let i = 0; i < s.length; i++) keys.push(s.key(i));
  const asked = action === 'get' ? (key == null ? keys.sort() : keys.filter((k) => k === key)) : [];
  let room = bounds.total;
  let cutValues = 0;
  const items = asked.slice(0, bounds.keys).map((k) => {
    const v = s.getItem(k) ?? '';
    const item = { key: k, len: v.length };
    if (!values) return item;
    const take = Math.max(0, Math.min(bounds.value, room));
    room -= Math.min(v.length, take);
    if (v.length > take) cutValues++;
    return { ...item, value: v.slice(0, take), ...(v.length > take ? { cut: true } : {}) };
  });
  const over = asked.length - items.length;
  const left = [over ? `${over} more keys` : '', cutValues ? `${cutValues} values cut short` : '']
    .filter(Boolean)
    .join(', ');
  return { origin: location.origin, url: location.href, items, total: keys.length, ...(left ? { leftOut: left } : {}) };
}

// The frame a call is about: the ref's, else the top one; a frame of a denied page is never read
// and one of a sensitive page never written (the top page was judged with the call).
async function frameOf(tab, ref, acts, guard) {
  if (ref === undefined || ref === null) return 0;
  const { frameId } = await locate(tab, ref);
  const frame = await chrome.webNavigation.getFrame({ tabId: tab, frameId }).catch(() => null);
  if (!frame) throw new ToolError('STALE_REF', `frame f${frameId} of ref ${ref} is no longer in the page`, 'refused');
  judgeUrl(frame.url || '', guard, acts);
  return frameId;
}

async function run({ tab, args, guard }, action) {
  const frameId = await frameOf(tab, args.ref, action !== 'get', guard);
  const params = [args.area, action, args.key ?? null, args.value ?? null, !!args.values, BOUNDS];
  const [out] = await inject(tab, frameId, { func: inFrame, args: params });
  const r = out?.result;
  if (!r) throw new ToolError('INTERNAL', 'the storage script returned nothing');
  if (r.error) throw new ToolError('BAD_ARGS', r.error, 'refused');
  return (await getTab(tab)).incognito ? { ...r, private: true } : r;
}

export const storageRead = (call) => run(call, 'get');
export const storageWrite = (call) => run(call, call.args.action);
