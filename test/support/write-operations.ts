/**
 * The write operations as tests name them: the operation table's (src/core/engine/operations.ts), never
 * spelt out again, so a new write is counted, filtered and waited for everywhere at once.
 */
import { WRITE_OPERATION_LIST } from "../../src/core/engine/operations";

/** Every write operation, in the table's order. */
export const WRITE_OPERATIONS: readonly string[] = WRITE_OPERATION_LIST;

/** Whether an operation name (a request log's, a counter's, a log line's word) is a write. */
export function isWrite(operation: string): boolean {
  return WRITE_OPERATIONS.includes(operation);
}

const WRITE_WORD = new RegExp(`\\b(${WRITE_OPERATIONS.join("|")})\\b`);

/** Whether a line of text names a write operation as a word of its own (the simulator's request log). */
export function namesWrite(line: string): boolean {
  return WRITE_WORD.test(line);
}

