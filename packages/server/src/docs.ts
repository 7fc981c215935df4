// A self-contained HTML reference rendered from openapi.yaml (no scripts, no external assets).
import { parse } from 'yaml';

type Json = Record<string, any>;

const escape = (text: unknown) =>
  String(text ?? '').replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]!);

const refName = (ref: string) => ref.split('/').pop()!;

function typeOf(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (schema.$ref) return `<a href="#schema-${refName(schema.$ref)}">${refName(schema.$ref)}</a>`;
  if (schema.const !== undefined) return `<code>${escape(JSON.stringify(schema.const))}</code>`;
  if (schema.enum) return schema.enum.map((v: unknown) => `<code>${escape(v)}</code>`).join(' | ');
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map(typeOf).join(' | ');
  if (schema.type === 'array') return `array of ${typeOf(schema.items)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return escape(schema.type ?? 'any');
}

function schemaSection(name: string, schema: Json): string {
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries<Json>(schema.properties ?? {})
    .map(([prop, s]) => `<tr><td><code>${prop}</code>${required.has(prop) ? ' *' : ''}</td><td>${typeOf(s)}</td><td>${escape(s.description)}${s.deprecated ? ' <em>(deprecated)</em>' : ''}</td></tr>`)
    .join('');
  const closed = schema.additionalProperties === false ? '<p><em>No other properties are allowed.</em></p>' : '';
  const body = rows ? `<table><tr><th>Field</th><th>Type</th><th>Notes</th></tr>${rows}</table>` : `<p>${typeOf(schema)}</p>`;
  return `<section id="schema-${name}"><h3>${name}</h3><p>${escape(schema.description)}</p>${body}${closed}</section>`;
}

function operationSection(spec: Json, method: string, path: string, op: Json): string {
  const params = (op.parameters ?? [])
    .map((p: Json) => (p.$ref ? spec.components.parameters[refName(p.$ref)] : p))
    .map((p: Json) => `<tr><td><code>${p.name}</code> (${p.in})${p.required ? ' *' : ''}</td><td>${typeOf(p.schema)}</td><td>${escape(p.description)}</td></tr>`)
    .join('');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const responses = Object.entries<Json>(op.responses)
    .map(([status, r]) => `<li><b>${status}</b> ${escape((r.$ref ? spec.components.responses[refName(r.$ref)] : r).description)}</li>`)
    .join('');
  return `<section id="op-${op.operationId}"><h3><code>${method.toUpperCase()} ${escape(path)}</code> ${escape(op.summary)}</h3>
<p>${escape(op.description)}</p>
${params ? `<table><tr><th>Parameter</th><th>Type</th><th>Notes</th></tr>${params}</table>` : ''}
${body ? `<p>Body: ${typeOf(body)}</p>` : ''}<ul>${responses}</ul></section>`;
}

export function renderDocs(specText: string): string {
  const spec: Json = parse(specText);
  const operations = Object.entries<Json>(spec.paths).flatMap(([path, item]) =>
    ['get', 'post'].filter((m) => item[m]).map((m) => operationSection(spec, m, path, item[m])),
  );
  const schemas = Object.entries<Json>(spec.components.schemas).map(([name, s]) => schemaSection(name, s));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(spec.info.title)} API ${escape(spec.info.version)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}code{background:#f4f4f4;padding:0 3px}section{margin-bottom:2em}</style>
</head><body><h1>${escape(spec.info.title)} API <small>${escape(spec.info.version)}</small></h1>
<p>${escape(spec.info.description).replace(/\n\n/g, '</p><p>')}</p>
<p>Raw contract: <a href="/openapi.yaml">/openapi.yaml</a></p>
<h2>Operations</h2>${operations.join('\n')}<h2>Schemas</h2>${schemas.join('\n')}</body></html>`;
}
