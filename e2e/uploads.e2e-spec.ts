import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { http } from '@doable/shared-testing';
import sharp from 'sharp';
import { runClient } from './support/clients';
import { setPlan } from './support/plans';
import { shareWith } from './support/sharing';
import { createWith } from './support/workspaces';
import { MODES } from './support/system-view';
import { download, downloadDigest, residentBytes, startGatewayProcess, uploadMultipart, uploadRaw } from './support/uploads';
import { useSystem } from './support/use-system';

const MIB = 1024 * 1024;
/**
 * A warm gateway streaming 50 MB may grow by buffers and allocator slack, never by the file: a
 * process that held it would grow by 50 MB or more. The slack is read chunks that died and wait
 * for the garbage collector (a 20 ms sampler saw the stream itself hold at most 0.1 MB): 0.3-5.5
 * MB on a quiet machine, 11.4-20 MB on a loaded one, where the collector runs late (16 MB failed
 * about one loaded run in five). The bound sits between the two: 32 MiB, 12 MB over the worst
 * slack seen and 18 MB under the file.
 */
const RSS_ALLOWANCE_BYTES = 32 * MIB;
const text = (content: string) => new TextEncoder().encode(content);

/** Every upload path and its generation (public-api-facts §1.4). */
const GENERATIONS = [
  { prefix: '/API/v7', ids: 'number', tokenField: true },
  { prefix: '/api/v7', ids: 'number', tokenField: true },
  { prefix: '/sync/v8', ids: 'number', tokenField: true },
  { prefix: '/sync/v9', ids: 'string', tokenField: false },
] as const;

