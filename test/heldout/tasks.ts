// The held-out batch of issue 18: small task pages (pages/) with the instruction a person would
// type. Frozen in one commit: judged only by what each page records, never edited afterwards.

export type TaskClass =
  | 'described value'
  | 'clause'
  | 'transform'
  | 'list'
  | 'native control'
  | 'option'
  | 'ordinal'
  | 'plain'
  | 'ambiguous'
  | 'missing'
  | 'negation'
  | 'condition'
  | 'count';

export interface HeldoutTask {
  /** The page under pages/, which records `window.__taskResult = {done, got}`. */
  page: string;
  instruction: string;
  class: TaskClass;
}

const t = (cls: TaskClass, page: string, instruction: string): HeldoutTask => ({ page: `${page}.html`, instruction, class: cls });

export const TASKS: HeldoutTask[] = [
  t('described value', 'd-value-of', 'Enter the value of Last name into the Answer field and click Submit'),
  t('described value', 'd-text-below', 'Type the text below the Phrase heading into the Answer field and press Submit'),
  t('described value', 'd-link-text', 'Type the text of the Contact sales link into the Subject field and click Send'),
  t('described value', 'd-table-cell', 'Enter the city of Grace Hopper from the table into the Destination field and press Book'),
  t('described value', 'd-table-header', 'Type the Pro price for Storage into the Amount field and click Pay'),
  t('described value', 'd-count', 'Type the total number of blocks into the Count field and press Submit'),
  t('described value', 'd-that', 'Read the order number and type it into the Reference field, then press Track'),
  t('described value', 'd-email-row', "Find Linus's email in the table, type that into the To field and click Send"),
  t('described value', 'd-sum', 'Enter the sum of 17 and 25 into the Answer field and press Check'),
  t('described value', 'd-cheapest', 'Click the Buy button of the cheapest item'),

  t('clause', 'c-copy-paste', 'Copy the text in the textarea, paste it into the textbox and press Submit'),
  t('clause', 'c-resize', 'Resize the textarea so that it is at least 300 pixels tall'),
  t('clause', 'c-scroll-textarea', 'Scroll the textarea to the bottom'),
  t('clause', 'c-scroll-terms', 'Scroll the Terms box to the bottom, then tick I have read the terms and click Continue'),
  t('clause', 'c-radio-ordinal', 'Check the 1st radio button and enter "-5" into the 2nd text field, then press Submit'),
  t('clause', 'c-menu', 'Click the Menu button, and then click the item labelled Export'),
  t('clause', 'c-login', 'Enter "grace" as the username and "cobol59" as the password, then press Log in'),
  t('clause', 'c-tab-then', 'Open the Reviews tab and click Write a review'),
  t('clause', 'c-hover-menu', 'Hover over Account and click Settings'),

  t('transform', 'c-upper', 'Type "orchid" in all upper case letters into the text field and press Submit'),
  t('transform', 'c-lower', 'Enter "Blue WHALE" into the Tag field in lower case and click Save'),

  t('list', 'l-five-boxes', 'Select Apple, Kiwi, Mango, Pear and Plum and click Submit'),
  t('list', 'l-days', 'Tick Monday, Wednesday and Friday, then press Save'),
  t('list', 'l-multi-select', 'Select Red, Green and Blue in the Colors list and click Apply'),
  t('list', 'l-fill-many', 'Fill in First name "Ada", Last name "Lovelace" and City "London", then press Save'),
  t('list', 'l-uncheck-all', 'Uncheck all the boxes and press Save'),

  t('native control', 'n-date-us', 'Enter 05/20/2010 into the date field and press Submit'),
  t('native control', 'n-date-iso', 'Enter 2021-12-24 into the Delivery date field and press Submit'),
  t('native control', 'n-time-pm', 'Set the time to 9:37 PM and press Submit'),
  t('native control', 'n-datetime', 'Enter March 3, 2024 at 14:05 into the Appointment field and press Book'),
  t('native control', 'n-month', 'Set the Start month to August 2023 and press Save'),
  t('native control', 'n-week', 'Choose week 12 of 2025 in the Week field and press Submit'),
  t('native control', 'n-number', 'Set the Quantity to 12 and press Submit'),
  t('native control', 'n-range', 'Use the slider to select 35 and click Submit'),
  t('native control', 'n-color-hex', 'Set the Color field to #ff8800 and click Apply'),
  t('native control', 'n-color-name', 'Set the Background color to red and click Apply'),
  t('native control', 'n-spinner', 'Select -10 with the spinner and click Submit'),
  t('native control', 'n-custom-slider', 'Set the Volume slider to 60 and press Save'),

  t('option', 'o-select', 'Select Canada from the Country dropdown and click Continue'),
  t('option', 'o-select-ordinal', 'Choose the second option in the Size dropdown and press Add to bag'),
  t('option', 'o-custom-dropdown', 'Choose Express from the Shipping dropdown and press Next'),

  t('ordinal', 'r-checkbox-radio', 'Check the 2nd checkbox and select the 3rd radio button, then press Submit'),
  t('ordinal', 'r-third-field', 'Type "42" into the 3rd text field and press Submit'),

  t('plain', 'p-click', 'Click the Subscribe button'),
  t('plain', 'p-fill', 'Type "hello world" into the Message field'),
  t('plain', 'p-check', 'Check the Remember me box'),
  t('plain', 'p-link', 'Click the Privacy link'),
  t('plain', 'p-enter', 'Type "cats" into the search box and press Enter'),
  t('plain', 'p-switch', 'Turn on Dark mode'),
  t('plain', 'p-expand', 'Expand the Shipping details section'),
  t('plain', 'p-email', 'Enter ada@example.com into the Email field and press Subscribe'),
  t('plain', 'p-url', 'Type https://example.org/docs into the Website field and click Save'),
  t('plain', 'p-clear', 'Clear the Search field and press Go'),
  t('plain', 'p-it', 'Click the Notes field and type "ready" into it'),
  t('plain', 'p-double-click', 'Double-click report.txt'),
  t('plain', 'p-drag', 'Drag the Blue card to the Done column'),
  t('plain', 'p-shortcut', 'Press Ctrl+S'),

  t('ambiguous', 'a-two-remove', 'Click the Remove button'),
  t('ambiguous', 'a-two-amount', 'Type "10" into the Amount field'),

  t('missing', 'm-button', 'Click the Export to PDF button'),
  t('missing', 'm-option', 'Select Portugal from the Country dropdown'),
  t('missing', 'm-field', 'Type "555-0100" into the Fax field and press Save'),

  t('negation', 'g-newsletter', 'Type "ada@example.com" into Email, do not tick the newsletter box, and press Sign up'),
  t('negation', 'g-dont-publish', 'Fill "Draft title" into the Title field but don\'t click Publish'),

  t('condition', 'i-total', 'If the total is more than 100, click Approve, otherwise click Reject'),
  t('condition', 'i-status', 'If the status says Offline, click Reconnect; otherwise click Refresh'),

  t('count', 'k-three-clicks', 'Click the Add button 3 times'),
  t('count', 'k-twice-order', 'Press the + button twice and then click Order'),
];
