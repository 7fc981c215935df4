// The agent task set: small web task pages (test/fixtures/agent-tasks) with what a user would type,
// and what the page must have recorded at the end (its commit lines: a form sent, an item deleted;
// and for pages that only show a state, window.__view()). `heldOut` tasks were written and frozen
// before the offline agent was improved on the others, so they measure rules, not fitting.

export type Category =
  | 'forms'
  | 'lists'
  | 'dropdowns'
  | 'checkboxes'
  | 'radios'
  | 'tabs'
  | 'collapsible'
  | 'dialogs'
  | 'menus'
  | 'dates'
  | 'inbox'
  | 'search'
  | 'steppers'
  | 'traps';

export interface AgentTask {
  category: Category;
  page: string;
  instruction: string;
  /** The page's commit lines at the end, in order: nothing else may have been committed. */
  commits: string[];
  /** What window.__view() must answer at the end, for pages whose result is only shown. */
  view?: Record<string, string>;
  heldOut?: true;
  /** Written after the improvements, run once and frozen: a second measure of rules, not fitting. */
  fresh?: true;
  /** A task the page cannot do (an item that is not there): the agent must say so; `commits` are correct first steps it may have done. */
  refuse?: true;
}

type Row = [page: string, instruction: string, commits: string[], extra?: { view?: Record<string, string>; heldOut?: true; fresh?: true }];

const on = (category: Category, rows: Row[]): AgentTask[] =>
  rows.map(([page, instruction, commits, extra]) => ({ category, page, instruction, commits, ...extra }));

const HELD = { heldOut: true } as const;
const FRESH = { fresh: true } as const;

