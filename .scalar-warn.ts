import { launchChromium } from './test/browser.ts';
import { startMock } from './test/helpers.ts';
const m = await startMock();
const b = await launchChromium();
const page = await b.newPage({ viewport: { width: 1400, height: 1000 } });
page.on('console', async (msg) => {
  if (msg.type() !== 'warning' && msg.type() !== 'error') return;
  const args = await Promise.all(msg.args().map((a) => a.jsonValue().catch(() => '?')));
  console.log(msg.type(), JSON.stringify(args, (k, v) => (k === 'schema' ? undefined : v)).slice(0, 3000));
});
await page.goto(`${m.base}/docs`, { waitUntil: 'networkidle' });
await page.waitForFunction(() => document.body.innerText.includes('Create a video task'), undefined, { timeout: 60_000 });
await page.waitForTimeout(3000);
const info = await page.evaluate(() => {
  const t = [...document.querySelectorAll('table')].find((x) => x.innerText.includes('credits/s'));
  if (!t) return 'no table';
  const chain = []; let e: Element | null = t; while (e && chain.length < 12) { chain.push(`${e.tagName}.${[...e.classList].join('.')} ${Math.round(e.getBoundingClientRect().width)}`); e = e.parentElement; }
  return chain;
});
console.log(JSON.stringify(info, null, 1));
await b.close();
await m.close();
