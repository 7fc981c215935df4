// Words as the built-in model compares them: lower case, multi-word terms joined ("log in" and
// "sign in" are one word), light stemming ("sharing" ~ "share", "addresses" ~ "address"), and a
// short list of words that mean the same on a web page ("delete" ~ "remove").

/** Terms written in several ways that name one thing; each becomes a single token. */
const TERMS: Array<[RegExp, string]> = [
  [/\b(?:log[ -]?in|sign[ -]?in)\b/g, ' signin '],
  [/\b(?:log[ -]?out|sign[ -]?out)\b/g, ' signout '],
  [/\b(?:sign[ -]?up)\b/g, ' signup '],
  // "check-in" and "check-out" differ only in a word that is otherwise left out: keep such compounds whole.
  [/\b(\p{L}+)-(in|out|on|off|up|down|by)\b/gu, ' $1$2 '],
  [/\be-?mail\b/g, ' email '],
  [/\b(?:no,? thanks|no thank you|not now|maybe later)\b/g, ' nothanks '],
  [/\bcheck ?out\b/g, ' checkout '],
  [/\bwish ?list\b/g, ' wishlist '],
  [/\bdrop[ -]?down\b/g, ' dropdown '],
];

/** Symbols and icons that name an action on their own: a close button is often just "×", a like button "♥". */
const SYMBOL = String.raw`[×✕✖✗+−←→‹›«»↑↓★☆♥❤⚙✎✏🗑🔍▶⏸]|\p{Extended_Pictographic}`;
const WORD = new RegExp(String.raw`[\p{L}\p{N}]+|${SYMBOL}`, 'gu');

