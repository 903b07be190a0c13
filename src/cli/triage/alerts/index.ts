/**
 * `alert-rule-users alerts ...`: search, show, note, dismiss, reopen and escalate alert
 * notifications (docs/contract.md §8).
 */
import { commandGroup } from "../../service-command";
import { escalateCommand } from "./escalate";
import { noteCommand } from "./note";
import { searchCommand } from "./search";
import { showCommand } from "./show";
import { stateCommand } from "./state";

export const alertsCommand = commandGroup(
  "alerts",
  "Search, show, annotate, dismiss, reopen and escalate alert notifications",
  "Triage of alert notifications: search them, read their observations and files, set a note,\ndismiss or reopen them, and escalate one into a case with its file events.",
  [searchCommand, showCommand, noteCommand, stateCommand("dismiss", "RESOLVED"), stateCommand("reopen", "OPEN"), escalateCommand],
);
