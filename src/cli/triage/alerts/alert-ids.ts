/** The alert IDs of an `alerts` subcommand, from its positional arguments. */
import { UsageError } from "../../../io/door-words";

/** The distinct alert IDs given (at least `min`, none empty), else a UsageError naming the command. */
export function alertIds(command: string, positionals: readonly string[], min = 1): string[] {
  if (positionals.length < min) throw new UsageError(`${command}: give the alert ID${min > 1 ? "s" : ""}. Run 'alert-rule-users ${command} --help' for usage.`);
  const empty = positionals.find((id) => id.trim() === "");
  if (empty !== undefined) throw new UsageError(`${command}: an alert ID must not be empty.`);
  return [...new Set(positionals)];
}
