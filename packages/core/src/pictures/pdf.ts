// A PDF of the active page, printed by Chromium (print media, as Save as PDF), bounded in size.
import { DeckhandError, firstLine } from '../errors.js';
import type { OperationScope } from '../scope/operation-scope.js';

/** Past this the answer is refused rather than held in memory and sent: print fewer pages. */
export const PDF_MAX_BYTES = 64 * 1024 * 1024;

export interface PdfOptions {
  format?: 'Letter' | 'Legal' | 'Tabloid' | 'Ledger' | 'A0' | 'A1' | 'A2' | 'A3' | 'A4' | 'A5' | 'A6';
  landscape?: boolean;
  printBackground?: boolean;
  scale?: number;
  pageRanges?: string;
  preferCSSPageSize?: boolean;
}

export async function printPdf(scope: OperationScope, options: PdfOptions): Promise<Buffer> {
  let pdf: Buffer;
  try {
    pdf = await scope.deadline.race(
      scope.page.pdf({
        format: options.format ?? 'Letter',
        landscape: options.landscape ?? false,
        printBackground: options.printBackground ?? false,
        scale: options.scale ?? 1,
        pageRanges: options.pageRanges ?? '',
        preferCSSPageSize: options.preferCSSPageSize ?? false,
      }),
    );
  } catch (error) {
    throw asPdfError(error);
  }
  if (pdf.byteLength > PDF_MAX_BYTES) throw new DeckhandError('unprocessable', `The PDF is larger than ${PDF_MAX_BYTES / 1024 / 1024} MiB: print fewer pageRanges`);
  return pdf;
}

/** Chromium's own refusals (a page range past the end, a headed browser) are the request's to fix. */
function asPdfError(error: unknown): unknown {
  const message = firstLine(error);
  if (/page range/i.test(message)) return new DeckhandError('unprocessable', `pageRanges: ${message.replace(/^.*?:\s*/, '')}`, undefined, { cause: error });
  if (/PrintToPDF is not implemented|not supported|headless/i.test(message)) {
    return new DeckhandError('unprocessable', 'PDF needs a headless browser: this session\'s browser has a window (launchOptions.headless: false)', undefined, { cause: error });
  }
  return error;
}
