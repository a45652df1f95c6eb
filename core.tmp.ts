import { createWorlds } from './mock/core/worlds.ts';
const worlds = createWorlds({ engine: { clock: 'manual', rateLimit: false, accounts: [{ apiKey: 'mg_bench_secret1', credits: 1e12 }] } as never, runner: () => ({ strict: false }) } as never);
const w = worlds.main;
const body = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a cat on a skateboard, golden hour' }], duration: 5 };
const N = Number(process.argv[2] ?? 50000);
const mode = process.argv[3] ?? 'post';
let taskId = '';
for (let r = 0; r < 4; r++) {
  const t = performance.now();
  for (let i = 0; i < N; i++) {
    const a = await w.run(mode === 'post' ? 'createVideoTask' : 'getVideoTask', {
      authorization: 'Bearer mg_bench_secret1', prefer: '', params: mode === 'post' ? {} : { taskId }, query: {},
      readBody: () => Promise.resolve(JSON.parse(JSON.stringify(body))), origin: 'http://127.0.0.1:4010',
    }, {});
    if (i === 0 && r === 0 && mode === 'post') taskId = JSON.parse((a.body as {json:string}).json).data.taskId;
    if (i === 0 && r === 0) console.log(a.status, (a.body as {json:string}).json.slice(0, 120));
  }
  console.log(mode, ((performance.now() - t) * 1000) / N, 'µs per run');
}
