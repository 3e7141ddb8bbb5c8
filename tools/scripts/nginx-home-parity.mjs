// Checks that the gateways' NginxRing picks what a real nginx picks (docs/operations/home-gateways.md):
// nginx with the documented map and `hash $doable_home consistent` over 4 local upstreams, each
// answering its own `server` string; every request kind a user makes (bearer token, the push
// socket's ?home=, the first generation's ?token=) must reach the upstream NginxRing names for the
// user's home key, and again after one upstream leaves. Needs nginx on PATH and a build (dist/).
// Not part of `npm test` (nginx is not a test dependency): run it by hand, `node tools/scripts/nginx-home-parity.mjs`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The build is CommonJS.
const { NginxRing, homeKey } = createRequire(import.meta.url)(join(root, 'dist/libs/contracts/common/src/index.js'));

const USERS = 2_000;
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

const upstreams = [];
for (let index = 0; index < 4; index++) {
  const server = createServer((request, response) => response.end(server.name));
  server.name = `127.0.0.1:${await listen(server)}`;
  upstreams.push(server);
}
const front = createServer();
const frontPort = await listen(front);
front.close();
const dir = mkdtempSync(join(tmpdir(), 'nginx-homes-'));

function config(names) {
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_authorization $doable_bearer_home {
    "~^[Bb]earer +[0-9a-f]{32}(?<key>[0-9a-f]{8})$"  $key;
    default                                          "";
  }
  map "$doable_bearer_home:$arg_home:$arg_token" $doable_home {
    "~^(?<key>[0-9a-f]{8}):"                         $key;
    "~^:(?<key>[0-9a-f]{8}):"                        $key;
    "~^::[0-9a-f]{32}(?<key>[0-9a-f]{8})$"           $key;
    default                                          $remote_addr;
  }
  upstream doable_gateways {
    hash $doable_home consistent;
${names.map((name) => `    server ${name};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${frontPort};
    location / { proxy_pass http://doable_gateways; }
  }
}
`;
}

async function run(names) {
  writeFileSync(join(dir, 'nginx.conf'), config(names));
  const nginx = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await fetch(`http://127.0.0.1:${frontPort}/`);
        break;
      } catch (err) {
        if (attempt > 100) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const ring = new NginxRing(names);
    const picked = new Map();
    let mismatches = 0;
    for (let user = 1; user <= USERS; user++) {
      const key = homeKey(String(user));
      const token = randomBytes(16).toString('hex') + key;
      const expected = ring.homeOf(key);
      const asked = [
        fetch(`http://127.0.0.1:${frontPort}/api/v1/sync`, { headers: { authorization: `Bearer ${token}` } }),
        fetch(`http://127.0.0.1:${frontPort}/ws?token=${user}.1893456000.${'x'.repeat(43)}&home=${key}`),
        fetch(`http://127.0.0.1:${frontPort}/API/v7/sync?token=${token}`),
      ];
      for (const answer of await Promise.all(asked)) {
        const got = await answer.text();
        if (got !== expected) mismatches++;
      }
      picked.set(expected, (picked.get(expected) ?? 0) + 1);
    }
    return { mismatches, picked: Object.fromEntries(picked) };
  } finally {
    nginx.kill('SIGTERM');
    await new Promise((resolve) => nginx.once('exit', resolve));
  }
}

let failed = false;
try {
  const names = upstreams.map((server) => server.name);
  for (const members of [names, names.slice(1)]) {
    const { mismatches, picked } = await run(members);
    console.log(`${members.length} upstreams, ${USERS} users x 3 request kinds: ${mismatches} mismatches; users per upstream ${JSON.stringify(picked)}`);
    if (mismatches > 0) failed = true;
  }
} finally {
  for (const server of upstreams) server.close();
}
process.exit(failed ? 1 : 0);
