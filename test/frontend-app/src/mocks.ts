/**
 * The mock in development only: MSW's service worker with the handlers of
 * mediagen-contract, answering the API on the app's own origin. Loaded by a
 * dynamic import behind import.meta.env.DEV (src/main.tsx), so a production
 * build carries none of it.
 */
export async function startMock(): Promise<void> {
  const [{ setupWorker }, { createMockHandlers }] = await Promise.all([import('msw/browser'), import('mediagen-contract/msw')]);
  const mock = createMockHandlers({ baseUrl: location.origin, seed: 7 });
  await setupWorker(...mock.handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledFrame: 'bypass', quiet: true });
}
