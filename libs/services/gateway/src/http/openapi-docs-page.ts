/**
 * The documentation page: the OpenAPI document rendered on the server as plain HTML (every
 * operation with its parameters, body and answer schemas). No script and no CDN: a self-hosted
 * server may be offline, and the page is only a reading of the document.
 */

type Json = Record<string, unknown>;

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const pretty = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;
/** `#/components/schemas/TaskV2` -> a link to that schema below. */
const linked = (html: string) => html.replace(/&#34;#\/components\/schemas\/([A-Za-z0-9]+)&#34;/g, '<a href="#schema-$1">"$1"</a>');

function operation(path: string, method: string, op: Json): string {
  const parameters = (op['parameters'] as Json[] | undefined) ?? [];
  const body = (op['requestBody'] as { content?: Record<string, { schema?: unknown }> } | undefined)?.content?.['application/json']?.schema;
  const responses = Object.entries((op['responses'] as Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }> | undefined) ?? {});
  const parameterRows = parameters
    .map((parameter) => `<tr><td><code>${escape(String(parameter['name']))}</code></td><td>${escape(String(parameter['in']))}</td><td>${parameter['required'] === true ? 'required' : ''}</td><td>${linked(pretty(parameter['schema']))}</td></tr>`)
    .join('');
  const responseRows = responses
    .map(([status, response]) => `<tr><td>${escape(status)}</td><td>${escape(response.description ?? '')}</td><td>${response.content ? linked(pretty(response.content['application/json']?.schema)) : ''}</td></tr>`)
    .join('');
  return `<section id="${escape(String(op['operationId']))}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${escape(path)}</code> <small>${escape(String(op['operationId']))}</small></h3>
${parameterRows ? `<table><tr><th>parameter</th><th>in</th><th></th><th>schema</th></tr>${parameterRows}</table>` : ''}
${body ? `<h4>JSON body</h4>${linked(pretty(body))}` : ''}
<table><tr><th>status</th><th></th><th>body</th></tr>${responseRows}</table>
</section>`;
}

export function openApiDocsPage(document: Json): string {
  const info = document['info'] as { title: string; description?: string; version: string };
  const paths = document['paths'] as Record<string, Record<string, Json>>;
  const schemas = (document['components'] as { schemas: Record<string, unknown> }).schemas;
  const operations = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => operation(path, method, op)));
  const index = Object.entries(paths)
    .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `<li><a href="#${escape(String(op['operationId']))}">${method.toUpperCase()} ${escape(path)}</a></li>`))
    .join('');
  const components = Object.entries(schemas)
    .map(([name, schema]) => `<section id="schema-${escape(name)}"><h3>${escape(name)}</h3>${linked(pretty(schema))}</section>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:70rem}pre{background:#f6f6f6;padding:.5rem;overflow:auto;margin:0}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.25rem .5rem;vertical-align:top;text-align:left}
.method{font-weight:bold;color:#a33}section{border-top:1px solid #ccc;padding-top:.5rem}</style></head>
<body><h1>${escape(info.title)} <small>${escape(info.version)}</small></h1>
<p>${escape(info.description ?? '')}</p><p>The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI ${escape(String(document['openapi']))}).</p>
<h2>Operations</h2><ul>${index}</ul>${operations.join('\n')}
<h2>Schemas</h2>${components}
</body></html>`;
}
