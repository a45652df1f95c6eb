/**
 * A handler raises only the errors its operation declares, checked at compile time (docs/architecture.md, "Errors a
 * handler raises"). This file is compiled by `tsc --noEmit` (`npm run typecheck`, and `npm run lint:code` in npm
 * test), never run: each line under `@ts-expect-error` must fail to compile, or tsc reports the directive as unused
 * and the check fails. The lines without one must compile.
 */
import type { ControlHandler, DeclaredError, Handler, ServiceContext } from '../mock/services/context.ts';
import { TaskKit, type Task } from '../mock/services/tasks.ts';

const kit = new TaskKit<Task<'pending' | 'success'>>({ area: 'type-test', idPrefix: 'tt', terminal: ['success'] });

/** A helper that raises one error: only a context that may raise it can call it. */
function charge(ctx: ServiceContext<'VIDEO_INSUFFICIENT_CREDITS'>, credits: number): void {
  if (ctx.account.credits < credits) throw ctx.fail('VIDEO_INSUFFICIENT_CREDITS', `costs ${credits}`);
}

/** A helper that raises nothing takes any handler's context. */
const keyOf = (ctx: ServiceContext) => ctx.account.apiKey;

// a declared error, directly, through a helper that raises it, and through the kit with the area's own lookup error
export const deleteVideo: Handler<'deleteVideoTask'> = ({ params }, ctx) => {
  kit.own(ctx, params.taskId, { notFound: 'VIDEO_TASK_NOT_FOUND', forbidden: 'VIDEO_TASK_FORBIDDEN' });
  void keyOf(ctx);
  throw ctx.fail('VIDEO_TASK_NOT_FINISHED', `taskId ${params.taskId}: still running`);
};
export const createVideo: Handler<'createVideoTask'> = (_input, ctx) => {
  charge(ctx, 10);
  kit.reserve(ctx, 'tt_1', 10, 'VIDEO_INSUFFICIENT_CREDITS', 'a task');
  return { taskId: 'tt_1', episodeId: 'ep_1', status: 'generating' };
};

// an error of the same area its operation does not declare
export const getVideo: Handler<'getVideoTask'> = ({ params }, ctx) => {
  // @ts-expect-error getVideoTask does not declare VIDEO_TASK_NOT_FINISHED
  throw ctx.fail('VIDEO_TASK_NOT_FINISHED', `taskId ${params.taskId}`);
};

// another area's error, a name outside the catalogue
export const getImage: Handler<'getImageTask'> = (_input, ctx) => {
  // @ts-expect-error getImageTask does not declare another area's not-found
  if (Math.sign(1) > 0) throw ctx.fail('VIDEO_TASK_NOT_FOUND');
  // @ts-expect-error not a catalogued error at all
  throw ctx.fail('NO_SUCH_ERROR');
};

// a helper whose error the operation does not declare: the context cannot be passed to it
export const listVideos: Handler<'listVideoTasks'> = ({ query }, ctx) => {
  // @ts-expect-error listVideoTasks does not declare VIDEO_INSUFFICIENT_CREDITS, which charge raises
  charge(ctx, 1);
  return { items: [], page: query.page, pageSize: query.pageSize, total: keyOf(ctx) ? 0 : 0 };
};

// the task kit raises the caller's own errors only: another area's lookup or credits error does not compile
export const shareVideo: Handler<'shareVideoTask'> = ({ params }, ctx) => {
  // @ts-expect-error shareVideoTask does not declare IMAGE_TASK_NOT_FOUND
  kit.own(ctx, params.taskId, { notFound: 'IMAGE_TASK_NOT_FOUND' });
  // @ts-expect-error shareVideoTask does not declare VIDEO_INSUFFICIENT_CREDITS
  kit.reserve(ctx, params.taskId, 1, 'VIDEO_INSUFFICIENT_CREDITS', 'x');
  return { taskId: params.taskId, enabledShare: true };
};

// the declared errors are the registry's: the area's own and the transport errors of its kind of operation
export const declaredOwn: DeclaredError<'getVideoTask'>[] = ['VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN', 'VIDEO_INVALID_PARAMETERS', 'UNAUTHORIZED'];
// @ts-expect-error getVideoTask has no body: no malformed-JSON error
export const noBodyErrors: DeclaredError<'getVideoTask'>[] = ['MALFORMED_JSON'];
// @ts-expect-error a multipart create with its own limit error does not declare PAYLOAD_TOO_LARGE
export const ownLimit: DeclaredError<'createVoiceClone'>[] = ['PAYLOAD_TOO_LARGE'];

// control handlers alike
export const advance: ControlHandler<'advanceClock'> = (_input, ctx) => {
  // @ts-expect-error advanceClock does not declare CONTROL_NOT_FOUND
  throw ctx.fail('CONTROL_NOT_FOUND');
};
