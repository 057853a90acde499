// What an agent asks of one navigation in advanced mode (browser_navigate {initScript,
// handleBeforeUnload}), through the debugger: a script that runs before any of the new
// document's own, and the answer to the page's "Leave site?" prompt.
// The script is armed before the navigation is issued and taken away once the top frame's next
// document committed (it is in that document by then; later ones must not get it), or when the
// navigation failed or timed out. Taking it away when the call returns would be too early under
// `waitUntil: "none"`, and too late after a failure.
import { ToolError, getTab } from './errors.js';
import { advancedSend, onDebuggerEvent } from './debugger.js';

const NOTHING_ASKED = { until: (finished) => finished, said: () => ({}), end: async () => {} };

// The agent's script, for a document of the origin it asked for only: a redirect elsewhere (a
// page at a sensitive origin, say) stops it at its first line.
function forOrigin(url, script) {
  const origin = JSON.stringify(new URL(url).origin);
  const guard = `if (location.origin !== ${origin}) throw new Error('tabpilot: this initScript is for ' + ${origin});`;
  return `${guard}\n${script}`;
}

// The script, armed until the top frame's next document (`next()`, navigation.js's
// nextDocument) commits; `remove()` takes it away sooner, once.
async function armScript(send, source, next) {
  const { identifier } = await send('Page.addScriptToEvaluateOnNewDocument', { source });
  const commit = next();
  let removed = null;
  const remove = () => {
    commit.stop();
    removed ??= send('Page.removeScriptToEvaluateOnNewDocument', { identifier }).catch(() => {});
    return removed;
  };
  commit.committed.then(remove);
  return remove;
}

// Answers the page's "Leave site?" prompt as asked; `answered()` says how, once it was.
function answerPrompt(tabId, send, how) {
  const accept = how === 'accept';
  let answered = null;
  let told = () => {};
  const stayed = new Promise((resolve) => {
    told = resolve;
  });
  const stop = onDebuggerEvent(tabId, (method, params) => {
    if (method !== 'Page.javascriptDialogOpening' || params.type !== 'beforeunload') return;
    answered = accept ? 'accepted' : 'dismissed';
    send('Page.handleJavaScriptDialog', { accept }).then(() => accept || told(), () => {});
  });
  return { stop, stayed, answered: () => answered };
}

// Arms what was asked, before the navigation is issued (ADVANCED_MODE_REQUIRED when the mode is
// off); `next()` watches for the top frame's next document. `until(finished)` is the
// navigation's end, or NAVIGATION_FAILED as soon as a dismissed prompt kept the page; `said()` is
// what goes on the reply; `end()` disarms what is left.
export async function arrival(tabId, { url, initScript, handleBeforeUnload }, next) {
  if (initScript === undefined && handleBeforeUnload === undefined) return NOTHING_ASKED;
  const send = advancedSend(tabId, initScript === undefined ? 'handleBeforeUnload' : 'initScript');
  const remove = initScript === undefined ? async () => {} : await armScript(send, forOrigin(url, initScript), next);
  const prompt = handleBeforeUnload ? answerPrompt(tabId, send, handleBeforeUnload) : null;
  const stayed = prompt?.stayed.then(async () => {
    const tab = await getTab(tabId);
    const why = 'the page\'s "Leave site?" prompt was dismissed (handleBeforeUnload: "dismiss")';
    throw new ToolError('NAVIGATION_FAILED', `${why}: the tab stayed on ${tab.url}`);
  });
  // Told only if the navigation had not ended first.
  stayed?.catch(() => {});
  return {
    until: (finished) => (stayed ? Promise.race([finished, stayed]) : finished),
    said: () => (prompt?.answered() ? { beforeUnload: prompt.answered() } : {}),
    end: async () => {
      prompt?.stop();
      await remove();
    },
  };
}
