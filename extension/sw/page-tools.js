// browser_page_tools: the tools the page in the agent's tab declares about itself, read and
// called in its main world (main/page-tools.js) under this worker's timer, in the one document the
// toolRef was made for (chrome.scripting's documentIds: a page the tab has moved on to gets
// nothing). A toolRef is a digest of that document's id, the tool's name and its schema, so it
// goes stale when the tab navigates or the page unregisters or changes the tool.
//
// A call runs once, after the person approves it (approval.js) or on a page they trusted; it is
// never retried, and there is no fallback into the page's controls.
import { ToolError } from './errors.js';
import { inject } from './page.js';
import { nextDocument } from './navigation.js';
import { matching } from './policy.js';
import { askPerson } from './approval.js';
import { pageToolsInMain } from '../main/page-tools.js';
import { cut } from './text.js';

const LIST_CHARS = 1 << 20;
const RESULT_CHARS = 20000;
const SUMMARY_CHARS = 200;
const MAX_ARGS_SHOWN = 20;
const LATE = Symbol('late');
const busy = new Set(); // tabs with a call waiting for approval or running

const interfered = (why) => new ToolError('INTERNAL', `the page answered its tools' listing oddly: ${why}`, 'failed');
const stale = (ref) =>
  new ToolError(
    'WEBMCP_TOOL_STALE',
    `toolRef ${ref} is no tool of the page in the tab now (it navigated, or unregistered or changed the tool); ` +
      'nothing ran; list again',
    'refused',
  );
const unavailable = (origin) =>
  new ToolError(
    'WEBMCP_UNAVAILABLE',
    `${origin} declares no tools here (a browser without --enable-features=WebMCPTesting, or a page without WebMCP)`,
    'refused',
  );

function parseUntrusted(text, max) {
  if (typeof text !== 'string') throw interfered(`a ${typeof text}, not text`);
  if (text.length > max) throw interfered('larger than the cap');
  try {
    return JSON.parse(text);
  } catch (_) {
    throw interfered('not JSON');
  }
}

const schemaOf = (text) => {
  try {
    const s = typeof text === 'string' ? JSON.parse(text) : null;
    return s && typeof s === 'object' && !Array.isArray(s) ? s : null;
  } catch (_) {
    return null;
  }
};

async function refOf(documentId, t) {
  const data = new TextEncoder().encode([documentId, t.source, t.name, t.schema].join('\n'));
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return 'wt' + [...hash.slice(0, 6)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// The top document as the browser knows it, and its tools as the page declares them.
async function discover(tabId, timeoutMs) {
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null);
  if (!frame?.documentId) throw new ToolError('TAB_GONE', `tab ${tabId} has no page now`, 'refused');
  const origin = new URL(frame.url).origin;
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(LATE), timeoutMs);
  });
  const run = inject(tabId, 0, {
    world: 'MAIN',
    func: pageToolsInMain,
    args: [{ action: 'list', maxChars: LIST_CHARS }],
  }).then(([r]) => r?.result);
  const text = await Promise.race([run, late]).finally(() => clearTimeout(timer));
  if (text === LATE) throw new ToolError('TIMEOUT', `the page did not list its tools in ${timeoutMs} ms`, 'failed');
  const answer = parseUntrusted(text, LIST_CHARS * 4 + 1024);
  const tools = [];
  for (const t of Array.isArray(answer.tools) ? answer.tools : []) {
    const ok = ['source', 'name', 'title', 'description'].every((k) => typeof t?.[k] === 'string');
    if (!ok || !t.name || (t.source !== 'webmcp' && t.source !== 'devtools')) continue;
    tools.push({ ...t, toolRef: await refOf(frame.documentId, t) });
  }
  return { frame, origin, supported: answer.supported === true, tools };
}

const words = (s) => s.toLowerCase().split(/\s+/).filter(Boolean);

function summary(t) {
  const args = Object.keys(schemaOf(t.schema)?.properties || {}).slice(0, MAX_ARGS_SHOWN);
  const description = cut(t.description, SUMMARY_CHARS);
  return { toolRef: t.toolRef, name: t.name, title: t.title || undefined, description, args };
}

function find(found, ref) {
  if (!found.supported) throw unavailable(found.origin);
  const tool = found.tools.find((t) => t.toolRef === ref);
  if (!tool) throw stale(ref);
  return tool;
}

