import { type CommandStore, CommandQueue, type QueueHooks, type Refusal, TransientSendError } from './command-queue';
import type { Command, SyncReply } from './sync-types';

/** The queue's storage in memory, as IndexedDB keeps it: in order, a put replaces in place. */
class MemoryStore implements CommandStore {
  readonly rows: Command[] = [];
  all(): Promise<Command[]> {
    return Promise.resolve([...this.rows]);
  }
  put(command: Command): Promise<void> {
    const at = this.rows.findIndex((row) => row.uuid === command.uuid);
    if (at >= 0) this.rows[at] = command;
    else this.rows.push(command);
    return Promise.resolve();
  }
  remove(uuids: readonly string[]): Promise<void> {
    for (const uuid of uuids) {
      const at = this.rows.findIndex((row) => row.uuid === uuid);
      if (at >= 0) this.rows.splice(at, 1);
    }
    return Promise.resolve();
  }
}

const add = (uuid: string, tempId: string, projectId = 'p1'): Command => ({ type: 'item_add', uuid, temp_id: tempId, args: { content: uuid, project_id: projectId } });

function harness(answers: ((commands: Command[]) => SyncReply | Error)[]) {
  const store = new MemoryStore();
  const sent: Command[][] = [];
  const refused: Refusal[] = [];
  const retries: (() => void)[] = [];
  const hooks: QueueHooks = {
    send: (commands) => {
      sent.push(commands);
      const answer = answers.shift()?.(commands) ?? new TransientSendError('offline');
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
    onRefused: (refusals) => refused.push(...refusals),
    schedule: (run) => retries.push(run),
  };
  return { store, sent, refused, retries, queue: new CommandQueue(store, hooks) };
}

const allOk = (commands: Command[]): SyncReply => ({ sync_status: Object.fromEntries(commands.map((command) => [command.uuid, 'ok'])) });

describe('CommandQueue', () => {
  it('keeps a command made offline and sends it, same uuid, when a retry finds the connection back', async () => {
    const { queue, store, sent, retries } = harness([() => new TransientSendError('offline'), allOk]);
    await queue.enqueue(add('c1', 't1'));
    expect(store.rows.map((row) => row.uuid)).toEqual(['c1']);
    expect(retries).toHaveLength(1);
    retries[0]();
    await queue.flush();
    expect(sent.map((batch) => batch.map((command) => command.uuid))).toEqual([['c1'], ['c1']]);
    expect(store.rows).toEqual([]);
    expect(queue.commands).toEqual([]);
  });

  it('survives a reload: what the store holds is sent by the next session', async () => {
    const first = harness([() => new TransientSendError('offline')]);
    await first.queue.enqueue(add('c1', 't1'));
    const second = new CommandQueue(first.store, { send: (commands) => Promise.resolve(allOk(commands)) });
    await second.load();
    expect(second.commands.map((command) => command.uuid)).toEqual(['c1']);
    await second.flush();
    expect(first.store.rows).toEqual([]);
  });

  it('drops a refused command, reports what the server said, and keeps the rest of the order', async () => {
    const { queue, store, refused } = harness([
      () => new TransientSendError('offline'),
      () => ({ sync_status: { c1: 'ok', c2: { error: 'Task not found', error_code: 22, error_tag: 'ITEM_NOT_FOUND', http_code: 404 } } }),
    ]);
    await queue.enqueue(add('c1', 't1'));
    await store.put({ type: 'item_complete', uuid: 'c2', args: { ids: ['gone'] } });
    await queue.load();
    await queue.flush();
    expect(refused).toEqual([{ command: expect.objectContaining({ uuid: 'c2' }), status: expect.objectContaining({ error_tag: 'ITEM_NOT_FOUND' }) }]);
    expect(store.rows).toEqual([]);
  });

  it('reads per-id answers: all ok is ok, one refused id is a refusal', async () => {
    const { queue, store, refused } = harness([
      () => ({
        sync_status: {
          c1: { '1': 'ok', '2': 'ok' },
          c2: { '3': 'ok', '4': { error: 'Task not found', error_code: 22 } },
        },
      }),
    ]);
    await store.put({ type: 'item_complete', uuid: 'c1', args: { ids: ['1', '2'] } });
    await store.put({ type: 'item_complete', uuid: 'c2', args: { ids: ['3', '4'] } });
    await queue.load();
    await queue.flush();
    expect(refused.map((refusal) => [refusal.command.uuid, refusal.status.error_code])).toEqual([['c2', 22]]);
    expect(store.rows).toEqual([]);
  });

  it('keeps a command the answer does not mention, for the next flush', async () => {
    const { queue, store } = harness([() => ({ sync_status: { c1: 'ok' } })]);
    await store.put(add('c1', 't1'));
    await store.put(add('c2', 't2'));
    await queue.load();
    await queue.flush();
    expect(store.rows.map((row) => row.uuid)).toEqual(['c2']);
  });

  it('goes on with the rest when the sender took only the first (a queued quick add goes alone), its temp id mapped', async () => {
    const { queue, store, sent } = harness([
      (commands) => ({ sync_status: { [commands[0]?.uuid ?? '']: 'ok' }, temp_id_mapping: { 'tmp-task': '700' } }),
      (commands) => allOk(commands),
    ]);
    await store.put({ type: 'quick_add', uuid: 'q1', temp_id: 'tmp-task', args: { text: 'Call Ana tomorrow p2' } });
    await store.put({ type: 'item_complete', uuid: 'c2', args: { ids: ['tmp-task'] } });
    await queue.load();
    await queue.flush();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([{ type: 'item_complete', uuid: 'c2', args: { ids: ['700'] } }]);
    expect(store.rows).toEqual([]);
  });

  it('sends commands queued during a send right after, with the temp ids the first answer mapped', async () => {
    let release: (reply: SyncReply) => void = () => undefined;
    const store = new MemoryStore();
    const sent: Command[][] = [];
    const queue = new CommandQueue(store, {
      send: (commands) => {
        sent.push(commands);
        if (sent.length === 1) return new Promise((resolve) => (release = resolve));
        return Promise.resolve(allOk(commands));
      },
    });
    const first = queue.enqueue({ type: 'project_add', uuid: 'c1', temp_id: 'tmp-project', args: { name: 'Work' } });
    await Promise.resolve();
    const second = queue.enqueue(add('c2', 't2', 'tmp-project'));
    release({ sync_status: { c1: 'ok' }, temp_id_mapping: { 'tmp-project': '900' } });
    await Promise.all([first, second]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([expect.objectContaining({ uuid: 'c2', args: { content: 'c2', project_id: '900' } })]);
    expect(store.rows).toEqual([]);
  });

  it('reads on a push cue with nothing queued, and a read that fails waits for the next cue, not a timer', async () => {
    const { queue, sent, retries } = harness([allOk, () => new TransientSendError('offline')]);
    await queue.sync();
    await queue.sync();
    expect(sent).toEqual([[], []]);
    expect(retries).toEqual([]);
    await queue.flush();
    expect(sent).toHaveLength(2);
  });

  it.each([
    ['while the request is out', 'send'],
    ['while its answer is being stored', 'settle'],
  ] as const)('reads again after a send for a push cue heard %s: that send may have read before the news', async (_when, stage) => {
    let answer: (reply: SyncReply) => void = () => undefined;
    let stored: () => void = () => undefined;
    const store = new MemoryStore();
    const storeRemove = store.remove.bind(store);
    store.remove = (uuids) => (stage === 'settle' && uuids.length > 0 ? new Promise<void>((resolve) => (stored = () => void storeRemove(uuids).then(resolve))) : storeRemove(uuids));
    const sent: Command[][] = [];
    const queue = new CommandQueue(store, {
      send: (commands) => {
        sent.push(commands);
        return sent.length === 1 ? new Promise((resolve) => (answer = resolve)) : Promise.resolve(allOk(commands));
      },
    });
    const edit = queue.enqueue(add('c1', 't1'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (stage === 'settle') {
      answer(allOk([add('c1', 't1')]));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const cue = queue.sync();
    if (stage === 'send') answer(allOk([add('c1', 't1')]));
    else stored();
    await Promise.all([edit, cue]);
    expect(sent).toEqual([[expect.objectContaining({ uuid: 'c1' })], []]);
    expect(store.rows).toEqual([]);
  });

  it('backs off between retries and retries once per pause, however many commands wait', async () => {
    const delays: number[] = [];
    const runs: (() => void)[] = [];
    const queue = new CommandQueue(new MemoryStore(), {
      send: () => Promise.reject(new TransientSendError('offline')),
      schedule: (run, ms) => {
        delays.push(ms);
        runs.push(run);
      },
    });
    await queue.enqueue(add('c1', 't1'));
    await queue.enqueue(add('c2', 't2'));
    expect(delays).toEqual([1000]);
    runs[0]();
    await queue.flush();
    expect(delays).toEqual([1000, 2000]);
  });

  it("records an answer given outside a sync before the sync settles it: kept in the store, the later commands naming the real id", async () => {
    const { queue, store } = harness([]);
    const quick: Command = { type: 'quick_add', uuid: 'q1', temp_id: 'tq', args: { text: 'Call Ana' } };
    const tick: Command = { type: 'item_complete', uuid: 'c2', args: { ids: ['tq'] } };
    await queue.enqueue(quick);
    await queue.enqueue(tick);
    await queue.recordAnswer({ ...quick, args: { ...quick.args, answered_id: '77' } }, { tq: '77' });
    // What a reload would load: the quick add knows its task, the tick names it.
    expect(store.rows).toEqual([
      { ...quick, args: { text: 'Call Ana', answered_id: '77' } },
      { ...tick, args: { ids: ['77'] } },
    ]);
    expect(queue.commands).toEqual(store.rows);
    // A command no longer queued (settled meanwhile) is not put back.
    await queue.recordAnswer({ ...quick, uuid: 'gone' }, {});
    expect(store.rows.map((row) => row.uuid)).toEqual(['q1', 'c2']);
  });
});
