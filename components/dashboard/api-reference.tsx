// A readable API reference rendered on the server from the OpenAPI 3.1 document: endpoints by
// tag with parameters, request and response shapes, error statuses and a curl example.
import type { ReactNode } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";

type Schema = { type?: string | string[]; $ref?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: unknown[]; description?: string; anyOf?: Schema[]; oneOf?: Schema[]; format?: string; const?: unknown };
type Operation = { operationId: string; summary: string; description?: string; tags: string[]; "x-key-kind"?: string; parameters: Array<{ name: string; in: string; required: boolean; description?: string; schema: Schema }>; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { description: string; content?: { "application/json": { schema: Schema } } }> };
export type OpenApiDocument = { info: { title: string; version: string; description?: string }; servers: Array<{ url: string }>; tags: Array<{ name: string }>; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const METHOD_TONES: Record<string, Tone> = { get: "blue", post: "green", patch: "yellow", put: "yellow", delete: "red" };
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-");

function refName(ref: string) {
  return ref.split("/").pop() ?? ref;
}

function typeLabel(s: Schema, doc: OpenApiDocument): string {
  if (s.$ref) return refName(s.$ref);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map((a) => typeLabel(a, doc)).join(" | ");
  if (s.type === "array" && s.items) return `${typeLabel(s.items, doc)}[]`;
  const t = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  return s.format ? `${t} (${s.format})` : t;
}

function resolve(s: Schema, doc: OpenApiDocument): Schema {
  if (s.$ref) return doc.components.schemas[refName(s.$ref)] ?? s;
  const nonNull = (s.anyOf ?? []).filter((a) => a.type !== "null");
  if (nonNull.length === 1) return resolve(nonNull[0]!, doc);
  if (s.type === "array" && s.items) return resolve(s.items, doc);
  return s;
}

function SchemaTable({ schema, doc, depth = 0 }: { schema: Schema; doc: OpenApiDocument; depth?: number }): ReactNode {
  const s = resolve(schema, doc);
  const props = Object.entries(s.properties ?? {});
  if (props.length === 0) return <p className="text-sm text-slate-700">{typeLabel(schema, doc)}</p>;
  return (
    <ul className={depth ? "mt-1 border-l border-slate-200 pl-3" : ""}>
      {props.map(([name, p]) => {
        const inner = resolve(p, doc);
        return (
          <li key={name} className="py-1 text-sm">
            <code className="font-mono text-xs font-semibold text-slate-900">{name}</code> <span className="font-mono text-xs text-slate-600">{typeLabel(p, doc)}</span>
            {s.required?.includes(name) ? <span className="ml-1 text-xs font-medium text-red-700">required</span> : null}
            {p.description ? <p className="text-xs text-slate-600"><Prose text={p.description} /></p> : null}
            {inner.properties && depth < 2 ? <SchemaTable schema={inner} doc={doc} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

function OperationView({ method, path, op, doc }: { method: string; path: string; op: Operation; doc: OpenApiDocument }) {
  const base = doc.servers[0]?.url ?? "";
  // JSON bodies, or a multipart upload (evidence files): shown as its fields, curl with -F.
  const [bodyType, bodyContent] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  const body = bodyContent?.schema;
  const bodyLines = !body ? [] : bodyType === "multipart/form-data" ? [`  -F "files=@evidence.pdf"`, `  -F "text=…"`] : [`  -H "Content-Type: application/json"`, `  -d '{…}'`];
  const curl = [`curl -X ${method.toUpperCase()} ${base}${path}`, `  -H "Authorization: Bearer sk_test_…"`, ...bodyLines].join(" \\\n");
  return (
    <article id={op.operationId} aria-labelledby={`${op.operationId}-title`} className="scroll-mt-20 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h3 id={`${op.operationId}-title`} className="flex flex-wrap items-center gap-2">
        <Badge tone={METHOD_TONES[method] ?? "gray"}>{method.toUpperCase()}</Badge>
        <code className="font-mono text-sm font-semibold text-slate-900">{path}</code>
        <span className="text-sm text-slate-700">{op.summary}</span>
        {op["x-key-kind"] ? <Badge>{op["x-key-kind"] === "S" ? "secret key" : "any key"}</Badge> : null}
      </h3>
      {op.description ? <p className="mt-2 text-sm text-slate-700"><Prose text={op.description} /></p> : null}
      {op.parameters.length ? (
        <div className="mt-3">
          <h4 className="text-xs font-semibold uppercase tracking-wide text-slate-600">Parameters</h4>
          <ul>
            {op.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`} className="py-1 text-sm">
                <code className="font-mono text-xs font-semibold">{p.name}</code> <span className="text-xs text-slate-600">{p.in}</span> <span className="font-mono text-xs text-slate-600">{typeLabel(p.schema, doc)}</span>
                {p.required ? <span className="ml-1 text-xs font-medium text-red-700">required</span> : null}
                {p.description ? <p className="text-xs text-slate-600"><Prose text={p.description} /></p> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {body ? (
        <details className="mt-3">
          <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-600">Request body</summary>
          <SchemaTable schema={body} doc={doc} />
        </details>
      ) : null}
      <details className="mt-3">
        <summary className="cursor-pointer text-xs font-semibold uppercase tracking-wide text-slate-600">Responses</summary>
        <ul className="mt-1 space-y-2">
          {Object.entries(op.responses).map(([status, r]) => (
            <li key={status} className="text-sm">
              <Badge tone={status.startsWith("2") ? "green" : "red"}>{status}</Badge> <span className="text-slate-700"><Prose text={r.description} /></span>
              {status.startsWith("2") && r.content?.["application/json"] ? (
                <SchemaTable schema={r.content["application/json"].schema} doc={doc} />
              ) : status.startsWith("2") && r.content ? (
                <p className="text-sm text-slate-600">A file: {Object.keys(r.content).join(", ")}</p>
              ) : null}
            </li>
          ))}
        </ul>
      </details>
      <pre tabIndex={0} aria-label={`curl example for ${method.toUpperCase()} ${path}`} className="mt-3 overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">
        {curl}
      </pre>
    </article>
  );
}

export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const byTag = new Map<string, Array<{ method: string; path: string; op: Operation }>>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags[0] ?? "Other";
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {doc.info.title}, version <code>{doc.info.version}</code>. Rendered from{" "}
            <a className="text-indigo-700 underline" href="/api/v1/openapi.json">
              /api/v1/openapi.json
            </a>
            .
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="API sections" className="lg:sticky lg:top-20 lg:self-start">
          <ul className="space-y-1 text-sm">
            {[...byTag.keys()].map((tag) => (
              <li key={tag}>
                <a href={`#tag-${slug(tag)}`} className="text-indigo-700 underline underline-offset-2 hover:text-indigo-900">
                  {tag}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-8">
          {doc.info.description ? <p className="text-sm text-slate-700"><Prose text={doc.info.description} /></p> : null}
          {[...byTag].map(([tag, ops]) => (
            <section key={tag} id={`tag-${slug(tag)}`} aria-labelledby={`tag-${slug(tag)}-title`} className="scroll-mt-20 space-y-3">
              <h2 id={`tag-${slug(tag)}-title`} className="text-lg font-semibold text-slate-900">
                {tag}
              </h2>
              {ops.map((o) => (
                <OperationView key={`${o.method} ${o.path}`} {...o} doc={doc} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </>
  );
}

/** The document's Markdown-ish text: `code` spans as code, never raw backticks on the page. */
function Prose({ text }: { text: string }) {
  return (
    <>
      {text.split(/(`[^`]+`)/g).map((part, i) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 2 ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] text-slate-900">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}
