/**
 * The I/O layer's public surface is its workflow (src/io/workflow/): the steps composed with every
 * check before a write. The modules below it (synth, observe, execute, plan files) are internal.
 */
export * from "./workflow";
