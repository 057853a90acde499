// A house rule, checked on the extension's source as a linter checks style: the debugger is for
// what nothing else can do (a screenshot of a background tab, a response body, a DevTools trace),
// attached through sw/debugger.js, which keeps it per tab and detaches it straight after; the
// popup only asks the browser which tabs have one attached. Advanced mode's users reach it through
// `advancedSend`, which refuses while the mode is off. Any other file of the extension that
// reaches for `chrome.debugger` or `withDebugger` is a finding: the rule changes here, with a
// reason, or the file does not.
'use strict';
const fs = require('fs');
const path = require('path');

const ALLOWED = ['sw/capture.js', 'sw/debugger.js', 'sw/netbody.js', 'sw/perf.js', 'ui/popup.js'];
const ROOT = 'extension';

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'vendor' ? [] : files(p);
    return p.endsWith('.js') ? [p] : [];
  });
}

const users = files(ROOT)
  .filter((f) => /chrome\.debugger|withDebugger/.test(fs.readFileSync(f, 'utf8')))
  .map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
  .sort();
const extra = users.filter((f) => !ALLOWED.includes(f));
const gone = ALLOWED.filter((f) => !users.includes(f));
for (const f of extra) console.error(`extension/${f}: reaches for the debugger; see .ci/debugger.js`);
for (const f of gone) console.error(`extension/${f}: no longer uses the debugger; take it off .ci/debugger.js`);
process.exit(extra.length || gone.length ? 1 : 0);
