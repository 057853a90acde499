// The one table of operations the relay may send, and the running of a call frame through it.
// A call's scope is the contract's for its operation (contract.js): a tab-scoped call has its
// tab's dialogs watched and runs only while no dialog blocks the tab; a browser-scoped one runs
// as it is. A tab-scoped call holds its
// tab to its site policy (`guard`) before anything else, and one that acts on the page is judged
// by where the page is at that moment (policy.js). Each handler takes the call ({ tab, args,
// timeoutMs, tabs, owner, guard }) and pushes the tab lifecycle events it causes onto `tabs`,
// which go back with its result.
import { ToolError, getTab } from './errors.js';
import { runInPage, runOnRef } from './page.js';
import { act, navigate, history } from './navigation.js';
import { screenshot } from './capture.js';
import { findInTab } from './outline.js';
import { snapshot, read } from './content.js';
import { openTab, tabInfo, listTabs, closeTab, release, focusTab } from './tabs.js';
import { waitFor } from './wait.js';
import { framesOfRefs, resolveLocator, targetsOf } from './locate.js';
import { drag } from './drag.js';
import { press } from './keys.js';
import { fillForm } from './fill.js';
import { evaluate } from './eval.js';
import { pageTools, pageToolCall } from './page-tools.js';
import { handleDialog, unblocked } from './dialogs.js';
import { track } from './tracking.js';
import { heldBy, mayUse } from './sharing.js';
import { guardTab, judge } from './policy.js';
import { vitals, memory, trace } from './perf.js';
import { audit } from './a11y.js';
import { listRequests, restored } from './netlog.js';
import { requestDetail } from './netbody.js';
import { issues, issuesSince } from './issues.js';
import { consoleLogs, sinceAction, sinceActionFrom } from './console.js';
import { cookies, setCookie } from './cookies.js';
import { storageRead, storageWrite } from './storage.js';
import { CONTRACT, FRAME } from './contract.js';
import { noteFills, scrub } from './secrets.js';
import { downloads, startedSince } from './downloads.js';
import { emulate, emulation, emulationHeldBy } from './emulate.js';
import { setProxy, proxyState } from './proxy.js';
import { setAdvanced, heldNowBy } from './debugger.js';
import { begin, end } from './cancel.js';
import { addressSince } from './documents.js';

// Marks a handler that must answer while a dialog blocks the tab: that is when it is needed.
const whileBlocked = (handler) => Object.assign(handler, { whileBlocked: true });

// The HTML of the ref's element when there is one, else of the top frame's document.
const html = ({ tab, args }) => (args.ref ? runOnRef(tab, 'html', args) : runInPage(tab, 'html', args));

// Without a ref, the top frame's page (or its dominant panel) scrolls.
const scroll = ({ tab, args }) =>
  args.ref === undefined ? runInPage(tab, 'scroll', args, 0) : runOnRef(tab, 'scroll', args);

