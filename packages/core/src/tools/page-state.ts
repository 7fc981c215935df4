// What a page-changing tool says about the page after it ran (its address and title), so a caller
// learns what changed without reading the page again.
import type { OperationScope } from '../scope/operation-scope.js';

export interface PageState {
  url: string;
  title: string;
}

export async function pageStateOf(scope: OperationScope): Promise<PageState> {
  const page = scope.page;
  // A page that is navigating away has no title to give: its address still says where it is.
  const title = await scope.deadline.race(page.title()).catch(() => '');
  return { url: page.url(), title };
}

/** "Page: <title> (<url>)": the sentence each page-changing tool ends its text with. */
export function pageSentence(state: PageState): string {
  return state.title ? `Page: "${state.title}" (${state.url}).` : `Page: ${state.url}.`;
}