describe.each(MODES)('uploads (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 3 });
  const [me, them, small] = [accounts[0], accounts[1], accounts[2]];


  const expectAttachment = (body: any, fileName: string, size: number, type: string) =>
    expect(body).toMatchObject({ file_name: fileName, file_size: size, file_type: type, upload_state: 'completed', file_url: expect.stringContaining('/uploads/files/') });

  it.each(GENERATIONS)('$prefix/uploads/add, get and delete answer in their generation\'s shape', async ({ prefix, ids, tokenField }) => {
    const name = `notes ${prefix.replace(/\//g, '_')}.txt`;
    // Up to v8 the token may come as the form's first field, as the v7 docs send it.
    const added = await uploadMultipart(system.url, `${prefix}/uploads/add`, { name, bytes: text('plain notes'), type: 'image/png' }, tokenField ? { fields: { token: me.token, file_name: name } } : { token: me.token, fields: { file_name: name } });
    expect(added.status).toBe(200);
    expectAttachment(added.body, name, 11, 'text/plain');
    expect('resource_type' in added.body).toBe(ids === 'string');
    const file = await download(added.body.file_url);
    expect([file.status, file.bytes.toString(), file.headers.get('x-content-type-options')]).toEqual([200, 'plain notes', 'nosniff']);
    const listed = await http(system.url, 'POST', `${prefix}/uploads/get`, { token: me.token, form: { limit: '50' } });
    expect(listed.status).toBe(200);
    const record = (listed.body as any[]).find((upload) => upload.file_url === added.body.file_url);
    expect(record).toMatchObject({ filename: name, file_size: 11, file_type: 'text/plain', note_id: null, uploaded: expect.stringMatching(/ \+0000$/) });
    expect([typeof record.id, typeof record.user_id]).toEqual([ids, ids]);
    const deleted = await http(system.url, 'POST', `${prefix}/uploads/delete`, { token: me.token, form: { file_url: added.body.file_url } });
    expect([deleted.status, deleted.body]).toEqual([200, 'ok']);
    expect((await download(added.body.file_url)).status).toBe(404);
  });

  it('POST /api/v1/uploads takes multipart and a raw body; GET pages with a cursor; DELETE by file_url', async () => {
    const multipart = await uploadMultipart(system.url, '/api/v1/uploads', { name: 'a.csv', bytes: text('a,b\n1,2\n'), type: 'text/csv' }, { token: me.token, fields: { project_id: '123' } });
    expect(multipart.status).toBe(200);
    expectAttachment(multipart.body, 'a.csv', 8, 'text/csv');
    expect(multipart.body.resource_type).toBe('file');
    const raw = await uploadRaw(system.url, me.token, { name: 'résumé.txt', bytes: text('raw body'), type: 'text/plain' });
    expect(raw.status).toBe(200);
    expectAttachment(raw.body, 'résumé.txt', 8, 'text/plain');
    const first = await http(system.url, 'GET', '/api/v1/uploads?limit=1', { token: me.token });
    expect(first.status).toBe(200);
    expect(first.body.results.map((upload: any) => upload.file_url)).toEqual([raw.body.file_url]);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await http(system.url, 'GET', `/api/v1/uploads?limit=1&cursor=${first.body.next_cursor}`, { token: me.token });
    expect(second.body.results.map((upload: any) => upload.file_url)).toEqual([multipart.body.file_url]);
    expect(second.body.results[0]).toMatchObject({ project_id: '123', id: expect.any(String) });
    for (const url of [multipart.body.file_url, raw.body.file_url]) {
      const deleted = await http(system.url, 'DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(url)}`, { token: me.token });
      expect(deleted.status).toBe(200);
    }
    expect((await http(system.url, 'GET', '/api/v1/uploads?limit=51', { token: me.token })).status).toBe(400);
    expect((await uploadMultipart(system.url, '/api/v1/uploads', { name: 'late.txt', bytes: text('x') }, { fieldsAfter: { token: me.token } })).status).toBe(401);
  });

  it('an image gets tn_s, tn_m and tn_l of the canonical sizes, and each downloads', async () => {
    const png = await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#cc3366' } }).png().toBuffer();
    const added = await uploadMultipart(system.url, '/sync/v9/uploads/add', { name: 'wide.png', bytes: png, type: 'image/png' }, { token: me.token });
    expect(added.status).toBe(200);
    expectAttachment(added.body, 'wide.png', png.length, 'image/png');
    const sizes = { tn_s: [96, 48], tn_m: [288, 144], tn_l: [528, 264] } as const;
    for (const [name, [width, height]] of Object.entries(sizes)) {
      const [url, w, h] = added.body[name];
      expect([w, h]).toEqual([width, height]);
      const thumbnail = await download(url);
      expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
      const meta = await sharp(thumbnail.bytes).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
    }
    const original = await download(added.body.file_url);
    expect(original.bytes.equals(png)).toBe(true);
    expect(original.headers.get('content-disposition')).toMatch(/^inline; filename="wide.png"/);
  });

  it('a comment carrying an upload shows its attachment, thumbnails included, in every dialect', async () => {
    const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#00aa88' } }).png().toBuffer();
    const added = await uploadMultipart(system.url, '/api/v1/uploads', { name: 'square.png', bytes: png, type: 'image/png' }, { token: me.token });
    expect(added.status).toBe(200);
    const attachment = added.body;
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: me.token,
      json: {
        commands: [
          { type: 'item_add', uuid: `${mode}-att-task`, temp_id: 't', args: { content: 'with a file' } },
          { type: 'note_add', uuid: `${mode}-att-note`, temp_id: 'n', args: { item_id: 't', content: 'see file', file_attachment: attachment } },
        ],
      },
    });
    expect(made.body.sync_status).toEqual({ [`${mode}-att-task`]: 'ok', [`${mode}-att-note`]: 'ok' });
    const taskId: string = made.body.temp_id_mapping['t'];
    const expected = { file_url: attachment.file_url, file_type: 'image/png', tn_s: attachment.tn_s, tn_m: attachment.tn_m, tn_l: attachment.tn_l };
    const noteIn = (notes: any[]) => notes.find((note) => note.content === 'see file');
    for (const path of ['/api/v1/sync', '/sync/v9/sync', '/sync/v8/sync']) {
      const read = await http(system.url, 'POST', path, { token: me.token, json: { sync_token: '*', resource_types: ['notes'] } });
      expect({ path, attachment: noteIn(read.body.notes)?.file_attachment }).toEqual({ path, attachment: expect.objectContaining(expected) });
    }
    const v1 = await http(system.url, 'GET', `/api/v1/comments?task_id=${taskId}`, { token: me.token });
    expect(noteIn(v1.body.results).file_attachment).toEqual(expect.objectContaining(expected));
    const v2 = await http(system.url, 'GET', `/rest/v2/comments?task_id=${taskId}`, { token: me.token });
    expect(noteIn(v2.body).attachment).toEqual(expect.objectContaining(expected));
  });

  it('the plan limit is refused at its boundary, and a plan without uploads refuses them', async () => {
    await setPlan(system, small, 'small-uploads');
    const exact = await uploadMultipart(system.url, '/sync/v9/uploads/add', { name: 'exact.bin', bytes: randomBytes(MIB) }, { token: small.token });
    expect(exact.status).toBe(200);
    expect(exact.body.file_size).toBe(MIB);
    const over = await uploadMultipart(system.url, '/sync/v9/uploads/add', { name: 'over.bin', bytes: randomBytes(MIB + 1) }, { token: small.token });
    expect([over.status, over.body.error_tag]).toEqual([403, 'UPLOAD_SIZE_LIMIT_REACHED']);
    const rawOver = await uploadRaw(system.url, small.token, { name: 'over.bin', bytes: randomBytes(MIB + 1) });
    expect([rawOver.status, rawOver.body.error_tag]).toEqual([403, 'UPLOAD_SIZE_LIMIT_REACHED']);
    const listed = await http(system.url, 'GET', '/api/v1/uploads', { token: small.token });
    expect(listed.body.results.map((upload: any) => upload.file_size)).toEqual([MIB]);
    await setPlan(system, small, 'bare');
    const premium = await uploadMultipart(system.url, '/api/v1/uploads', { name: 'x.txt', bytes: text('x') }, { token: small.token });
    expect([premium.status, premium.body.error_tag, premium.body.error_extra?.feature]).toEqual([403, 'PREMIUM_ONLY', 'uploads']);
  });

  it('another user gets 404 on list, read and delete', async () => {
    const added = await uploadMultipart(system.url, '/api/v1/uploads', { name: 'private.txt', bytes: text('mine only') }, { token: me.token });
    expect(added.status).toBe(200);
    const url: string = added.body.file_url;
    const theirs = await http(system.url, 'GET', '/api/v1/uploads', { token: them.token });
    expect(theirs.body.results.map((upload: any) => upload.file_url)).not.toContain(url);
    const forged = url.replace(/(\/uploads\/files\/\d+\/)[^/]+/, '$1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect((await download(forged)).status).toBe(404);
    const next = url.replace(/\/uploads\/files\/(\d+)\//, (_, id: string) => `/uploads/files/${Number(id) + 1}/`);
    expect((await download(next)).status).toBe(404);
    const refused = await http(system.url, 'DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(url)}`, { token: them.token });
    expect(refused.status).toBe(404);
    expect((await http(system.url, 'POST', '/sync/v8/uploads/delete', { form: { token: them.token, file_url: url } })).status).toBe(404);
    expect((await download(url)).status).toBe(200);
  });

  /** The avatar as Todoist's clients send it: the image as the multipart part `image`. */
  const setAvatar = async (token: string, prefix: string, bytes: Uint8Array, type = 'image/png') => {
    const form = new FormData();
    form.append('image', new Blob([bytes], { type }), 'me.png');
    const response = await fetch(new URL(`${prefix}/update_avatar`, system.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const text = await response.text();
    return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  };
  const userIn = async (path: string, token: string): Promise<any> => {
    const response = await http(system.url, 'POST', path, { token, json: { sync_token: '*', resource_types: ['user'] } });
    expect(response.status).toBe(200);
    return response.body.user;
  };

  it('a user sets an avatar: four JPEG squares at its URLs, and image_id with avatar_* on the user in every generation and on collaborators', async () => {
    const made = await http(system.url, 'POST', '/api/v1/sync', { token: me.token, json: { commands: [{ type: 'project_add', uuid: `${mode}-avatar-p`, temp_id: 'p', args: { name: 'Faces' } }] } });
    const projectId = made.body.temp_id_mapping.p as string;
    await shareWith(system, me, them, projectId);
    const before = (await http(system.url, 'POST', '/api/v1/sync', { token: them.token, json: { sync_token: '*', resource_types: ['collaborators'] } })).body.sync_token;
    await createWith(system, me, 'workspace_add', { name: `Faces ${mode}` });
    const mineBefore = (await http(system.url, 'POST', '/api/v1/sync', { token: me.token, json: { sync_token: '*', resource_types: ['workspace_users'] } })).body.sync_token;

    const png = await sharp({ create: { width: 400, height: 300, channels: 4, background: '#22aa66' } }).png().toBuffer();
    const set = await setAvatar(me.token, '/sync/v9', png);
    expect(set.status).toBe(200);
    const imageId: string = set.body.image_id;
    expect(imageId).toMatch(/^[0-9a-f]{32}$/);
    const base = system.url.replace(/\/+$/, '');
    const urls = { avatar_big: `${base}/avatars/${imageId}_big.jpg`, avatar_medium: `${base}/avatars/${imageId}_medium.jpg`, avatar_small: `${base}/avatars/${imageId}_small.jpg`, avatar_s640: `${base}/avatars/${imageId}_s640.jpg` };
    expect(set.body).toEqual({ image_id: imageId, ...urls });
    const edges = { avatar_big: 195, avatar_medium: 60, avatar_small: 35, avatar_s640: 640 } as const;
    for (const [key, edge] of Object.entries(edges)) {
      const file = await download(urls[key as keyof typeof urls]);
      expect([file.status, file.headers.get('content-type'), file.headers.get('cache-control')]).toEqual([200, 'image/jpeg', 'public, max-age=31536000, immutable']);
      const meta = await sharp(file.bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', edge, edge]);
    }

    // The user object of every generation names it; the generations with avatar URLs carry them.
    expect(await userIn('/sync/v9/sync', me.token)).toMatchObject({ image_id: imageId, ...urls });
    expect(await userIn('/api/v1/sync', me.token)).toMatchObject({ image_id: imageId, ...urls });
    expect(await userIn('/sync/v8/sync', me.token)).toMatchObject({ image_id: imageId, ...urls });
    expect(await userIn('/API/v7/sync', me.token)).toMatchObject({ image_id: imageId, ...urls });
    expect((await http(system.url, 'GET', '/api/v1/user', { token: me.token })).body).toMatchObject({ image_id: imageId, ...urls });

    // A collaborator sees it: in their next incremental sync (the change reached them) and a full one.
    const changed = await http(system.url, 'POST', '/api/v1/sync', { token: them.token, json: { sync_token: before, resource_types: ['collaborators'] } });
    expect(changed.body.collaborators).toEqual(expect.arrayContaining([expect.objectContaining({ id: me.userId, image_id: imageId })]));
    const full = await http(system.url, 'POST', '/sync/v9/sync', { token: them.token, json: { sync_token: '*', resource_types: ['collaborators'] } });
    expect(full.body.collaborators.find((user: any) => user.id === me.userId)).toMatchObject({ image_id: imageId });
    const v8 = await http(system.url, 'POST', '/sync/v8/sync', { token: them.token, json: { sync_token: '*', resource_types: ['collaborators'] } });
    expect(v8.body.collaborators.find((user: any) => user.id === Number(me.userId))).toMatchObject({ image_id: imageId });
    // And a workspace member's record: in the next incremental sync of workspace_users.
    const members = await http(system.url, 'POST', '/api/v1/sync', { token: me.token, json: { sync_token: mineBefore, resource_types: ['workspace_users'] } });
    expect(members.body.workspace_users).toEqual([expect.objectContaining({ user_id: me.userId, image_id: imageId })]);
    const projectFull = await http(system.url, 'GET', `/api/v1/projects/${projectId}/full`, { token: them.token });
    expect(projectFull.body.collaborators.find((user: any) => user.id === me.userId)).toMatchObject({ image_id: imageId });

    // The official SDK validates the user with its avatar URLs and the collaborators with image_id.
    for (const account of [me, them]) {
      const report = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
      expect([report.fullSync, report.counts.collaborators]).toEqual([true, 2]);
    }

    // A new avatar replaces the old one, whose URLs answer 404; removing it leaves image_id null and no avatar_* keys.
    const again = await setAvatar(me.token, '/api/v1', png);
    expect(again.status).toBe(200);
    expect(again.body.image_id).not.toBe(imageId);
    expect((await download(urls.avatar_big)).status).toBe(404);
    const removed = await http(system.url, 'DELETE', '/sync/v9/update_avatar', { token: me.token });
    expect([removed.status, removed.body]).toEqual([200, { image_id: null }]);
    expect((await download(again.body.avatar_small)).status).toBe(404);
    const plain = await userIn('/sync/v9/sync', me.token);
    expect(plain.image_id).toBeNull();
    expect(Object.keys(plain).filter((key) => key.startsWith('avatar_'))).toEqual([]);
  });

  it('update_avatar refuses what is not an image, a file over its ceiling, and a caller without a token, with coded errors', async () => {
    const notImage = await setAvatar(them.token, '/API/v7', text('not a picture at all'));
    expect([notImage.status, notImage.body.error_tag, notImage.body.error_extra?.argument]).toEqual([400, 'INVALID_ARGUMENT_VALUE', 'image']);
    const tooLarge = await setAvatar(them.token, '/sync/v8', randomBytes(10 * MIB + 1));
    expect([tooLarge.status, tooLarge.body.error_tag]).toEqual([403, 'UPLOAD_SIZE_LIMIT_REACHED']);
    const anonymous = await fetch(new URL('/sync/v9/update_avatar', system.url), { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
    expect((await download(`${system.url.replace(/\/+$/, '')}/avatars/0123456789abcdef0123456789abcdef_big.jpg`)).status).toBe(404);
    expect((await userIn('/sync/v9/sync', them.token)).image_id).toBeNull();
  });

  if (mode === 'cluster') {
    it('streams a 50 MB upload through a gateway process without holding it, serves it from another replica, and deletes it', async () => {
      const gateway = startGatewayProcess(system, {});
      try {
        const url = await gateway.url();
        // A 50 MB body generated as it is sent (the test holds no 50 MB buffer either), hashed on the way.
        const send = async (name: string): Promise<{ response: Response; sha256: string }> => {
          const hash = createHash('sha256');
          let sent = 0;
          const body = Readable.from(
            (function* () {
              while (sent < size) {
                const chunk = randomBytes(Math.min(256 * 1024, size - sent));
                sent += chunk.length;
                hash.update(chunk);
                yield chunk;
              }
            })(),
          );
          const response = await fetch(new URL('/api/v1/uploads', url), {
            method: 'POST',
            headers: { authorization: `Bearer ${me.token}`, 'x-file-name': name, 'content-type': 'application/octet-stream' },
            body: Readable.toWeb(body) as ReadableStream,
            duplex: 'half',
          });
          return { response, sha256: hash.digest('hex') };
        };
        const size = 50 * MIB;
        // The resting level is a warm process's: one upload of the same size first. A fresh
        // process's first fast stream grows V8's young generation and malloc's arenas once, to
        // their working size (a bare Node server piping a request to disk does the same, by
        // 16-26 MB); after that, a process that held the file would still grow by 50 MB.
        const warm = await send('warm.bin');
        expect(warm.response.status).toBe(200);
        const warmUrl = ((await warm.response.json()) as { file_url: string }).file_url;
        expect((await http(system.url, 'DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(warmUrl)}`, { token: me.token })).status).toBe(200);
        const pid = gateway.child.pid!;
        const resting = residentBytes(pid);
        let peak = resting;
        const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 20);
        const { response, sha256 } = await send('big.bin');
        clearInterval(sampler);
        const added = (await response.json()) as any;
        expect([response.status, added.file_size]).toEqual([200, size]);
        expect(peak - resting).toBeLessThan(RSS_ALLOWANCE_BYTES);
        // The URL names the replica the upload went through; the other replica serves it.
        const elsewhere = added.file_url.replace(url.replace(/\/$/, ''), system.url.replace(/\/$/, ''));
        expect(elsewhere).not.toBe(added.file_url);
        expect(await downloadDigest(elsewhere)).toEqual({ status: 200, size, sha256 });
        const deleted = await http(system.url, 'DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(added.file_url)}`, { token: me.token });
        expect(deleted.status).toBe(200);
        expect((await download(elsewhere)).status).toBe(404);
      } finally {
        await gateway.stop();
      }
    });
  }
});