export const OPS = {
  tabOpen: (call) => openTab(call),
  tabInfo: (call) => tabInfo(call.tab),
  tabFocus: (call) => focusTab(call.tab),
  tabList: () => listTabs(),
  tabClose: (call) => closeTab(call),
  navigate: (call) => navigate(call.tab, call.args, call.timeoutMs, call.run),
  history: (call) => history(call.tab, call.args, call.timeoutMs, call.run),
  snapshot: (call) => snapshot(call.tab, call.args),
  read: (call) => read(call.tab, call.args),
  find: (call) => findInTab(call.tab, call.args),
  html: (call) => html(call),
  waitFor: (call) => waitFor(call.tab, call.args, call.run),
  resolveLocator: (call) => resolveLocator(call.tab, call.args),
  screenshot: (call) => screenshot(call.tab, call.args),
  dialog: whileBlocked((call) => handleDialog(call.tab, call.args)),
  dialogs: whileBlocked((call) => handleDialog(call.tab, call.args)),
  click: (call) => act(call.tab, 'click', call.args, call.timeoutMs, call.run),
  type: (call) => act(call.tab, 'type', call.args, call.timeoutMs, call.run),
  hover: (call) => act(call.tab, 'hover', call.args, call.timeoutMs, call.run),
  focus: (call) => act(call.tab, 'focus', call.args, call.timeoutMs, call.run),
  select: (call) => act(call.tab, 'select', call.args, call.timeoutMs, call.run),
  clear: (call) => act(call.tab, 'clear', call.args, call.timeoutMs, call.run),
  upload: (call) => act(call.tab, 'upload', call.args, call.timeoutMs, call.run),
  uploadPart: (call) => runOnRef(call.tab, 'uploadPart', call.args),
  drag: (call) => drag(call.tab, call.args, call.timeoutMs),
  press: (call) => press(call.tab, call.args, call.timeoutMs),
  scroll: (call) => scroll(call),
  fillForm: (call) => fillForm(call.tab, call.args, call.timeoutMs),
  eval: (call) => (call.run.at('script'), evaluate(call.tab, call.args, call.timeoutMs)),
  pageTools: (call) => pageTools(call.tab, call.args, call.timeoutMs),
  pageToolCall: (call) => pageToolCall(call.tab, call.args),
  vitals: (call) => vitals(call.tab, call.args),
  memory: (call) => memory(call.tab, call.args),
  trace: (call) => trace(call.tab, call.args),
  a11y: (call) => audit(call.tab),
  networkRequests: (call) => listRequests(call.tab, call.args),
  networkRequest: (call) => requestDetail(call.tab, call.args, call.timeoutMs),
  networkReload: (call) => requestDetail(call.tab, { ...call.args, reload: true }, call.timeoutMs),
  issues: (call) => issues(call.tab, call.args),
  consoleLogs: (call) => consoleLogs(call.tab, call.args),
  cookies: (call) => cookies(call),
  setCookie: (call) => setCookie(call),
  storageRead: (call) => storageRead(call),
  storageWrite: (call) => storageWrite(call),
  release: (call) => release(call),
  downloads: (call) => downloads(call),
  emulate: (call) => emulate(call.tab, call.args, call.owner),
  emulation: (call) => emulation(call.tab),
  proxy: (call) => setProxy(call.args, call.owner),
  proxyState: () => proxyState(),
  advanced: (call) => setAdvanced(call.tab, call.args.on, call.owner),
};

const DEFAULT_TIMEOUT_MS = 30000;

// What each operation needs, as the contract declares it (never as a frame says), and whether it
// changes the page.
const SCOPES = new Map(CONTRACT.ops.map((o) => [o.name, o.scope]));
const MUTATES = new Map(CONTRACT.ops.map((o) => [o.name, o.mutates]));

// The handler, begun unless the call was cancelled before (sw/cancel.js).
function begun(handler, call) {
  call.run.check();
  call.run.at('running');
  return handler(call);
}

async function run(op, call) {
  const scope = SCOPES.get(op);
  if (!scope || !Object.hasOwn(OPS, op)) {
    throw new ToolError('BAD_ARGS', `the extension has no operation ${op}`, 'refused');
  }
  const handler = OPS[op];
  if (call.tab !== null && !(await mayUse(call.tab))) {
    await getTab(call.tab); // a tab that is gone is TAB_GONE, whoever's it was
    const why = `tab ${call.tab} is the person's and they have not shared it with agents`;
    throw new ToolError('TAB_NOT_SHARED', `${why} (the tabpilot popup shares the tab in front)`, 'refused');
  }
  if (scope === 'browser') return begun(handler, call);
  if (call.tab === null) throw new ToolError('BAD_ARGS', `tab operation ${op} came with no tab`, 'refused');
  track(call.tab);
  await heldBy(call.tab, call.owner);
  await heldNowBy(call.tab, call.owner);
  await emulationHeldBy(call.tab, call.owner);
  await guardTab(call.tab, call.owner, call.guard);
  const judged = () => judge(call.tab, call.guard).then(() => begun(handler, call));
  return handler.whileBlocked ? judged() : unblocked(call.tab, judged);
}

