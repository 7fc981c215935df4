// %name% placeholders: replaced by their values only at the moment of execution, and any value that
// finds its way into a message is turned back into its placeholder.
import { replaceSecret } from '../secrets/mask-secrets.js';
import type { Variables, VariableValue } from '../types.js';

export function substituteVariables(text: string, variables: Variables | undefined): string {
  if (!variables) return text;
  return text.replace(/%([A-Za-z0-9_.-]+)%/g, (placeholder, name: string) =>
    Object.hasOwn(variables, name) ? String(valueOf(variables[name]!)) : placeholder,
  );
}

export function redactVariables(text: string, variables: Variables | undefined): string {
  if (!variables) return text;
  // Longest values first, so a value that contains another is replaced whole.
  const entries = Object.entries(variables)
    .map(([name, value]) => [name, String(valueOf(value))] as const)
    .filter(([, value]) => value.length > 0)
    .sort((a, b) => b[1].length - a[1].length);
  return entries.reduce((redacted, [name, value]) => replaceSecret(redacted, value, `%${name}%`), text);
}

/** The values of a call's variables as strings: the session keeps them as secrets (session-secrets.ts). */
export function variableValues(variables: Variables | undefined): string[] {
  return Object.values(variables ?? {})
    .map(valueOf)
    // A boolean says which way a switch goes; masking every "true" and "false" would wreck page text.
    .filter((value) => typeof value !== 'boolean')
    .map(String)
    .filter((value) => value.length > 0);
}

function valueOf(variable: VariableValue): string | number | boolean {
  return typeof variable === 'object' ? variable.value : variable;
}