export const TASKS: AgentTask[] = [
  ...on('forms', [
    ['login-basic.html', 'log in as ada with password hunter2', ['login ada/hunter2']],
    ['login-basic.html', "type 'ada' into the username field, enter 'hunter2' as the password, tick Remember me and click Log in", ['login ada/hunter2']],
    ['login-placeholder.html', "Enter 'grace' as the username and 'tr0ub4dor' as the password, then sign in", ['login grace/tr0ub4dor']],
    ['signup.html', "fill in the full name with 'Ada Lovelace', the email with 'ada@example.com', accept the terms and create the account", ['signup Ada Lovelace/ada@example.com/terms/no-news']],
    ['contact.html', "choose Billing as the subject, type 'Where is my refund?' into the message box and send it", ['contact Billing/Where is my refund?']],
    ['newsletter-shadow.html', "type 'bob@example.com' into the email field and click Subscribe", ['subscribe bob@example.com']],
    ['address.html', "fill street with '1 Main St', city with 'Springfield' and postal code with 'K1A 0B1', choose Canada as the country and save the address", ['address 1 Main St/Springfield/K1A 0B1/Canada'], HELD],
    ['newsletter-shadow.html', "sign up for the newsletter as 'eve@example.com'", ['subscribe eve@example.com'], HELD],
    ['login-placeholder.html', 'sign in as grace with password tr0ub4dor', ['login grace/tr0ub4dor'], FRESH],
  ]),
  ...on('lists', [
    ['todo.html', 'delete the second item', ['delete milk']],
    ['todo.html', 'remove Eggs from the list', ['delete eggs']],
    ['todo-add.html', "enter 'Walk the dog' in 'What needs to be done?' and press Add task", ['add Walk the dog']],
    ['cart.html', 'remove the Red Mug from the cart', ['remove red-mug']],
    ['todo-add.html', "mark 'Call mum' as done", ['done Call mum'], HELD],
    ['users.html', 'edit Grace Hopper', ['edit grace'], HELD],
    ['todo.html', 'delete the last item', ['delete apples'], FRESH],
    ['users.html', 'remove Alan Turing', ['remove alan'], FRESH],
  ]),
  ...on('dropdowns', [
    ['select-native.html', 'choose Medium from the size dropdown, pick Navy as the colour and add it to the cart', ['add Medium/Navy']],
    ['listbox-custom.html', 'pick Germany from the country list and save', ['save Germany']],
    ['sort.html', 'sort by price, low to high', ['sort price-asc']],
    ['sort.html', 'sort the teapots by newest first', ['sort new']],
    ['combobox-custom.html', 'select Express as the shipping method and continue to payment', ['continue express'], HELD],
    ['select-native.html', 'pick Large from the size dropdown and add to cart', ['add Large/White'], FRESH],
    ['listbox-custom.html', 'choose Italy from the country dropdown, then save', ['save Italy'], FRESH],
  ]),
  ...on('checkboxes', [
    ['checkboxes.html', 'check the first two boxes, then click OK', ['ok sales,traffic']],
    ['checkboxes.html', 'tick Refunds and Inventory and press OK', ['ok refunds,inventory']],
    ['prefs.html', 'uncheck Marketing emails and check Product updates, then save', ['save pu,sec']],
    ['toppings.html', 'select Mushrooms and Olives, then order', ['order mushrooms,olives'], HELD],
    ['checkboxes.html', 'select Sales and Refunds, then click OK', ['ok sales,refunds'], FRESH],
    ['prefs.html', 'turn off marketing emails and save my preferences', ['save sec'], FRESH],
  ]),
  ...on('radios', [
    ['plans.html', 'choose the Pro plan and continue', ['continue pro']],
    ['billing-radio.html', 'switch to monthly billing and confirm', ['confirm monthly']],
    ['delivery-radio.html', 'pick Express delivery, mark it as a gift and place the order', ['order express/gift'], HELD],
  ]),
  ...on('tabs', [
    ['tabs-shipping.html', 'open the Shipping tab and choose Express', [], { view: { tab: 'Shipping', speed: 'express', pay: 'card' } }],
    ['tabs-shipping.html', 'go to Payment and select Invoice', [], { view: { tab: 'Payment', speed: 'standard', pay: 'invoice' } }],
    ['tabs-notifications.html', 'switch to the Notifications tab, uncheck SMS and click Save', ['notify em']],
    ['tabs-security.html', 'go to the Security tab, turn on two-factor authentication and save', ['security 2fa=true'], HELD],
    ['tabs-notifications.html', 'go to Notifications, check Push and save', ['notify em,sms,push'], FRESH],
  ]),
  ...on('collapsible', [
    ['faq.html', "expand 'Can I get a refund?' and request a refund", ['refund']],
    ['accordion.html', 'open the Advanced section, enable debug logging and save the settings', ['save name=Apollo debug=true beta=false']],
    ['filters.html', 'show the filters, check In stock only and apply them', ['apply stock'], HELD],
    ['accordion.html', "expand Basic, set the project name to 'Hermes' and save settings", ['save name=Hermes debug=false beta=false'], FRESH],
  ]),
  ...on('dialogs', [
    ['projects-dialog.html', 'delete the Gemini project and confirm', ['delete gemini']],
    ['cookie-banner.html', 'accept all cookies, then click Get started', ['cookies all', 'start']],
    ['contacts-modal.html', "click New contact, type 'Linus' into the name field, enter '555 0100' as the phone and save the contact", ['contact Linus/555 0100'], HELD],
  ]),
  ...on('menus', [
    ['menu-actions.html', 'open the Actions menu and click Rename', ['rename']],
    ['menubar.html', 'open the File menu and choose Export as PDF', ['menu pdf']],
    ['invoices-kebab.html', 'open the menu for Invoice 42 and click Download', ['download 42'], HELD],
    ['menu-actions.html', 'open the Actions menu and choose Move to folder', ['move'], FRESH],
  ]),
  ...on('dates', [
    ['datepicker.html', 'pick March 14 in the date picker and save', ['book 2026-03-14']],
    ['datepicker.html', 'open the calendar, go to the next month, choose April 2 and save the booking', ['book 2026-04-02']],
    ['date-native.html', 'set check-in to 2026-05-01 and check-out to 2026-05-04, then search rooms', ['search 2026-05-01..2026-05-04 guests=2']],
    ['date-native.html', 'search rooms for 3 guests from 2026-06-10 to 2026-06-12', ['search 2026-06-10..2026-06-12 guests=3'], HELD],
    ['datepicker.html', 'choose March 3 from the calendar and save the booking', ['book 2026-03-03'], FRESH],
  ]),
  ...on('inbox', [
    ['inbox.html', 'archive the email from Bob', ['archive bob']],
    ['inbox.html', "delete Carol's message", ['delete carol']],
    ['inbox-star.html', 'star the message about the quarterly report', ['star q-report']],
    ['inbox-reply.html', 'open the email from Dana and click Reply', ['reply dana']],
    ['inbox-select.html', 'select the emails from Alice and Carol and delete them', ['delete alice,carol'], HELD],
    ['inbox.html', "archive Alice's email", ['archive alice'], FRESH],
  ]),
  ...on('search', [
    ['search.html', "search for 'blue mug'", ['search blue mug']],
    ['search-results.html', "search the catalogue for 'dune' and borrow Children of Dune", ['borrow Children of Dune']],
    ['city-search.html', "type 'Ber' into the city field and pick Bern, Switzerland", ['city Bern, Switzerland'], HELD],
  ]),
  ...on('steppers', [
    ['stepper-qty.html', 'set the quantity to 3 and add to cart', ['add qty=3']],
    ['wizard.html', "enter 'Acme' as the workspace name, click Next, type 'ops@acme.io' into the owner email, click Next and Finish", ['finish Acme/ops@acme.io']],
    ['guests-stepper.html', 'add one more adult and a child, then click Done', ['guests adults=2 children=1'], HELD],
  ]),
];

/**
 * Tasks the page cannot do, each of which a guess would get wrong (another item deleted, the form
 * sent with the option already chosen). Written after the agent was improved, to hold its new
 * readings to "never guess"; not counted among the tasks to complete.
 */
export const TRAPS: AgentTask[] = (
  [
    ['todo.html', 'delete Cheese from the list', []],
    ['todo.html', 'delete the second item and confirm', ['delete milk']],
    // No dialog asks: the one Delete button left is the other item's.
    ['saved.html', 'delete the Sencha tea and confirm', ['delete tea']],
    ['listbox-custom.html', 'pick Japan from the country list and save', []],
    ['inbox.html', 'archive the email from Zoe', []],
    ['projects-dialog.html', 'delete the Venus project and confirm', []],
    ['login-basic.html', 'log in as ada with password hunter2 and accept the cookies', ['login ada/hunter2']],
    ['checkboxes.html', 'check the first five boxes and click OK', []],
    ['sort.html', 'sort by customer rating', []],
    ['cart.html', 'remove the Green Teapot from the cart', []],
    ['plans.html', 'choose the Enterprise plan and continue', []],
  ] as Row[]
).map(([page, instruction, commits]) => ({ category: 'traps', page, instruction, commits, refuse: true }));