/** The words of a text, in order: lower case, terms joined, symbols kept, punctuation dropped. */
export function tokens(text: string): string[] {
  return remembered(readTokens, text, () => {
    let t = text.toLowerCase().replace(/[’‘`]/g, "'").replace(/'s\b/g, '').replace(/\uFE0F/g, '');
    for (const [pattern, term] of TERMS) t = t.replace(pattern, term);
    return t.match(WORD) ?? [];
  });
}

/**
 * The texts read lately and their words: an act reads the same names, labels and rows as the act before
 * on the page, and reading them again (thirteen patterns a text) was most of the offline model's time.
 */
const readTokens = new Map<string, readonly string[]>();
const readStems = new Map<string, readonly string[]>();
const READ_MAX = 4_000;

function remembered(read: Map<string, readonly string[]>, text: string, words: () => string[]): string[] {
  let known = read.get(text);
  if (!known) {
    known = words();
    // A page of ever new texts (a feed, a clock) starts the list again rather than growing it.
    if (read.size >= READ_MAX) read.clear();
    read.set(text, known);
  }
  // A copy: callers take words out of the list they are given.
  return known.slice();
}

const IRREGULAR: Record<string, string> = { forgotten: 'forgot', chosen: 'choose', written: 'write', children: 'child', people: 'person' };

/** A light stemmer: plural, -ing, -ed and a final -e or -y fold together, so both sides of a comparison meet. */
export function stem(word: string): string {
  let w = IRREGULAR[word] ?? word;
  if (/^\d/.test(w)) return w;
  // "departure" ~ "depart", "removal" ~ "remove", "monthly" ~ "month"
  if (w.length >= 9 && w.endsWith('ure')) w = w.slice(0, -3);
  else if (w.length >= 7 && w.endsWith('al')) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith('ly')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) w = w.slice(0, -3) + 'i';
  else if (w.length > 4 && w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && (w.endsWith('e') || w.endsWith('y'))) w = w.slice(0, -1) + (w.endsWith('y') ? 'i' : '');
  return w;
}

/** Stems of a text's words, stop words left out. */
export function stems(text: string): string[] {
  return remembered(readStems, text, () =>
    tokens(text)
      .filter((w) => !STOP.has(w))
      .map(stem),
  );
}

/** Words that carry no name: articles, pronouns, politeness, linking words. */
export const STOP = new Set([
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'it', 'its', 'them', 'my', 'your', 'our', 'their', 'his', 'her', 'me', 'us', 'i',
  'then', 'here', 'there',
  'to', 'in', 'into', 'on', 'onto', 'of', 'for', 'with', 'at', 'from', 'by', 'about', 'as', 'under', 'within', 'inside', 'near',
  'and', 'or', 'is', 'are', 'be', 'which', 'who', 'labeled', 'labelled', 'named', 'called', 'titled', 'saying', 'says',
  'someone', 'somebody', 'something', 'anyone', 'anything', 'everything',
]);

/** Words an instruction adds that a page does not print: "add a new address", "log in instead". */
export const FILLER = new Set(['please', 'just', 'now', 'new', 'currently', 'only', 'instead', 'again', 'also', 'right', 'away']);

/**
 * Nouns that say what kind of thing surrounds the target rather than name it ("the Blue Mug card",
 * "the second address", "the cookie banner"): a page seldom prints them, so they are not required.
 */
export const CONTAINER_NOUNS = new Set(
  [
    'page', 'section', 'dialog', 'popup', 'pop', 'modal', 'banner', 'form', 'panel', 'area', 'row', 'card', 'item', 'entry', 'list',
    'box', 'plan', 'address', 'member', 'user', 'product', 'question', 'story', 'article', 'post', 'order', 'thing', 'site', 'window',
    'screen', 'tile', 'record', 'line', 'column', 'table', 'region', 'bar', 'toolbar', 'sidebar', 'header', 'footer', 'logo',
    'icon', 'image', 'picture', 'photo', 'email', 'message', 'mail', 'video', 'thread', 'conversation', 'file', 'document', 'filter',
    'setting', 'preference', 'feature', 'category', 'topic', 'command', 'control', 'view',
  ].map(stem),
);

/**
 * What an instruction's word may be called on the page. One-way: asked to "dismiss" something, a
 * "No thanks" button will do; asked to click "No thanks", a "Dismiss" button is not it.
 */
const SAME_AS: Record<string, string[]> = {
  delete: ['remove', 'trash', 'discard', '🗑'],
  remove: ['delete', 'trash', 'discard', '🗑'],
  close: ['×', '✕', '✖', '✗', 'x', 'dismiss'],
  dismiss: ['close', '×', '✕', '✖', '✗', 'x', 'nothanks'],
  accept: ['agree', 'allow'],
  reject: ['decline', 'deny', 'refuse'],
  cart: ['basket', 'bag'],
  edit: ['modify', '✎', '✏'],
  buy: ['purchase'],
  book: ['reserve'],
  reserve: ['book'],
  send: ['transfer'],
  transfer: ['send'],
  select: ['choose', 'pick'],
  choose: ['select', 'pick'],
  pick: ['select', 'choose'],
  increase: ['more', '+', 'plus', 'raise'],
  decrease: ['fewer', 'less', '−', 'minus', 'lower'],
  reduce: ['fewer', 'less', '−', 'minus', 'lower'],
  create: ['new', 'add'],
  add: ['+'],
  like: ['♥', '❤', '👍'],
  dislike: ['👎'],
  star: ['★', '☆'],
  settings: ['⚙'],
  search: ['🔍'],
  play: ['▶'],
  pause: ['⏸'],
  next: ['continue', '→', '›', '»'],
  previous: ['back', 'prev', '←', '‹', '«'],
  back: ['previous', 'prev', '←', '‹', '«'],
  signup: ['register'],
  photo: ['picture', 'image'],
  date: ['calendar', '📅'],
};

/** The stems a word (already stemmed) may match on the page: itself and its synonyms. */
export function alternatives(stemmed: string): string[] {
  const more = SAME_AS[unstem(stemmed)] ?? [];
  return [stemmed, ...more.map(stem)];
}

const UNSTEM = new Map(Object.keys(SAME_AS).map((w) => [stem(w), w]));
function unstem(stemmed: string): string {
  return UNSTEM.get(stemmed) ?? stemmed;
}