// list and describe: they read what the page declares, and run none of its tools.
export async function pageTools(tabId, args, timeoutMs) {
  const found = await discover(tabId, timeoutMs);
  if (args.action === 'list') {
    const want = words(args.query || '');
    const hits = found.tools.filter((t) => {
      const text = `${t.name} ${t.title} ${t.description}`.toLowerCase();
      return want.every((w) => text.includes(w));
    });
    const page = hits.slice(args.offset, args.offset + args.limit).map(summary);
    return { origin: found.origin, supported: found.supported, tools: page, total: hits.length };
  }
  const t = find(found, args.toolRef);
  const inputSchema = schemaOf(t.schema);
  if (!inputSchema) throw new ToolError('WEBMCP_UNAVAILABLE', `${t.name}'s input schema is not readable`, 'refused');
  const tool = {
    toolRef: t.toolRef,
    name: t.name,
    title: t.title || undefined,
    description: t.description,
    inputSchema,
    annotations: schemaOf(t.annotations) ?? undefined,
  };
  return { origin: found.origin, tool };
}

const uncertain = (why) =>
  new ToolError('WEBMCP_EXECUTION_UNCERTAIN', `${why}; the tool may have run and changed the page`, 'unknown');

// Runs the tool once in the document the ref was made for, under this worker's timer.
async function execute(tabId, frame, tool, input, timeoutMs) {
  const next = nextDocument(tabId, 0);
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve(LATE), timeoutMs);
  });
  const spec = { action: 'call', source: tool.source, name: tool.name, schema: tool.schema, input };
  const run = chrome.scripting
    .executeScript({
      target: { tabId, documentIds: [frame.documentId] },
      world: 'MAIN',
      func: pageToolsInMain,
      args: [{ ...spec, maxChars: RESULT_CHARS }],
    })
    .then(([r]) => ({ text: r?.result }), (e) => ({ gone: String(e?.message || e) }));
  const done = await Promise.race([run, late, next.committed]).finally(() => {
    clearTimeout(timer);
    next.stop();
  });
  if (done === LATE) throw uncertain(`${tool.name} had not answered after ${timeoutMs} ms`);
  if (done.left) throw uncertain(`the tab went to ${done.left.split('?')[0]} before ${tool.name} answered`);
  if (done.gone) throw uncertain(`${tool.name}'s page went away before it answered`);
  return done.text;
}

function readResult(tool, text) {
  const answer = parseUntrusted(text, RESULT_CHARS * 2 + 1024);
  if (answer.error === 'stale') throw stale(tool.toolRef);
  if (answer.error === 'unsupported') throw unavailable('the page');
  if (answer.error === 'threw') {
    const why = typeof answer.message === 'string' ? answer.message : '';
    throw new ToolError('SCRIPT_ERROR', `the page's tool ${tool.name} failed: ${why.slice(0, 300)}`, 'failed');
  }
  if (typeof answer.result !== 'string') throw interfered('a call with no result');
  if (answer.cut === true) return { result: answer.result, cut: true };
  if (answer.result === 'undefined') return { result: '[undefined]' };
  try {
    return { result: JSON.parse(answer.result) };
  } catch (_) {
    return { result: `[not JSON] ${answer.result}` };
  }
}

// call: the person's approval (or a trusted origin), then one run.
export async function pageToolCall(tabId, { toolRef, arguments: input, trusted, phaseMs }) {
  if (busy.has(tabId)) {
    throw new ToolError('WEBMCP_BUSY', `another page tool call is waiting or running in tab ${tabId}`, 'refused');
  }
  busy.add(tabId);
  try {
    const found = await discover(tabId, phaseMs);
    const tool = find(found, toolRef);
    let approvedBy = matching(trusted, found.frame.url) ? 'trusted origin' : null;
    if (!approvedBy) {
      const details = {
        origin: found.origin,
        url: found.frame.url,
        name: tool.name,
        title: tool.title,
        description: tool.description.slice(0, 1000),
        arguments: JSON.stringify(input, null, 2),
      };
      const answer = await askPerson(details, phaseMs);
      if (answer !== 'person') {
        const why = {
          denied: 'denied it',
          closed: 'closed its window',
          timeout: `did not approve it in ${phaseMs} ms`,
        };
        throw new ToolError('WEBMCP_APPROVAL_DENIED', `the person ${why[answer]}; ${tool.name} did not run`, 'refused');
      }
      approvedBy = 'person';
    }
    const text = await execute(tabId, found.frame, tool, input, phaseMs);
    return { origin: found.origin, approvedBy, ...readResult(tool, text) };
  } finally {
    busy.delete(tabId);
  }
}
