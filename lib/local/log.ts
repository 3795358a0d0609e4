/** The local stack's own progress and trouble lines (the handlers keep their JSON logs). */
export interface StackLog {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
}

export const consoleLog: StackLog = {
  info: (line) => console.log(`[snag] ${line}`),
  warn: (line) => console.warn(`[snag] ${line}`),
  error: (line) => console.error(`[snag] ${line}`),
};

export const quietLog: StackLog = { info() {}, warn() {}, error() {} };
