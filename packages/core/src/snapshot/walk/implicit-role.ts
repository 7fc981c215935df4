// In-page (shipped as source by inPage): the role HTML gives an element that names none.

export function implicitRole(el: Element, tag: string): string {
  switch (tag) {
    case 'a':
    case 'area':
      return el.hasAttribute('href') ? 'link' : '';
    case 'button':
      return 'button';
    case 'input': {
      const type = ((el as HTMLInputElement).getAttribute('type') ?? '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'button' || type === 'submit' || type === 'reset' || type === 'image' || type === 'file') return 'button';
      if (type === 'search') return 'searchbox';
      if (type === 'number') return 'spinbutton';
      if (type === 'range') return 'slider';
      return 'textbox';
    }
    case 'textarea':
      return 'textbox';
    case 'select': {
      const s = el as HTMLSelectElement;
      return s.multiple || s.size > 1 ? 'listbox' : 'combobox';
    }
    case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6':
      return 'heading';
    case 'img':
      return el.getAttribute('alt') === '' ? '' : 'img';
    case 'nav': return 'navigation';
    case 'main': return 'main';
    case 'aside': return 'complementary';
    case 'header': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
    case 'footer': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
    case 'form': return 'form';
    case 'section': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
    case 'dialog': return 'dialog';
    case 'ul': case 'ol': case 'menu': return 'list';
    case 'li': return 'listitem';
    case 'table': return 'table';
    case 'tr': return 'row';
    case 'td': return 'cell';
    case 'th': return 'columnheader';
    case 'fieldset': case 'details': return 'group';
    case 'summary': return 'button';
    case 'option': return 'option';
    case 'progress': return 'progressbar';
    case 'meter': return 'meter';
    case 'iframe': case 'frame': return 'iframe';
    default: return '';
  }
}
