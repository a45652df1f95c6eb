/** The parts of m3u8-parser (which ships no types) that the tests use. */
declare module 'm3u8-parser' {
  export interface M3u8Segment {
    uri: string;
    /** EXTINF duration, seconds. */
    duration: number;
    title?: string;
    timeline?: number;
  }

  export interface M3u8Manifest {
    allowCache?: boolean;
    version?: number;
    targetDuration?: number;
    mediaSequence?: number;
    playlistType?: string;
    endList?: boolean;
    discontinuityStarts: number[];
    segments: M3u8Segment[];
  }

  export class Parser {
    constructor(options?: Record<string, unknown>);
    manifest: M3u8Manifest;
    push(chunk: string): void;
    end(): void;
    on(event: 'warn' | 'info', listener: (e: { message: string }) => void): void;
  }
}
