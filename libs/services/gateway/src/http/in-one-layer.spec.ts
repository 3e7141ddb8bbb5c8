import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { inOneLayer } from './http-pipeline';

describe('inOneLayer', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const app = express();
    const mark =
      (name: string): RequestHandler =>
      (req, _res, next) => {
        (req as unknown as { seen: string[] }).seen = [...((req as unknown as { seen?: string[] }).seen ?? []), name];
        next();
      };
    const answerOn =
      (path: string): RequestHandler =>
      (req, res, next) => (req.path === path ? res.json({ answeredBy: path, seen: (req as unknown as { seen: string[] }).seen }) : next());
    app.use(
      inOneLayer([
        mark('a'),
        answerOn('/early'),
        mark('b'),
        (req, _res, next) => (req.path === '/passed' ? next(new Error('passed on')) : next()),
        (req, _res, next) => {
          if (req.path === '/thrown') throw new Error('thrown');
          if (req.path === '/rejected') return Promise.reject(new Error('rejected'));
          next();
          return undefined;
        },
      ]),
    );
    app.use((req, res) => res.json({ answeredBy: 'after', seen: (req as unknown as { seen: string[] }).seen }));
    app.use(((err: Error, _req, res, _next) => res.status(500).json({ error: err.message })) as express.ErrorRequestHandler);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`);
    return { status: response.status, body: await response.json() };
  };

  it('runs the steps in order, then the layers after it', async () => {
    await expect(get('/anything')).resolves.toEqual({ status: 200, body: { answeredBy: 'after', seen: ['a', 'b'] } });
  });

  it('stops at a step that answers', async () => {
    await expect(get('/early')).resolves.toEqual({ status: 200, body: { answeredBy: '/early', seen: ['a'] } });
  });

  it.each([
    ['/passed', 'passed on'],
    ['/thrown', 'thrown'],
    ['/rejected', 'rejected'],
  ])('hands an error to Express as a layer would (%s)', async (path, error) => {
    await expect(get(path)).resolves.toEqual({ status: 500, body: { error } });
  });
});
