import { useEffect, useState } from 'react';
import { VideoTask, type Task } from './VideoTask.tsx';

const headers = { Authorization: 'Bearer mg_demo_secret1', 'Content-Type': 'application/json' };

/** Creates one video task on the API (relative URLs: the app's own origin) and polls it until it ends. */
export function App() {
  const [task, setTask] = useState<Task | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let stop = false;
    (async () => {
      const body = {
        model: 'family1-video-2-fast',
        resolution: '720p',
        ratio: '16:9',
        duration: 5,
        content: [{ type: 'text', text: 'A red fox running through snow at dawn' }],
      };
      const created = (await (await fetch('/v1/video-generation/generate', { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
        code: number;
        data: { taskId: string };
      };
      if (created.code !== 0) throw new Error(`create answered code ${created.code}`);
      while (!stop) {
        const read = (await (await fetch(`/v1/video-generation/tasks/${created.data.taskId}`, { headers })).json()) as { data: Task };
        setTask(read.data);
        if (read.data.status === 'success' || read.data.status === 'failed') return;
        await new Promise((r) => setTimeout(r, 100));
      }
    })().catch((e: unknown) => setError(String(e)));
    return () => {
      stop = true;
    };
  }, []);
  return (
    <main>
      <h1 id="title">Video studio v1</h1>
      {error && <p id="error">{error}</p>}
      {task && <VideoTask task={task} />}
    </main>
  );
}
