// browser_fill_form: many fields, maybe in several frames. Every address and value is checked in
// every frame before the first write, so a refused call wrote nothing; then the fields are
// written in the order given (a run of fields in one frame in one page call), each with its own
// outcome.
import { ToolError } from './errors.js';
import { settle } from './navigation.js';
import { locate, runInPage } from './page.js';

const pageFields = (list) => list.map(({ i, ref, value, secret }) => ({ i, ref, value, secret }));

export async function fillForm(tabId, { fields, after, describe }, timeoutMs) {
  const started = Date.now();
  const located = [];
  for (const [i, f] of fields.entries()) {
    const { frameId, ref } = await locate(tabId, f.ref);
    located.push({ i, frameId, ref, value: f.value, secret: f.secret });
  }
  const checks = new Map();
  const frames = [...new Set(located.map((l) => l.frameId))];
  await Promise.all(
    frames.map(async (frameId) => {
      const mine = pageFields(located.filter((l) => l.frameId === frameId));
      const r = await runInPage(tabId, 'formCheck', { fields: mine }, frameId);
      for (const c of r.fields) checks.set(c.i, c);
    }),
  );
  const problems = [];
  located.forEach((l, n) => {
    const c = checks.get(l.i);
    const ref = fields[l.i].ref;
    if (c.error) problems.push({ code: c.error.code, text: `${ref}: ${c.error.message}` });
    // Hidden or disabled is allowed only where an earlier field in the same document could
    // change that (a country revealing its states); such a field is checked again at its turn.
    else if (c.waiting && !located.slice(0, n).some((p) => p.frameId === l.frameId)) {
      problems.push({
        code: 'NOT_ACTIONABLE',
        text: `${ref}: ${c.element} is hidden or disabled, and no earlier field could change that`,
      });
    }
  });
  if (problems.length) {
    throw new ToolError(problems[0].code, `nothing was filled; ${problems.map((p) => p.text).join('; ')}`, 'refused');
  }
  const results = [];
  // Each field's element as the recording keeps it, in the order of the fields (page/kit.js).
  const described = [];
  for (let n = 0; n < located.length; ) {
    let end = n + 1;
    while (end < located.length && located[end].frameId === located[n].frameId) end++;
    const run = located.slice(n, end);
    try {
      const r = await runInPage(tabId, 'formFill', { fields: pageFields(run), describe }, run[0].frameId);
      results.push(...r.fields);
      described.push(...(r.described || run.map(() => null)));
    } catch (e) {
      for (const l of run) {
        results.push({ i: l.i, outcome: 'failed', error: { code: e.code || 'INTERNAL', message: e.message } });
        described.push(null);
      }
    }
    n = end;
  }
  // Each frame written to settles, each with its own observer.
  const wait = { waitUntil: 'auto', ...after };
  const acted = Date.now();
  const waits = await Promise.all(
    frames.map((frameId) => settle(tabId, wait, started + timeoutMs, started, { frameId, acted })),
  );
  const settled = waits.every((w) => w.settled);
  return {
    fields: results.map((r) => ({
      ref: fields[r.i].ref,
      element: r.element || checks.get(r.i).element,
      outcome: r.outcome,
      ...(r.error ? { error: r.error } : {}),
    })),
    settled,
    ...(describe ? { described } : {}),
  };
}
