// Page script (kit): roles and accessible names, as the snapshot, find and refs see elements, and
// the short description of an element that messages use.
(() => {
  const T = globalThis.__tabpilot;
  if (T.role) return;
  const { NAME_MAX, squash, cut } = T;

  const INPUT_ROLES = {
    button: 'button', submit: 'button', reset: 'button', image: 'button',
    checkbox: 'checkbox', radio: 'radio', range: 'slider', number: 'spinbutton',
    search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox',
    password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox',
    time: 'textbox', week: 'textbox', color: 'button', file: 'button',
  };
  const LANDMARKS = new Set([
    'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'form', 'dialog', 'region', 'search',
  ]);
  const INTERACTIVE = new Set([
    'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'slider',
    'spinbutton', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem',
  ]);

  function role(el) {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    const tag = el.localName;
    switch (tag) {
      case 'a':
      case 'area':
        return el.hasAttribute('href') ? 'link' : null;
      case 'button':
      case 'summary':
        return 'button';
      case 'input': {
        const type = (el.getAttribute('type') || 'text').toLowerCase();
        if (type === 'hidden') return null;
        return INPUT_ROLES[type] || 'textbox';
      }
      case 'textarea':
        return 'textbox';
      case 'select':
        return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
        return 'heading';
      case 'nav':
        return 'navigation';
      case 'main':
        return 'main';
      case 'aside':
        return 'complementary';
      case 'form':
        return 'form';
      case 'dialog':
        return 'dialog';
      case 'header':
        return el.closest('article,aside,main,nav,section') ? null : 'banner';
      case 'footer':
        return el.closest('article,aside,main,nav,section') ? null : 'contentinfo';
      case 'section':
        return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : null;
      case 'img':
        return el.getAttribute('alt') ? 'img' : null;
      default:
        if (el.isContentEditable && !el.parentElement?.isContentEditable) return 'textbox';
        return null;
    }
  }

  function labelledBy(el) {
    const ids = el.getAttribute('aria-labelledby');
    if (!ids) return '';
    const root = el.getRootNode();
    return ids.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent || '').join(' ');
  }

  // A label's own words, without the text of the controls it wraps (a select's options).
  const CONTROLS = ['select', 'textarea', 'input', 'button', 'datalist'];
  function labelText(label) {
    let text = '';
    const walk = (node) => {
      for (const n of node.childNodes) {
        if (n.nodeType === 3) text += n.textContent;
        else if (n.nodeType === 1 && !CONTROLS.includes(n.localName)) walk(n);
      }
    };
    walk(label);
    return text;
  }

  function name(el) {
    const fromAria = squash(el.getAttribute('aria-label')) || squash(labelledBy(el));
    if (fromAria) return cut(fromAria, NAME_MAX);
    const tag = el.localName;
    if (tag === 'input' || tag === 'textarea' || tag === 'select') {
      const labels = el.labels ? Array.from(el.labels).map(labelText).join(' ') : '';
      const type = (el.getAttribute('type') || '').toLowerCase();
      const own = ['submit', 'button', 'reset'].includes(type) ? el.value || type : '';
      const n =
        squash(labels) ||
        own ||
        squash(el.getAttribute('placeholder')) ||
        squash(el.getAttribute('title')) ||
        squash(el.getAttribute('alt'));
      return cut(n, NAME_MAX);
    }
    if (tag === 'img') return cut(squash(el.getAttribute('alt')), NAME_MAX);
    return cut(squash(el.innerText ?? el.textContent) || squash(el.getAttribute('title')), NAME_MAX);
  }

  function describeEl(el) {
    const id = el.id ? `#${el.id}` : '';
    const cls = !id && el.classList.length ? `.${el.classList[0]}` : '';
    const text = cut(squash(el.innerText || el.textContent), 40);
    return `<${el.localName}${id}${cls}>${text ? ` ${JSON.stringify(text)}` : ''}`;
  }

  Object.assign(T, { INTERACTIVE, LANDMARKS, role, name, labelledBy, describeEl });
})();