// The address of the tab a call ran in, as the call answers (the controller's audit trail
// records it): as the tab's top document answered during the call, when it did and has not moved
// since (sw/documents.js), else read from the browser. None for a call on no tab, or a tab that is
// gone.
async function urlOf(tab, since) {
  if (tab === null) return undefined;
  return addressSince(tab, since) ?? chrome.tabs.get(tab).then((t) => t.url, () => undefined);
}

// An action that asks (`after.console`, `after.network`) has what the tab's console gained and
// what the tab met (failed requests, noted problems) since it began put on its own answer: no
// second round trip. A probe that fails is left out; the action stands.
async function probe(call, began, value) {
  const after = call.args.after;
  if (!after || call.tab === null || value === null || typeof value !== 'object') return;
  // The action's own page call read the console where that is the whole answer: the tab is one
  // document, the action did not navigate, and nothing was waited for after the page call
  // (sw/navigation.js drops the read otherwise).
  const inPage = value.consoleLog;
  delete value.consoleLog;
  if (after.console) {
    const read = inPage !== undefined && value.navigated === false;
    const seen = read ? sinceActionFrom(inPage, after.console) : await sinceAction(call.tab, began, after.console);
    if (seen) value.console = seen;
  }
  // Read from the service worker's memory: nothing here can fail.
  if (after.network) value.network = issuesSince(call.tab, { since: began, requests: after.network === 'requests' });
  const started = await startedSince(call.tab, began);
  if (started) value.downloads = started;
}

// A call frame's answer: its result frame, with the tab events the call caused and the address
// of its tab.
export async function answer(frame) {
  const call = {
    tab: frame.target?.tab ?? null,
    args: frame.args || {},
    timeoutMs: frame.timeoutMs || DEFAULT_TIMEOUT_MS,
    tabs: [],
    owner: frame.owner ?? null,
    guard: frame.guard ?? null,
  };
  // A recorded action (`describe`) describes its elements as it acts: its answer carries them.
  const describe = frame.describe === true && call.tab !== null;
  // A cancelled call answers at once where it can stop (sw/cancel.js), saying what it had done.
  call.run = begin(frame.id, frame.op, call.tab, MUTATES.get(frame.op) !== false);
  let result;
  try {
    await restored; // what a worker Chrome stopped kept, back before any call reads it
    await noteFills(call.args);
    const chains = describe ? await framesOfRefs(call.tab, call.args) : null;
    if (describe) call.args = { ...call.args, describe: true };
    const began = Date.now();
    const from = performance.now();
    // An action whose answer brings the console probe reads it from `began` on (page/kit.js).
    if (call.args.after?.console) call.args = { ...call.args, consoleSince: began };
    result = { t: FRAME.result, id: frame.id, value: await Promise.race([run(frame.op, call), call.run.stopped]) };
    if (describe) {
      const described = targetsOf(result.value?.described, chains);
      if (described) result.described = described;
      if (result.value && typeof result.value === 'object') delete result.value.described;
    }
    // The probes and the tab's address (each may read the browser), neither waiting on the other.
    const [, url] = await Promise.all([probe(call, began, result.value), urlOf(call.tab, from)]);
    if (url) result.url = url;
  } catch (e) {
    const err = e instanceof ToolError ? e : new ToolError('INTERNAL', String(e?.message || e));
    result = { t: FRAME.result, id: frame.id, error: { code: err.code, message: err.message, outcome: err.outcome } };
  } finally {
    end(frame.id);
  }
  if (call.tabs.length) result.tabs = call.tabs;
  return scrubbed(result);
}

// The answer with every secret filled by name taken out of what it says.
async function scrubbed(result) {
  for (const key of ['value', 'url', 'tabs', 'described']) if (key in result) result[key] = await scrub(result[key]);
  if (result.error) result.error.message = await scrub(result.error.message);
  return result;
}
