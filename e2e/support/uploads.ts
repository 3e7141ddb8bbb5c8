import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ServiceProcess, startProcess } from './processes';
import type { SystemUnderTest } from './system-view';

export interface FilePart {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly type?: string;
}

export interface UploadAnswer {
  readonly status: number;
  readonly body: any;
}

/** A multipart upload as clients send it: fields first (a v7/v8 `token` among them), then the file part `file`. */
export async function uploadMultipart(
  baseUrl: string,
  path: string,
  file: FilePart,
  options: { token?: string; fields?: Record<string, string>; fieldsAfter?: Record<string, string>; method?: string } = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name);
  for (const [name, value] of Object.entries(options.fieldsAfter ?? {})) form.append(name, value);
  const response = await fetch(new URL(path, baseUrl), { method: options.method ?? 'POST', headers: options.token ? { authorization: `Bearer ${options.token}` } : {}, body: form });
  return { status: response.status, body: await parsed(response) };
}

/** `POST /api/v1/uploads` with the file as the raw body, named by X-File-Name. */
export async function uploadRaw(baseUrl: string, token: string, file: FilePart): Promise<UploadAnswer> {
  const response = await fetch(new URL('/api/v1/uploads', baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-file-name': encodeURIComponent(file.name), 'content-type': file.type ?? 'application/octet-stream' },
    body: file.bytes,
  });
  return { status: response.status, body: await parsed(response) };
}

async function parsed(response: Response): Promise<any> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A file URL's bytes, headers and status. */
export async function download(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A file URL's bytes hashed as they arrive (a large download is never held whole). */
export async function downloadDigest(url: string): Promise<{ status: number; size: number; sha256: string }> {
  const response = await fetch(url);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { status: response.status, size, sha256: hash.digest('hex') };
}

/** A process's resident set size in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * A gateway replica as a process of its own (the compiled entry a container runs) beside a
 * cluster system: its memory can be read apart from the test's. Same NATS and subject prefix.
 */
export function startGatewayProcess(system: SystemUnderTest, env: Record<string, string>): ServiceProcess {
  const transport = system.natsTransport;
  if (!transport) throw new Error('a gateway process needs a cluster system');
  return startProcess('gateway', {
    LOG_LEVEL: 'info',
    RATE_LIMIT_AUTH_REQUESTS: '0',
    DATABASE_URL: '',
    ...env,
    NATS_URL: transport.url,
    NATS_SUBJECT_PREFIX: transport.subjectPrefix,
    PORT: '0',
    HOST: '127.0.0.1',
  });
}
