/**
 * One matcher of OpenAPI path templates (`/v1/tasks/{taskId}`,
 * `/media/videos/{taskId}.mp4`) for every router of the mock: the operations
 * of the registry (the Express server and the fetch handlers, both through
 * mock/core/routes.ts) and the media routes the areas declare
 * (hosted-media.ts). It lives in services/, the lowest layer that matches
 * paths with it (an area's hosted-media lookup runs inside a handler), so
 * both import it without an upward import. Standard JavaScript only.
 */

/** A path template compiled to a regular expression. */
export interface PathTemplate {
  /** The template, as declared. */
  readonly template: string;
  /** Its parameter names, in order. */
  readonly names: readonly string[];
  /**
   * The decoded parameters when `path` (percent-encoded, without query)
   * matches; undefined when it does not, or when a parameter is not valid
   * percent-encoding (such a path names nothing).
   */
  match(path: string): Record<string, string> | undefined;
  /** True when `path` matches the template's shape, whatever its parameters' encoding. */
  test(path: string): boolean;
}

export interface PathTemplateOptions {
  /** Match letters in any case and allow one trailing slash, as Express routes do (operations); default false (media files). */
  loose?: boolean;
}

/**
 * Compiles `template`: a `{name}` matches within one path segment (lazily, so
 * `{taskId}.mp4` leaves the extension to the template). Parameters are
 * decoded with decodeURIComponent.
 */
export function compilePathTemplate(template: string, opts: PathTemplateOptions = {}): PathTemplate {
  const names: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+?)';
    })
    .join('');
  const re = opts.loose ? new RegExp(`^${source}/?$`, 'i') : new RegExp(`^${source}$`);
  return {
    template,
    names,
    test: (path) => re.test(path),
    match(path) {
      const m = re.exec(path);
      if (!m) return undefined;
      const params: Record<string, string> = {};
      try {
        for (let i = 0; i < names.length; i++) params[names[i]] = decodeURIComponent(m[i + 1]);
      } catch {
        return undefined;
      }
      return params;
    },
  };
}
