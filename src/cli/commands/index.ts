import type { Command } from "../io";
import { applyCommand } from "./apply";
import { importCommand } from "./import";
import { initCommand } from "./init";
import { planCommand } from "./plan";
import { providerCommand } from "./provider";
import { simulatorCommand } from "./simulator";
import { showCommand } from "./show";
import { synthCommand } from "./synth";
import { doctorCommand } from "./doctor";
import { alertsCommand } from "../triage/alerts";
import { casesCommand } from "../triage/cases";
import { fileEventsCommand } from "../triage/file-events";
import { reportCommand } from "./report";
import { rulesCommand } from "./rules";
import { whoCommand } from "./who";

export const COMMANDS: readonly Command[] = [initCommand, planCommand, applyCommand, synthCommand, showCommand, importCommand, simulatorCommand, alertsCommand, casesCommand, fileEventsCommand, rulesCommand, whoCommand, reportCommand, providerCommand, doctorCommand];
