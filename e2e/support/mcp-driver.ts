import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface DriverAnswer {
  readonly ok?: any;
  readonly error?: { name: string; message: string; code: number | null };
}

/**
 * The official MCP SDK client in its own Node process (e2e/clients/mcp-driver.mjs), driven one
 * step at a time so a spec can act between steps (consent in a browser, a sync, a revocation).
 */
export class McpDriver {
  private readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private waiting?: () => void;
  private stderr = '';

  constructor() {
    this.child = spawn(process.execPath, [join(__dirname, '..', 'clients', 'mcp-driver.mjs')], { env: { PATH: process.env['PATH'] }, stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      this.waiting?.();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  /** Sends a step; answers its result line, or an `authorize` event the client printed first. */
  send(step: Record<string, unknown>): Promise<any> {
    this.child.stdin!.write(`${JSON.stringify(step)}\n`);
    return this.next();
  }

  /** The next line the client prints (an event or a step's answer). */
  async next(): Promise<any> {
    while (this.lines.length === 0) {
      if (this.child.exitCode !== null) throw new Error(`the MCP client exited (${this.child.exitCode}):\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiting = resolve;
        setTimeout(resolve, 200);
      });
    }
    return JSON.parse(this.lines.shift()!);
  }

  /** A step that must succeed: its result. */
  async ok(step: Record<string, unknown>): Promise<any> {
    const answer: DriverAnswer = await this.send(step);
    if (!answer.ok) throw new Error(`${String(step['op'])} failed: ${JSON.stringify(answer)}\n${this.stderr}`);
    return answer.ok;
  }

  /** A tool call that must succeed: its structured content. */
  async tool(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const result = await this.ok({ op: 'call', name, arguments: args });
    if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  }

  stop(): void {
    this.child.kill();
  }
}
