// Page script: reading the page's content.
(() => {
  const T = globalThis.__tabpilot;
  if (T.ops.read) return;
  const { squash, visible } = T;

  function mainContent() {
    return document.querySelector('main, [role=main], article') || document.body || document.documentElement;
  }

  function markdown(root) {
    const out = [];
    const inline = (el) => {
      let s = '';
      for (const n of el.childNodes) {
        if (n.nodeType === 3) s += n.textContent;
        else if (n.nodeType === 1) {
          if (!visible(n) || ['script', 'style', 'noscript', 'template'].includes(n.localName)) continue;
          const t = inline(n);
          if (n.localName === 'a' && n.getAttribute('href') && squash(t)) s += `[${squash(t)}](${n.href})`;
          else if (n.localName === 'strong' || n.localName === 'b') s += squash(t) ? `**${squash(t)}**` : '';
          else if (n.localName === 'em' || n.localName === 'i') s += squash(t) ? `*${squash(t)}*` : '';
          else if (n.localName === 'code') s += '`' + t + '`';
          else if (n.localName === 'br') s += '\n';
          else s += t;
        }
      }
      return s;
    };
    const block = (el, prefix = '') => {
      for (const n of el.childNodes) {
        if (n.nodeType === 3) {
          const t = squash(n.textContent);
          if (t) out.push(prefix + t);
          continue;
        }
        if (n.nodeType !== 1) continue;
        const tag = n.localName;
        if (['script', 'style', 'noscript', 'template', 'svg', 'canvas'].includes(tag) || !visible(n)) continue;
        const h = tag.match(/^h([1-6])$/);
        if (h) out.push(`\n${'#'.repeat(+h[1])} ${squash(inline(n))}\n`);
        else if (tag === 'p') out.push(`\n${prefix}${squash(inline(n))}\n`);
        else if (tag === 'ul' || tag === 'ol') {
          let i = 1;
          for (const li of n.children) {
            if (li.localName === 'li') out.push(`${prefix}${tag === 'ol' ? `${i++}.` : '-'} ${squash(inline(li))}`);
          }
          out.push('');
        } else if (tag === 'pre') out.push('\n```\n' + n.textContent.replace(/\n$/, '') + '\n```\n');
        else if (tag === 'blockquote') block(n, prefix + '> ');
        else if (tag === 'table') {
          const cells = (r) => Array.from(r.cells).map((c) => squash(c.textContent));
          const rows = Array.from(n.rows).map((r) => '| ' + cells(r).join(' | ') + ' |');
          if (rows.length) rows.splice(1, 0, '|' + ' --- |'.repeat(n.rows[0].cells.length));
          out.push('', ...rows, '');
        } else if (tag === 'img') {
          if (n.alt) out.push(`![${squash(n.alt)}](${n.src})`);
        } else if (
          tag === 'a' ||
          tag === 'strong' ||
          tag === 'em' ||
          tag === 'code' ||
          tag === 'span' ||
          tag === 'b' ||
          tag === 'i' ||
          tag === 'label'
        ) {
          const t = squash(inline(n));
          if (t) out.push(prefix + (tag === 'a' && n.getAttribute('href') ? `[${t}](${n.href})` : t));
        } else block(n, prefix);
      }
    };
    block(root);
    return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
  }

  function read({ format = 'markdown', maxChars = 20000 } = {}) {
    const root = mainContent();
    const text = format === 'text' ? (root.innerText || '').replace(/\n{3,}/g, '\n\n').trim() : markdown(root);
    const full = T.scrubText(text);
    const truncated = full.length > maxChars;
    return { content: truncated ? full.slice(0, maxChars) : full, truncated, totalChars: full.length, format };
  }

  T.ops.read = read;
})();
