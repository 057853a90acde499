// The one function browser_page_tools runs in a page's main world, where the page declares its
// tools: WebMCP's document.modelContext (navigator.modelContext in older builds) and the
// `devtoolstooldiscovery` event Chrome DevTools MCP introduced (a page answers it with
// event.respondWith({name, tools})). Chrome sends it as source, so it is self-contained.
//
// Everything here is the page's: its names, schemas and results, and the built-ins it may have
// replaced. So the answer is a string, capped, which the service worker reads as untrusted text:
// {"supported", "tools": [{source, name, title, description, schema, annotations}]} for a list,
// and for a call {"result", "cut"} or {"error": "stale" | "unsupported" | "threw", "message"}.
// Only tools of this document's own window are listed (WebMCP lists a page's frames' tools too).
export async function pageToolsInMain({ action, source, name, schema, input, maxChars }) {
  const stringify = JSON.stringify;
  const MAX_TOOLS = 200;
  const TEXT = 4000;
  const SCHEMA = 32768;
  const str = (v, max) => (typeof v === 'string' ? v.slice(0, max) : '');
  const json = (v, max) => {
    try {
      const s = stringify(v);
      return typeof s === 'string' && s.length <= max ? s : null;
    } catch (_) {
      return null;
    }
  };
  const context = document.modelContext || navigator.modelContext;

  async function discover() {
    const found = [];
    let supported = false;
    if (context && typeof context.getTools === 'function') {
      supported = true;
      const tools = await context.getTools();
      for (const t of Array.isArray(tools) ? tools : []) {
        if (t && (t.window === undefined || t.window === window)) found.push({ source: 'webmcp', tool: t });
      }
    }
    const groups = [];
    const event = new CustomEvent('devtoolstooldiscovery');
    event.respondWith = (group) => groups.push(group);
    window.dispatchEvent(event);
    for (const pending of groups) {
      const group = await Promise.race([pending, new Promise((r) => setTimeout(r, 1000))]);
      if (!group || !Array.isArray(group.tools)) continue;
      supported = true;
      for (const t of group.tools) {
        if (t && typeof t.execute === 'function') found.push({ source: 'devtools', tool: t });
      }
    }
    return { supported, found: found.slice(0, MAX_TOOLS) };
  }

  const describe = ({ source: from, tool }) => ({
    source: from,
    name: str(tool.name, 200),
    title: str(tool.title, 200),
    description: str(tool.description, TEXT),
    schema: json(tool.inputSchema ?? { type: 'object' }, SCHEMA),
    annotations: json(tool.annotations ?? null, TEXT),
  });

  const { supported, found } = await discover();
  if (action === 'list') return json({ supported, tools: found.map(describe) }, maxChars * 4) ?? '{}';
  if (!supported) return stringify({ error: 'unsupported' });
  const match = found.find((f) => {
    const d = describe(f);
    return d.source === source && d.name === name && d.schema === schema;
  });
  if (!match) return stringify({ error: 'stale' });
  let text;
  try {
    if (source === 'webmcp') {
      text = await context.executeTool(match.tool, input);
      if (typeof text !== 'string') text = json(text, Infinity) ?? '[a value that is not JSON]';
    } else {
      const value = await match.tool.execute(input);
      text = value === undefined ? 'undefined' : (json(value, Infinity) ?? '[a value that is not JSON]');
    }
  } catch (e) {
    return stringify({ error: 'threw', message: str(String(e?.message ?? e), 300) });
  }
  const cut = text.length > maxChars;
  return stringify({ result: cut ? text.slice(0, maxChars) : text, cut });
}
