/**
 * One updating line on standard error while a command works for more than a second (solving and
 * drawing a large board, listing many paths, reading a long game), cleared when it is done. Only
 * on a terminal: in a pipe or a log file a line rewritten with carriage returns is noise, so
 * without a terminal the command is built with no line to write and this does nothing.
 *
 * The commands are synchronous (the engine's work is one call), so there is no timer: the work
 * reports where it is with `update`, which draws only once DELAY_MS have passed since the start
 * and then at most every INTERVAL_MS, so reporting from an inner loop costs a clock read.
 */

/** Work shorter than this shows no progress at all. */
export const DELAY_MS = 1000;

/** Least time between two drawings of the line. */
export const INTERVAL_MS = 100;

/** Erases the terminal's current line from its start: carriage return, then clear to its end. */
export const CLEAR_LINE = '\r\x1b[K';

export class Progress {
  private readonly start: number;
  private drawn = -Infinity;
  private shown = false;

  constructor(
    /** Writes to the terminal; undefined when standard error is not one. */
    private readonly write: ((text: string) => void) | undefined,
    /** The terminal's width: a longer line would wrap, and one carriage return could not erase it. */
    private readonly columns = 80,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.start = now();
  }

  /** Where the work is: `listing paths` with 300 of 1000 done, or a phase alone. */
  update(doing: string, done?: number, total?: number): void {
    if (this.write === undefined) return;
    const time = this.now();
    if (time - this.start < DELAY_MS || time - this.drawn < INTERVAL_MS) return;
    const count = done === undefined ? '' : total === undefined ? ` ${done}` : ` ${done} of ${total}`;
    this.draw(`${doing}${count}`, time);
  }

  /**
   * Shows `doing` now, however soon: for one call known to be long that cannot report from inside
   * (rasterising a large picture), so the line is there while it runs, not after.
   */
  begin(doing: string): void {
    if (this.write !== undefined) this.draw(doing, this.now());
  }

  private draw(text: string, time: number): void {
    this.drawn = time;
    // The seconds so far, once there is one: a line shown at once (begin) would say "0 s" until it is erased.
    const seconds = Math.floor((time - this.start) / 1000);
    const line = `chess-paths: ${text}${seconds > 0 ? ` (${seconds} s)` : ''}`;
    this.write?.(`${CLEAR_LINE}${line.slice(0, Math.max(0, this.columns - 1))}`);
    this.shown = true;
  }

  /** Erases the line, if one is shown: before output on the same terminal, and at the end. */
  clear(): void {
    if (!this.shown || this.write === undefined) return;
    this.write(CLEAR_LINE);
    this.shown = false;
  }
}
