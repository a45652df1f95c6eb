/**
 * The page of the MSW browser test (test/msw-browser.test.ts), bundled by
 * esbuild: it starts the service worker with the mock's handlers on the page's
 * own origin, then creates an image task, polls it and shows the image when
 * the task succeeds. `window.mock` is the handler set's controls (the test
 * advances the virtual clock with it).
 */
import { setupWorker } from 'msw/browser';
import { createMockHandlers } from '../../mock/web/msw.ts';

const KEY = 'mg_browser_secret1';
const mock = createMockHandlers({ baseUrl: location.origin, seed: 7 });
(window as unknown as { mock: typeof mock }).mock = mock;
const status = document.getElementById('status')!;

async function main() {
  await setupWorker(...mock.handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const body = JSON.stringify({
    provider: 'vendor_a',
    model: 'image-a-2',
    prompt: 'A lighthouse at dusk',
    imageConfig: { imageSize: '1K', aspectRatio: '16:9' },
  });
  const estimate = (await (await fetch('/v1/images/generation/estimate-credits', { method: 'POST', headers, body })).json()) as {
    data: { pixels?: { width: number; height: number } };
  };
  const created = (await (await fetch('/v1/images/generation/async', { method: 'POST', headers, body })).json()) as { code: number; data: { taskId: string } };
  status.textContent = `created ${created.data.taskId}`;
  status.dataset.taskId = created.data.taskId;
  for (;;) {
    const task = (await (await fetch(`/v1/images/generation/tasks/${created.data.taskId}`, { headers })).json()) as {
      data: { status: string; images?: { url: string }[] };
    };
    status.textContent = task.data.status;
    const image = task.data.images?.[0];
    if (image) {
      const img = document.createElement('img');
      img.id = 'result';
      img.dataset.width = String(estimate.data.pixels?.width);
      img.dataset.height = String(estimate.data.pixels?.height);
      img.src = image.url;
      document.body.append(img);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

main().catch((e: unknown) => {
  status.textContent = `error: ${String(e)}`;
});
