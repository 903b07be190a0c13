import type { Command } from "../io";
import { applyCommand } from "./apply";
import { importCommand } from "./import";
import { planCommand } from "./plan";
import { simulatorCommand } from "./simulator";

export const COMMANDS: readonly Command[] = [planCommand, applyCommand, importCommand, simulatorCommand];
