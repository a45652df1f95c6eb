/** The fields of a video task this app shows. */
export interface Task {
  taskId: string;
  status: string;
  videoUrl: string | null;
  params: { duration: number; resolution: string; ratio: string };
}

/** A task's status, and its video once it has one. */
export function VideoTask({ task }: { task: Task }) {
  return (
    <section>
      <p id="status" data-task-id={task.taskId} data-duration={task.params.duration}>
        {task.status}
      </p>
      {task.videoUrl && <video id="video" src={task.videoUrl} muted playsInline controls />}
    </section>
  );
}
